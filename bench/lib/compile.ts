/**
 * The program (and the benchmark's children) transpiled to plain JavaScript in a temporary directory,
 * so their cost can be measured without ts-node: what `pulumi up` would cost if the program were run
 * as compiled JavaScript. Transpile-only (one file at a time), like ts-node in transpile-only mode.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as ts from "typescript";
import { REPO } from "./stacks";

// The program, the benchmark, and the modules it shares with the offline plan and the tests (the simulated cloud).
const SOURCES = ["index.ts", "components", "contracts", "program", "providers", "config", "bench", "cli/mockRuntime.ts", "cli/simulatedCloud.ts"];

function tsFiles(rel: string): string[] {
    const abs = path.join(REPO, rel);
    if (fs.statSync(abs).isFile()) return rel.endsWith(".ts") ? [rel] : [];
    return fs.readdirSync(abs).flatMap((f) => (f === "node_modules" || f === "results" ? [] : tsFiles(path.join(rel, f))));
}

/** Transpiles into a fresh temporary directory and returns it; node_modules is linked, data files copied. */
export function compileToTemp(): string {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "mara-bench-js-"));
    const options: ts.CompilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };
    for (const rel of SOURCES.flatMap(tsFiles)) {
        const { outputText } = ts.transpileModule(fs.readFileSync(path.join(REPO, rel), "utf8"), { compilerOptions: options, fileName: rel });
        const target = path.join(out, rel.replace(/\.ts$/, ".js"));
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.writeFileSync(target, outputText);
    }
    fs.cpSync(path.join(REPO, "bench", "stacks"), path.join(out, "bench", "stacks"), { recursive: true });
    fs.symlinkSync(path.join(REPO, "node_modules"), path.join(out, "node_modules"), "dir");
    return out;
}

/** Removes a directory made by {@link compileToTemp}. */
export function removeTemp(dir: string): void {
    fs.rmSync(dir, { recursive: true, force: true });
}
