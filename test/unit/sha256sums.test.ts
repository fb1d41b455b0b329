/**
 * SHA256SUMS read as GNU `sha256sum --check` reads it (config/sha256sums.ts). The files are written by the real
 * `sha256sum` (coreutils) for unusual names, and every malformed line is also given to `sha256sum --check`, which must
 * refuse it too: the reader neither refuses what the tool writes nor takes what the tool refuses.
 */
import { execFileSync, spawnSync } from "child_process";
import * as crypto from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { checksumLine, MAX_LISTED_LINE_PROBLEMS, readChecksumList } from "../../config/sha256sums";

const made: string[] = [];
const tmp = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sha256sums-"));
    made.push(dir);
    return dir;
};
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const digestOf = (data: string) => crypto.createHash("sha256").update(data).digest("hex");
/** Names sha256sum escapes (backslash, newline, carriage return) and names whose spaces are significant. */
const NAMES = ["plain-1.0.0.tgz", "back\\slash.tgz", "new\nline.tgz", "carriage\rreturn.tgz", " leading space.tgz", "trailing space.tgz ", "star*.tgz"];

/** A folder with one small file per name, each with its own contents. */
function folderOf(names: readonly string[]): string {
    const dir = tmp();
    for (const n of names) fs.writeFileSync(path.join(dir, n), `contents of ${n}`);
    return dir;
}

