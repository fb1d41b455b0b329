/**
 * bin/packageBundles.js: a package loaded from one bundle behaves as the package loaded file by file (each module
 * once, its own exports and paths, cycles, its own strictness), and a bundle is used only while the installed
 * package is the one it was made from. Each case is a fresh Node.js process over a package written for the test,
 * and then over the real yaml and commander.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const ROOT = path.join(__dirname, "..", "..");
const BUNDLES = path.join(ROOT, "bin", "packageBundles.js");
const LOADER = path.join(ROOT, "bin", "tsLoader.js");

let dir: string;
let cache: string;
let pkg: string;
beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "mara-bundles-")));
    cache = path.join(dir, "cache");
    pkg = path.join(dir, "node_modules", "fakepkg");
    const files: Record<string, string> = {
        "package.json": JSON.stringify({ name: "fakepkg", version: "1.0.0", main: "index.js" }),
        // index → a ⇄ b (a cycle), index → path (a built-in, required from the module's real place).
        "index.js": `"use strict";\nglobalThis.runs = (globalThis.runs || 0) + 1;\nconst a = require("./lib/a.js");\nconst b = require("./lib/b");\nexports.sum = a.one + b.two;\nexports.sep = require("path").sep;\nexports.where = __filename;\nexports.thisIsExports = this === module.exports;\nexports.bSawPartialA = b.sawA;\n`,
        "lib/a.js": `"use strict";\nexports.one = 1;\nrequire("./b.js");\nexports.late = true;\n`,
        "lib/b.js": `exports.two = 2;\nexports.sawA = Object.keys(require("./a.js"));\nsloppy = "assignable without strict mode";\nexports.strict = (function () { return this === undefined; })();\n`,
    };
    for (const [f, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(pkg, f)), { recursive: true });
        fs.writeFileSync(path.join(pkg, f), text);
    }
    fs.mkdirSync(path.join(dir, "app"));
    fs.writeFileSync(path.join(dir, "app", "main.js"), `module.exports = require("fakepkg");\n`);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Loads `request` from `from` (a file of the "repository") in a fresh process, with the package bundled. */
function load(request = "fakepkg", from = path.join(dir, "app", "main.js"), names = ["fakepkg"]): { value: Record<string, unknown>; files: string[] } {
    const probe = [
        `const loader = require(${JSON.stringify(LOADER)});`,
        `require(${JSON.stringify(BUNDLES)}).register(${JSON.stringify(cache)}, ${JSON.stringify(names)}, loader.esModuleToCommonJs);`,
        `const value = require("module").createRequire(${JSON.stringify(from)})(${JSON.stringify(request)});`,
        `console.log(JSON.stringify({ value: { ...value, runs: globalThis.runs }, files: Object.keys(require.cache) }));`,
    ].join("\n");
    const r = spawnSync(process.execPath, ["-e", probe], { cwd: dir, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { value: Record<string, unknown>; files: string[] };
}

const bundleFile = () => path.join(cache, "bundles", "fakepkg@1.0.0.cjs");

describe("bin/packageBundles.js", () => {
    it("loads the package from one file, with the module semantics Node.js gives it", () => {
        const { value, files } = load();
        expect(value).toEqual({ sum: 3, sep: path.sep, where: path.join(pkg, "index.js"), thisIsExports: true, bSawPartialA: ["one"], runs: 1 });
        expect(files.filter((f) => f.includes("fakepkg"))).toEqual([bundleFile()]);
        // b.js is sloppy-mode code and stays so; index.js keeps its "use strict".
        expect(fs.readFileSync(bundleFile(), "utf8")).toContain('sloppy = "assignable without strict mode"');
    });

    it("uses the bundle again while the package is unchanged, and makes it again when a file or package.json changes", () => {
        load();
        const made = fs.statSync(bundleFile()).mtimeMs;
        expect(load().value.sum).toBe(3);
        expect(fs.statSync(bundleFile()).mtimeMs).toBe(made);
        fs.writeFileSync(path.join(pkg, "lib", "a.js"), `"use strict";\nexports.one = 10;\nrequire("./b.js");\n`);
        expect(load().value.sum).toBe(12);
        fs.writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: "fakepkg", version: "1.0.1", main: "index.js" }));
        expect(load().files.filter((f) => f.includes("fakepkg"))).toEqual([path.join(cache, "bundles", "fakepkg@1.0.1.cjs")]);
    });

    it("leaves alone a package required from inside node_modules, and any package not named", () => {
        const inside = path.join(dir, "node_modules", "other", "index.js");
        fs.mkdirSync(path.dirname(inside), { recursive: true });
        fs.writeFileSync(inside, `module.exports = require("fakepkg");\n`);
        expect(load("fakepkg", inside).files).toContain(path.join(pkg, "index.js"));
        expect(load("fakepkg", path.join(dir, "app", "main.js"), ["nothing"]).files).toContain(path.join(pkg, "index.js"));
    });

    it("loads the package as usual where no bundle can be written", () => {
        fs.writeFileSync(cache, "not a folder");
        const { value, files } = load();
        expect(value.sum).toBe(3);
        expect(files).toContain(path.join(pkg, "index.js"));
    });

    it("bundles a package of ES modules as CommonJS", () => {
        fs.writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: "fakepkg", version: "2.0.0", type: "module", main: "index.js" }));
        fs.writeFileSync(path.join(pkg, "index.js"), `import { one } from "./lib/esm.js";\nimport path from "node:path";\nexport const sum = one + 1;\nexport const sep = path.sep;\n`);
        fs.writeFileSync(path.join(pkg, "lib", "esm.js"), `export const one = 41;\n`);
        expect(load().value).toMatchObject({ sum: 42, sep: path.sep });
    });
});

