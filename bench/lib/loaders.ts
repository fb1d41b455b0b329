/**
 * The ways `pulumi up` can load this TypeScript program, as Pulumi.yaml settings of the nodejs runtime,
 * each with the project directory it runs in. Two need a prepared copy of the program in a temporary
 * directory: compiled JavaScript (what a build step would produce) and a copy rewritten for Node's own
 * type stripping (what a codebase-wide rewrite would produce); both link the repository's node_modules.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as ts from "typescript";
import type { NodejsRuntimeOptions } from "./pulumiHost";
import { REPO } from "./stacks";

/** One way of loading the program. */
export interface LoaderVariant {
    readonly id: "ts-node" | "tsx" | "tsx-cjs" | "sucrase" | "strip-types" | "strip-types-rewritten" | "compiled";
    /** How the table names it. */
    readonly label: string;
    /** Pulumi.yaml `runtime.options`. */
    readonly runtime: NodejsRuntimeOptions;
    /** Pulumi.yaml `main`, relative to the project directory. */
    readonly main: string;
    /** What it takes beyond `npm ci` and `pulumi up`, in a few words. */
    readonly needs: string;
    /** Makes the project directory to run in; REPO when the repository runs as it is. */
    prepare(): string;
}

/** The program's sources: what `index.ts` can reach, plus the data files next to them. */
const PROGRAM = ["index.ts", "components", "contracts", "program", "providers", "config"];

function tsFiles(rel: string): string[] {
    const abs = path.join(REPO, rel);
    if (fs.statSync(abs).isFile()) return rel.endsWith(".ts") ? [rel] : [];
    return fs.readdirSync(abs).flatMap((f) => tsFiles(path.join(rel, f)));
}

/** A fresh temporary project directory with the repository's package.json (adjusted) and node_modules. */
function tempProject(kind: string, pkg: (p: Record<string, unknown>) => Record<string, unknown> = (p) => p): string {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), `mara-${kind}-`));
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as Record<string, unknown>;
    fs.writeFileSync(path.join(out, "package.json"), JSON.stringify(pkg(manifest), null, 2));
    // The data the program reads next to its modules (Dockerfiles, CRDs, dashboards): everything but the .ts files.
    for (const dir of PROGRAM.filter((p) => fs.statSync(path.join(REPO, p)).isDirectory())) {
        fs.cpSync(path.join(REPO, dir), path.join(out, dir), { recursive: true, filter: (src) => !src.endsWith(".ts") });
    }
    fs.symlinkSync(path.join(REPO, "node_modules"), path.join(out, "node_modules"), "dir");
    return out;
}

/**
 * The program compiled to CommonJS with source maps, file by file (as `tsc` with the repository's settings
 * emits it; type-checking is CI's job either way).
 */
export function compileProgram(): string {
    const out = tempProject("compiled");
    const { config } = ts.readConfigFile(path.join(REPO, "tsconfig.json"), ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config, ts.sys, REPO);
    for (const rel of PROGRAM.flatMap(tsFiles)) {
        const js = rel.replace(/\.ts$/, ".js");
        const { outputText, sourceMapText } = ts.transpileModule(fs.readFileSync(path.join(REPO, rel), "utf8"), {
            compilerOptions: { ...options, sourceMap: true, inlineSources: true, noEmit: false },
            fileName: path.join(REPO, rel),
        });
        fs.mkdirSync(path.dirname(path.join(out, js)), { recursive: true });
        fs.writeFileSync(path.join(out, js), outputText);
        if (sourceMapText) fs.writeFileSync(path.join(out, `${js}.map`), sourceMapText);
    }
    return out;
}

/**
 * The program rewritten the way Node's type stripping needs it: ES modules ("type": "module"), every
 * relative import naming its `.ts` file (and each deep import into a package its `.js` file), names used
 * only as types imported with `import type`, `export =` as a default export, and `require` and
 * `__dirname` from `node:module` and `import.meta`. This is the codebase-wide change type stripping would take.
 */
