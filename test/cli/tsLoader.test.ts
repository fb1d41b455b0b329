/**
 * bin/tsLoader.js, which loads the TypeScript of `mara`: Sucrase's output is kept per file and used only while the
 * file reads exactly the same, so an edit is never run stale, and a start that finds every file unchanged does not
 * load Sucrase at all. Each case is a fresh Node.js process with its own cache folder.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const ROOT = path.join(__dirname, "..", "..");
const LOADER = path.join(ROOT, "bin", "tsLoader.js");

let dir: string;
let cache: string;
let source: string;
beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-tsloader-"));
    cache = path.join(dir, "cache");
    source = path.join(dir, "greeting.ts");
});
afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
});

/** Loads `source` through the loader in a fresh process: what it exports, and whether Sucrase was loaded. */
function load(): { value: unknown; sucrase: boolean } {
    const probe = [
        `require(${JSON.stringify(LOADER)}).register(${JSON.stringify(cache)});`,
        `const value = require(${JSON.stringify(source)}).value;`,
        `const sucrase = Object.keys(require.cache).some((f) => f.includes("/node_modules/sucrase/"));`,
        `console.log(JSON.stringify({ value, sucrase }));`,
    ].join("\n");
    const r = spawnSync(process.execPath, ["-e", probe], { cwd: ROOT, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { value: unknown; sucrase: boolean };
}

describe("bin/tsLoader.js", () => {
    it("transforms a file once and then loads it from the cache without Sucrase", () => {
        fs.writeFileSync(source, 'const who: string = "world";\nexport const value = `hello ${who}`;\n');
        expect(load()).toEqual({ value: "hello world", sucrase: true });
        expect(fs.readdirSync(path.join(cache, "js"))).toEqual([`${encodeURIComponent(source)}.js`]);
        expect(load()).toEqual({ value: "hello world", sucrase: false });
    });

    it("never runs an edited file stale, even one edited to the same length", () => {
        fs.writeFileSync(source, "export const value: number = 1;\n");
        expect(load().value).toBe(1);
        fs.writeFileSync(source, "export const value: number = 2;\n");
        expect(load()).toEqual({ value: 2, sucrase: true });
        expect(load()).toEqual({ value: 2, sucrase: false });
    });

    it("ignores an entry that is damaged, and one written by another Sucrase version", () => {
        fs.writeFileSync(source, "export const value: string = 'ok';\n");
        load();
        const entry = path.join(cache, "js", `${encodeURIComponent(source)}.js`);
        fs.writeFileSync(entry, fs.readFileSync(entry, "utf8").replace(/sucrase@[^ ]+/, "sucrase@0.0.1"));
        expect(load()).toEqual({ value: "ok", sucrase: true });
        fs.writeFileSync(entry, "garbage");
        expect(load()).toEqual({ value: "ok", sucrase: true });
    });

    it("still runs where the cache cannot be written", () => {
        fs.writeFileSync(source, "export const value: boolean = true;\n");
        // A file where the folder should be: no folder can be made there, whoever runs the test.
        fs.writeFileSync(cache, "not a folder");
        expect(load().value).toBe(true);
        expect(load().value).toBe(true);
    });
});
