/**
 * The declarations in the npm package carry TSDoc, which editors show to library users: every exported
 * declaration of components/ (with its add-on units' folders (the application's builders among them), its alerting in components/alerts/ and its ownership guard in components/ownership/), contracts/, providers/ and
 * program/, and every member of their exported classes and interfaces (arguments, outputs), has a doc
 * comment.
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.join(__dirname, "..", "..");

/** `file:line name` of each exported declaration or public member without a doc comment. */
function undocumented(file: string): string[] {
    const src = ts.createSourceFile(file, fs.readFileSync(path.join(ROOT, file), "utf8"), ts.ScriptTarget.ES2022, true);
    const missing: string[] = [];
    const hasDoc = (n: ts.Node) => ts.getJSDocCommentsAndTags(n).length > 0;
    const exported = (n: ts.Node) => (ts.getCombinedModifierFlags(n as ts.Declaration) & ts.ModifierFlags.Export) !== 0;
    const report = (n: ts.Node, name: string) => missing.push(`${file}:${src.getLineAndCharacterOfPosition(n.getStart(src)).line + 1} ${name}`);
    for (const st of src.statements) {
        if (!exported(st)) continue;
        if (ts.isVariableStatement(st)) {
            if (!hasDoc(st)) st.declarationList.declarations.forEach((d) => report(st, d.name.getText(src)));
        } else if (ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st) || ts.isFunctionDeclaration(st) || ts.isTypeAliasDeclaration(st)) {
            const name = st.name?.getText(src) ?? "default";
            if (!hasDoc(st)) report(st, name);
            if (ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st)) {
                for (const m of st.members) {
                    if (ts.isConstructorDeclaration(m) || !m.name) continue;
                    if (ts.getCombinedModifierFlags(m as ts.Declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
                    if (!hasDoc(m)) report(m, `${name}.${m.name.getText(src)}`);
                }
            }
        }
    }
    return missing;
}

const sources = (dir: string) =>
    fs
        .readdirSync(path.join(ROOT, dir))
        .filter((f) => f.endsWith(".ts"))
        .map((f) => `${dir}/${f}`);

describe("TSDoc of the library", () => {
    // The add-on units' folders too (components/<unit>/: component, defaults, keys, settings, mapping).
    const units = fs.readdirSync(path.join(ROOT, "components")).filter((d) => fs.existsSync(path.join(ROOT, "components", d, "component.ts"))).map((d) => `components/${d}`);
    for (const dir of ["components", ...units, "components/alerts", "components/ownership", "contracts", "providers", "program"]) {
        it(`documents every export of ${dir}/ and every member of its classes and interfaces`, () => {
            expect(sources(dir).flatMap(undocumented)).toEqual([]);
        });
    }
});