export function rewriteForTypeStripping(): string {
    const out = tempProject("strip", (p) => ({ ...p, type: "module" }));
    for (const rel of PROGRAM.flatMap(tsFiles)) {
        const file = path.join(REPO, rel);
        const src = fs.readFileSync(file, "utf8");
        const sf = ts.createSourceFile(file, src, ts.ScriptTarget.ES2022, true);
        const edits: { at: number; end: number; text: string }[] = [];
        const explicit = (spec: string) => {
            const base = path.resolve(path.dirname(file), spec);
            if (fs.existsSync(`${base}.ts`)) return `${spec}.ts`;
            if (fs.existsSync(path.join(base, "index.ts"))) return `${spec}/index.ts`;
            return spec;
        };
        const runtimeNames = valueImports(src, file);
        const visit = (n: ts.Node) => {
            // Node strips `import type` only: a name imported for types alone must say so (verbatimModuleSyntax).
            if (ts.isImportDeclaration(n) && !n.importClause?.isTypeOnly && ts.isStringLiteral(n.moduleSpecifier)) {
                const kept = runtimeNames.get(n.moduleSpecifier.text);
                const clause = n.importClause;
                if (clause && !kept) edits.push({ at: n.getStart(sf) + "import".length, end: n.getStart(sf) + "import".length, text: " type" });
                else if (clause?.namedBindings && ts.isNamedImports(clause.namedBindings)) {
                    for (const el of clause.namedBindings.elements) {
                        if (!el.isTypeOnly && !kept!.has(el.name.text)) edits.push({ at: el.getStart(sf), end: el.getStart(sf), text: "type " });
                    }
                }
            }
            if (ts.isExportDeclaration(n) && !n.isTypeOnly && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier) && n.exportClause && ts.isNamedExports(n.exportClause)) {
                const kept = runtimeNames.get(`export ${n.moduleSpecifier.text}`);
                for (const el of n.exportClause.elements) {
                    if (!el.isTypeOnly && !kept?.has(el.name.text)) edits.push({ at: el.getStart(sf), end: el.getStart(sf), text: "type " });
                }
            }
            let lit: ts.StringLiteral | undefined;
            if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) lit = n.moduleSpecifier;
            if (ts.isCallExpression(n) && n.arguments.length === 1 && ts.isStringLiteral(n.arguments[0]!) && (n.expression.getText(sf) === "require" || n.expression.kind === ts.SyntaxKind.ImportKeyword)) {
                lit = n.arguments[0] as ts.StringLiteral;
            }
            if (lit && lit.text.startsWith(".")) edits.push({ at: lit.getStart(sf) + 1, end: lit.getEnd() - 1, text: explicit(lit.text) });
            // ES modules cannot import a package's directory or extensionless file (`@pulumi/pulumi/log`): name the file.
            else if (lit && /^(@[^/]+\/)?[^/.][^/]*\/./.test(lit.text) && !lit.text.startsWith("node:")) {
                const resolved = require.resolve(lit.text, { paths: [path.dirname(file)] });
                const pkg = lit.text.split("/").slice(0, lit.text.startsWith("@") ? 2 : 1).join("/");
                const inPackage = resolved.slice(resolved.lastIndexOf(`${path.sep}node_modules${path.sep}`) + "/node_modules/".length + pkg.length + 1);
                edits.push({ at: lit.getStart(sf) + 1, end: lit.getEnd() - 1, text: `${pkg}/${inPackage.split(path.sep).join("/")}` });
            }
            if (ts.isExportAssignment(n) && n.isExportEquals) edits.push({ at: n.getStart(sf), end: n.expression.getStart(sf), text: "export default " });
            if (ts.isIdentifier(n) && n.text === "__dirname") edits.push({ at: n.getStart(sf), end: n.getEnd(), text: "import.meta.dirname" });
            ts.forEachChild(n, visit);
        };
        visit(sf);
        let text = src;
        for (const e of edits.sort((a, b) => b.at - a.at)) text = text.slice(0, e.at) + e.text + text.slice(e.end);
        if (/\brequire\(/.test(src)) text = `import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n${text}`;
        fs.mkdirSync(path.dirname(path.join(out, rel)), { recursive: true });
        fs.writeFileSync(path.join(out, rel), text);
    }
    return out;
}

/**
 * Per module specifier, the names a file imports (or re-exports, keyed `export <spec>`) for use at run time:
 * what TypeScript keeps when it compiles the file on its own, having dropped what only types use.
 */
function valueImports(src: string, file: string): Map<string, Set<string>> {
    const { outputText } = ts.transpileModule(src, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false, isolatedModules: true },
        fileName: file,
    });
    const out = new Map<string, Set<string>>();
    const sf = ts.createSourceFile(`${file}.js`, outputText, ts.ScriptTarget.ES2022, true);
    for (const st of sf.statements) {
        if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
            const names = out.get(st.moduleSpecifier.text) ?? new Set<string>();
            const c = st.importClause;
            if (c?.name) names.add(c.name.text);
            if (c?.namedBindings && ts.isNamedImports(c.namedBindings)) c.namedBindings.elements.forEach((e) => names.add(e.name.text));
            if (c?.namedBindings && ts.isNamespaceImport(c.namedBindings)) names.add(c.namedBindings.name.text);
            out.set(st.moduleSpecifier.text, names);
        }
        if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) && st.exportClause && ts.isNamedExports(st.exportClause)) {
            out.set(`export ${st.moduleSpecifier.text}`, new Set(st.exportClause.elements.map((e) => e.name.text)));
        }
    }
    return out;
}

/** Removes a directory made by {@link compileProgram} or {@link rewriteForTypeStripping}. */
export function removeProject(dir: string): void {
    if (dir !== REPO) fs.rmSync(dir, { recursive: true, force: true });
}

/** The candidates, in table order. */
export const LOADERS: readonly LoaderVariant[] = [
    { id: "ts-node", label: "ts-node, transpile-only (Pulumi's default)", runtime: { typescript: true }, main: "index.ts", needs: "nothing", prepare: () => REPO },
    { id: "tsx", label: "tsx (esbuild): nodeargs --import tsx", runtime: { typescript: false, nodeargs: "--import tsx" }, main: "index.ts", needs: "tsx installed", prepare: () => REPO },
    { id: "tsx-cjs", label: "tsx (esbuild): nodeargs --require tsx/cjs", runtime: { typescript: false, nodeargs: "--require tsx/cjs" }, main: "index.ts", needs: "tsx installed", prepare: () => REPO },
    { id: "sucrase", label: "Sucrase: nodeargs --require sucrase/register/ts", runtime: { typescript: false, nodeargs: "--require sucrase/register/ts" }, main: "index.ts", needs: "sucrase installed", prepare: () => REPO },
    { id: "strip-types", label: "Node type stripping, sources as they are", runtime: { typescript: false }, main: "index.ts", needs: "—", prepare: () => REPO },
    {
        id: "strip-types-rewritten",
        label: "Node type stripping, sources rewritten as ES modules",
        runtime: { typescript: false },
        main: "index.ts",
        needs: "every relative import rewritten (.ts), ES modules",
        prepare: rewriteForTypeStripping,
    },
    { id: "compiled", label: "compiled JavaScript (tsc, source maps)", runtime: { typescript: false }, main: "index.js", needs: "a build before every run", prepare: compileProgram },
];
