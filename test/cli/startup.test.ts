/**
 * What `mara` loads to start: registering the commands needs commander and nothing heavy, and each
 * command loads its implementation (and with it the Pulumi SDK, YAML, configuration validation) only when
 * it runs. Checked twice: from the sources (the run-time imports of each registration module, followed
 * through the files they import) and from the modules a real `mara` process has loaded when it exits.
 * Timings are `npm run bench`'s business (docs/benchmarks.md), never a test's.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { builtinModules } from "module";
import * as ts from "typescript";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { COMMANDS as MARA_COMMANDS } from "../../cli/mara";

const ROOT = path.join(__dirname, "..", "..");
const REGISTER = path.join(ROOT, "cli", "register");
const REPORTER = path.join(ROOT, "bench", "lib", "hostReport.cjs");

/**
 * The modules a file loads when it is loaded: its `require`s outside any function, after TypeScript has
 * dropped the imports only types use (as the loader does). Requires inside functions (an action's lazy
 * `require`) run later, if at all.
 */
function eagerRequires(file: string): string[] {
    const { outputText } = ts.transpileModule(fs.readFileSync(file, "utf8"), {
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
        fileName: file,
    });
    const sf = ts.createSourceFile(`${file}.js`, outputText, ts.ScriptTarget.ES2022, true);
    const out: string[] = [];
    const visit = (n: ts.Node) => {
        if (ts.isFunctionLike(n)) return;
        if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === "require" && n.arguments.length === 1 && ts.isStringLiteral(n.arguments[0]!)) {
            out.push(n.arguments[0].text);
        }
        ts.forEachChild(n, visit);
    };
    visit(sf);
    return out;
}

/** Every package and repository file loading `file` loads, following the repository's own files. */
function closure(file: string): { packages: Set<string>; files: Set<string> } {
    const packages = new Set<string>();
    const files = new Set<string>();
    const walk = (f: string) => {
        const rel = path.relative(ROOT, f);
        if (files.has(rel)) return;
        files.add(rel);
        for (const spec of eagerRequires(f)) {
            if (spec.startsWith(".")) {
                const base = path.resolve(path.dirname(f), spec);
                walk([`${base}.ts`, path.join(base, "index.ts")].find((c) => fs.existsSync(c)) ?? `${base}.ts`);
            } else if (!builtinModules.includes(spec.replace(/^node:/, ""))) {
                packages.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!);
            }
        }
    };
    walk(file);
    return { packages, files };
}

/** Runs `mara` and lists what its process had loaded when it exited (paths relative to the repository). */
function loadedBy(args: string[]): Promise<{ code: number; stdout: string; loaded: string[]; builtins: string[] }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-startup-"));
    const report = path.join(dir, "report.json");
    const env = { ...process.env, NODE_OPTIONS: `--require ${REPORTER}`, MARA_HOST_REPORT: report, MARA_HOST_REPORT_LOADED: ROOT, NO_COLOR: "1" };
    return new Promise((resolve, reject) => {
        execFile(process.execPath, ["bin/mara.js", ...args], { cwd: ROOT, env }, (err, stdout) => {
            try {
                const { loaded, builtins } = JSON.parse(fs.readFileSync(report, "utf8")) as { loaded: string[]; builtins: string[] };
                resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, loaded, builtins });
            } catch (e) {
                reject(e);
            } finally {
                fs.rmSync(dir, { recursive: true, force: true });
            }
        });
    });
}

/**
 * Heavy packages, loaded from their folders or as bundles (bin/packageBundles.js: node_modules/.cache/mara-ts/bundles/
 * <name>@<version>.cjs). Sucrase is not among them: a start after an edit loads it to transform the edited file (and
 * after an install, to bundle commander); tsLoader.test.ts shows that a start with nothing changed does not.
 */
const HEAVY_PACKAGES = /node_modules\/(\.cache\/mara-ts\/bundles\/)?(@pulumi[/+]|yaml[/@]|js-yaml[/@]|@inquirer[/+]|@kubernetes[/+]|@aws-sdk[/+]|semver[/@])/;
/**
 * Node's network, TLS and crypto stacks (and fetch's undici), which only commands that talk to something need; and
 * the promise API of fs with readline, which `import * as fs` (it copies fs.promises) or reading process.stdin load.
 */
const HEAVY_BUILTINS = /^(http|https|tls|crypto|_tls_wrap|internal\/deps\/undici\/undici|internal\/crypto\/.*|internal\/fs\/promises|internal\/readline\/interface)$/;
/** Repository files that belong to a command's work, never to starting `mara`. */
const IMPLEMENTATION = /^(index\.ts|config\/|components\/|providers\/|program\/|cli\/commands\/|cli\/outdated\/|cli\/init\/|cli\/operation\.ts|cli\/stackSource\.ts|cli\/report\.ts)/;