/** `sha256sum --check` in `dir`: exit status and what it says. */
function gnuCheck(dir: string, sums: string | Buffer): { status: number | null; out: string } {
    fs.writeFileSync(path.join(dir, "SHA256SUMS"), sums);
    const r = spawnSync("sha256sum", ["--check", "--warn", "SHA256SUMS"], { cwd: dir, encoding: "utf8" });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe("what GNU sha256sum writes is read", () => {
    it("coreutils' sha256sum is installed (the tests below compare with it)", () => {
        expect(execFileSync("sha256sum", ["--version"], { encoding: "utf8" })).toContain("GNU coreutils");
    });

    for (const [mode, args] of [
        ["text mode", []],
        ["binary mode (*)", ["-b"]],
        ["tagged (--tag)", ["--tag"]],
    ] as const) {
        it(`${mode}, names with a backslash, a newline, a carriage return and significant spaces`, () => {
            const dir = folderOf(NAMES);
            const written = execFileSync("sha256sum", [...args, "--", ...NAMES], { cwd: dir });
            // The tool's own check accepts what it wrote: the file is the tool's, not our idea of it.
            expect(gnuCheck(dir, written).status).toBe(0);
            const list = readChecksumList(written);
            expect(list.problems).toEqual([]);
            expect(new Map(list.sums)).toEqual(new Map(NAMES.map((n) => [n, digestOf(`contents of ${n}`)])));
        });
    }

    it("sha256sum ./*: the ./ is the folder itself", () => {
        const dir = folderOf(["a-1.0.0.tgz"]);
        const written = execFileSync("sha256sum", ["./a-1.0.0.tgz"], { cwd: dir });
        expect([...readChecksumList(written).sums.keys()]).toEqual(["a-1.0.0.tgz"]);
    });

    it("checksumLine writes byte for byte what sha256sum writes", () => {
        const dir = folderOf(NAMES);
        const written = execFileSync("sha256sum", ["--", ...NAMES], { cwd: dir, encoding: "utf8" });
        expect(NAMES.map((n) => checksumLine(n, digestOf(`contents of ${n}`))).join("\n") + "\n").toBe(written);
    });

    it("comments, empty lines, CRLF line ends, upper-case digests and BSD's reversed form", () => {
        const dir = folderOf(["a.tgz", "b.tgz"]);
        const a = digestOf("contents of a.tgz");
        const b = digestOf("contents of b.tgz");
        for (const text of [`# made by hand\r\n\r\n${a.toUpperCase()}  a.tgz\r\n${b} *b.tgz\r\n`, `${a} a.tgz\n${b} b.tgz\n`]) {
            expect(gnuCheck(dir, text).status, text).toBe(0);
            const list = readChecksumList(Buffer.from(text));
            expect(list.problems).toEqual([]);
            expect(new Map(list.sums)).toEqual(new Map([["a.tgz", a], ["b.tgz", b]]));
        }
    });
});

describe("what sha256sum --check refuses is refused, with the line and the reason", () => {
    const d = "ab".repeat(32);
    const cases: [string, string, RegExp][] = [
        ["a digest one digit short", `${d.slice(1)}  a.tgz\n`, /does not start with a SHA-256 digest/],
        ["a digest that is not hexadecimal", `${"g".repeat(64)}  a.tgz\n`, /does not start with a SHA-256 digest/],
        ["no file name", `${d}\n`, /no file name after the digest/],
        ["an escape sha256sum never writes", `\\${d}  a\\tb.tgz\n`, /backslash escape sha256sum never writes/],
        ["a name ending in a lone backslash", `\\${d}  a.tgz\\\n`, /backslash escape sha256sum never writes/],
        ["a tagged line without its digest", `SHA256 (a.tgz) =\n`, /digest is not 64 hexadecimal digits/],
        ["the two untagged forms mixed", `${d}  a.tgz\n${d} b.tgz\n`, /mixes BSD's/],
        ["prose", "these are the digests\n", /does not start with a SHA-256 digest/],
    ];
    for (const [name, text, why] of cases) {
        it(name, () => {
            const gnu = gnuCheck(folderOf(["a.tgz", "b.tgz"]), text);
            expect(gnu.out, "sha256sum --check refuses it too").toMatch(/improperly formatted/);
            const list = readChecksumList(Buffer.from(text));
            expect(list.problems).toHaveLength(1);
            expect(list.problems[0]!.problem).toMatch(why);
        });
    }
});

describe("names this folder refuses, though sha256sum would follow them", () => {
    const d = "cd".repeat(32);
    it("a name leading out of the folder, an absolute path, a subfolder", () => {
        const list = readChecksumList(Buffer.from(`${d}  ../x-1.0.0.tgz\n${d}  /etc/x-1.0.0.tgz\n${d}  sub/x-1.0.0.tgz\n${d}  ok/../../x.tgz\n`));
        expect(list.sums.size).toBe(0);
        expect(list.problems.map((p) => [p.line, p.problem])).toEqual([
            [1, 'it names "../x-1.0.0.tgz", which leads out of the folder (\'..\'); list the archives by their names in it'],
            [2, 'it names "/etc/x-1.0.0.tgz", an absolute path outside the folder; list the archives by their names in it'],
            [3, 'it names "sub/x-1.0.0.tgz", in a subfolder; the archives sit directly in the folder'],
            [4, 'it names "ok/../../x.tgz", which leads out of the folder (\'..\'); list the archives by their names in it'],
        ]);
    });

    it("a name listed twice, even as ./name: refused, naming both lines", () => {
        const list = readChecksumList(Buffer.from(`${d}  x-1.0.0.tgz\n${"ef".repeat(32)}  ./x-1.0.0.tgz\n`));
        expect(list.problems).toEqual([{ line: 2, problem: 'it lists "x-1.0.0.tgz" again (first on line 1); keep one line per archive' }]);
    });
});

describe("a file that is no checksum list: one problem, bounded", () => {
    it("binary, UTF-16, a UTF-8 byte-order mark: one problem for the whole file", () => {
        expect(readChecksumList(crypto.randomBytes(4096).fill(0, 10, 11)).problems).toEqual([{ line: 0, problem: "is not a text file (it holds NUL bytes), so it is not a list sha256sum wrote" }]);
        expect(readChecksumList(Buffer.from(`\uFEFF${"ab".repeat(32)}  a.tgz\n`, "utf16le")).problems[0]!.problem).toMatch(/^is UTF-16 text/);
        expect(readChecksumList(Buffer.from(`\uFEFF${"ab".repeat(32)}  a.tgz\n`)).problems[0]!.problem).toMatch(/^starts with a UTF-8 byte-order mark/);
    });

    it("200,000 malformed lines: ten listed, the rest counted", () => {
        const text = Array.from({ length: 200_000 }, (_, i) => `junk ${i}`).join("\n");
        const list = readChecksumList(Buffer.from(text));
        expect(list.problems).toHaveLength(MAX_LISTED_LINE_PROBLEMS);
        expect(list.moreProblems).toBe(200_000 - MAX_LISTED_LINE_PROBLEMS);
        expect(JSON.stringify(list.problems).length).toBeLessThan(2_000);
    });

    it("one line of 900,000 characters: quoted by its start and its length", () => {
        const list = readChecksumList(Buffer.from(`${"x".repeat(900_000)}\n`));
        expect(list.problems).toHaveLength(1);
        expect(list.problems[0]!.problem).toMatch(/"x{60}"… \(900000 characters\)$/);
        expect(list.problems[0]!.problem.length).toBeLessThan(200);
    });
});
