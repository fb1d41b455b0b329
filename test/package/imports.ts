/**
 * The package's own import statements, read from the sources with TypeScript's parser: what the layering test and
 * the circle test check. Type-only imports, `export ... from`, `require` and `import()` count alike, since each is an
 * arrow a reader follows and a refactor must keep pointing one way.
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";

export const ROOT = path.join(__dirname, "..", "..");

/** Every `.ts` file under `rel` (a folder or a file), relative to the root; installed packages and results skipped. */
export function files(rel: string): string[] {
    const abs = path.join(ROOT, rel);
    if (fs.statSync(abs).isFile()) return [rel];
    return fs.readdirSync(abs).flatMap((f) => (f === "node_modules" || f === "results" ? [] : f.endsWith(".ts") || fs.statSync(path.join(abs, f)).isDirectory() ? files(path.join(rel, f)) : []));
}

/** Every specifier a file imports, exports from or requires, type-only imports, `import("...")` types and module augmentations included. */
export function imports(file: string): string[] {
    const src = ts.createSourceFile(file, fs.readFileSync(path.join(ROOT, file), "utf8"), ts.ScriptTarget.ES2022, true);
    const out: string[] = [];
    const visit = (n: ts.Node) => {
        if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) out.push(n.moduleSpecifier.text);
        if (ts.isCallExpression(n) && n.arguments.length === 1 && ts.isStringLiteral(n.arguments[0]!)) {
            const callee = n.expression.getText(src);
            if (callee === "require" || n.expression.kind === ts.SyntaxKind.ImportKeyword) out.push((n.arguments[0] as ts.StringLiteral).text);
        }
        // A module augmentation (`declare module "../platformUnit"`) is an arrow too: it adds to that module's types.
        if (ts.isModuleDeclaration(n) && ts.isStringLiteral(n.name)) out.push(n.name.text);
        if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) out.push(n.argument.literal.text);
        ts.forEachChild(n, visit);
    };
    visit(src);
    return out;
}

/**
 * The file a relative specifier from `file` resolves to, as Node and TypeScript resolve it (`x.ts`, then
 * `x/index.ts`); undefined for packages and for what is not a TypeScript source (JSON data, generated JavaScript).
 */
export function resolveImport(file: string, spec: string): string | undefined {
    if (!spec.startsWith(".")) return undefined;
    const base = path.relative(ROOT, path.resolve(ROOT, path.dirname(file), spec));
    const candidates = base.endsWith(".ts") ? [base] : [`${base}.ts`, path.join(base, "index.ts")];
    return candidates.find((c) => fs.existsSync(path.join(ROOT, c)) && fs.statSync(path.join(ROOT, c)).isFile());
}