const registrations = fs.readdirSync(REGISTER).filter((f) => f.endsWith(".ts"));
const COMMANDS = ["init", "plan", "render", "validate", "list-providers", "outdated", "doctor", "up", "preview", "destroy", "refresh", "kubeconfig", "open", "verify"];

describe("command registration (cli/register/)", () => {
    it("covers every command mara --help lists", async () => {
        const help = await loadedBy(["--help"]);
        for (const c of COMMANDS) expect(help.stdout).toMatch(new RegExp(`^  ${c}\\b`, "m"));
        expect(registrations.length).toBeGreaterThanOrEqual(COMMANDS.length);
    });

    for (const file of registrations) {
        it(`${file} loads commander and nothing of the command's work`, () => {
            const { packages, files } = closure(path.join(REGISTER, file));
            expect([...packages].filter((p) => p !== "commander")).toEqual([]);
            expect([...files].filter((f) => IMPLEMENTATION.test(f))).toEqual([]);
        });
    }

    it("the command table (cli/mara.ts) names each command as its registration module does, aliases included", () => {
        const ctx = { io: {} as never, setExit: () => {} };
        for (const entry of MARA_COMMANDS) {
            const program = new Command("mara");
            entry.load().register(program, ctx);
            expect(program.commands.map((c) => [c.name(), ...c.aliases()])).toEqual([entry.names]);
        }
        expect(MARA_COMMANDS.map((c) => c.names[0])).toEqual(COMMANDS);
    });

    it("the source check sees a heavy import when there is one (plan's implementation runs the program)", () => {
        const { packages, files } = closure(path.join(ROOT, "cli", "commands", "plan.ts"));
        expect([...packages]).toContain("@pulumi/pulumi");
        expect([...files]).toContain("index.ts");
    }, 120_000);
});

describe("starting mara (the modules a real process loads)", () => {
    it("mara --help and every command's --help load no Pulumi SDK, YAML, prompt library, configuration or command implementation", async () => {
        for (const args of [["--help"], ...COMMANDS.map((c) => [c, "--help"])]) {
            const r = await loadedBy(args);
            expect(r.code, args.join(" ")).toBe(0);
            expect(r.loaded.filter((f) => HEAVY_PACKAGES.test(f) || IMPLEMENTATION.test(f)), args.join(" ")).toEqual([]);
            expect(r.builtins.filter((m) => HEAVY_BUILTINS.test(m)), args.join(" ")).toEqual([]);
        }
    }, 60_000);

    it("the built-in check sees Node's HTTP and TLS stacks when a command uses them (verify, against a closed port)", async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-startup-outputs-"));
        try {
            const outputs = path.join(dir, "outputs.json");
            fs.writeFileSync(outputs, JSON.stringify({ application_url: "https://127.0.0.1:9", demo_login: { username: "testuser", password: "x" } }));
            const r = await loadedBy(["verify", "--outputs-file", outputs, "--timeout", "5"]);
            expect(r.code).toBe(1);
            expect(r.builtins).toEqual(expect.arrayContaining(["https", "tls"]));
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it("a command's help, or the command, loads its own registration module and no other", async () => {
        for (const args of [["validate", "--help"], ["help", "plan"], ["down", "--help"]]) {
            const r = await loadedBy(args);
            expect(r.code, args.join(" ")).toBe(0);
            expect(r.loaded.filter((f) => f.startsWith("cli/register/") && f !== "cli/register/operation.ts"), args.join(" ")).toHaveLength(1);
        }
    });

    it("mara list-providers loads its own implementation and still no Pulumi SDK, YAML or configuration", async () => {
        const r = await loadedBy(["list-providers"]);
        expect(r.code).toBe(0);
        expect(r.loaded).toContain("cli/commands/listProviders.ts");
        expect(r.loaded.filter((f) => HEAVY_PACKAGES.test(f) || /^(config\/|index\.ts|components\/|providers\/)/.test(f))).toEqual([]);
    });

    it("mara validate loads configuration validation but no Pulumi SDK (on a stack without secrets) and no part of the program", async () => {
        const r = await loadedBy(["validate", "--config-file", "test/fixtures/Pulumi.minimal-aws.yaml"]);
        expect(r.code).toBe(0);
        expect(r.loaded).toContain("config/validate.ts");
        // The add-on units' configuration halves and data are validation's (docs/design.md, "Layers"): they load no SDK.
        const unitConfig = /^components\/[A-Za-z]+\/(defaults|keys|settings)\.ts$/;
        expect(r.loaded).toContain("components/certManager/keys.ts");
        expect(r.loaded.filter((f) => /node_modules\/@pulumi\//.test(f) || (/^(index\.ts|components\/|providers\/|program\/)/.test(f) && !unitConfig.test(f)))).toEqual([]);
        expect(r.builtins.filter((m) => HEAVY_BUILTINS.test(m))).toEqual([]);
    });
});
