/** cli/stack/parseCache.ts: a parse is remembered by its exact text, and only by it. */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cachedParse } from "../../cli/stack/parseCache";

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-parse-cache-"))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("cachedParse", () => {
    it("parses once per text and answers the same text from the cache", () => {
        let parses = 0;
        const parse = (t: string) => (parses++, { words: t.split(" ") });
        expect(cachedParse("doc", "a b", parse, dir)).toEqual({ words: ["a", "b"] });
        expect(cachedParse("doc", "a b", parse, dir)).toEqual({ words: ["a", "b"] });
        expect(parses).toBe(1);
        expect(cachedParse("doc", "a c", parse, dir)).toEqual({ words: ["a", "c"] });
        expect(cachedParse("doc", "a b", parse, dir)).toEqual({ words: ["a", "b"] });
        expect(parses).toBe(3);
    });

    it("parses again when the entry is damaged, and still parses where nothing can be written", () => {
        cachedParse("doc", "x", (t) => t, dir);
        fs.writeFileSync(path.join(dir, "doc.json"), "{");
        expect(cachedParse("doc", "x", (t) => `${t}!`, dir)).toBe("x!");
        const file = path.join(dir, "not-a-folder");
        fs.writeFileSync(file, "");
        expect(cachedParse("doc", "y", (t) => t.toUpperCase(), file)).toBe("Y");
    });
});