describe("the packages mara bundles", () => {
    /** Runs `code` in a process where `name` is served from a bundle (`bundled`) or loaded as usual. */
    function probe(code: string, bundled: boolean): unknown {
        const from = path.join(ROOT, "cli", "mara.ts");
        const script = [
            `const loader = require(${JSON.stringify(LOADER)});`,
            bundled ? `require(${JSON.stringify(BUNDLES)}).register(${JSON.stringify(cache)}, ["yaml", "commander"], loader.esModuleToCommonJs);` : "",
            `const req = require("module").createRequire(${JSON.stringify(from)});`,
            `console.log(JSON.stringify((() => { ${code} })()));`,
        ].join("\n");
        const r = spawnSync(process.execPath, ["-e", script], { cwd: ROOT, encoding: "utf8" });
        expect(r.status, r.stderr).toBe(0);
        return JSON.parse(r.stdout);
    }

    it("yaml parses, counts lines and reports errors the same from its bundle", () => {
        const code = `const Y = req("yaml"); const lc = new Y.LineCounter(); const d = Y.parseDocument("a: 1\\nb: [x, y]\\na: 2\\n", { lineCounter: lc });
            return { js: Y.parse("k: v\\nn: 3\\n"), errors: d.errors.map((e) => [e.code, e.linePos, e instanceof Y.YAMLError]), lines: lc.lineStarts, text: Y.stringify({ a: [1, "two"] }) };`;
        expect(probe(code, true)).toEqual(probe(code, false));
    });

    it("commander parses and fails the same from its bundle", () => {
        const code = `const { Command, CommanderError } = req("commander"); const c = new Command("x").exitOverride().configureOutput({ writeErr: () => {} }).option("--n <v>");
            let code; try { c.parse(["--nope"], { from: "user" }); } catch (e) { code = e instanceof CommanderError && e.code; }
            return { code, n: new Command("y").option("--n <v>").parse(["--n", "7"], { from: "user" }).opts().n };`;
        expect(probe(code, true)).toEqual({ code: "commander.unknownOption", n: "7" });
        expect(probe(code, false)).toEqual({ code: "commander.unknownOption", n: "7" });
    });
});
