/**
 * A stack file that cannot be read as the Pulumi CLI reads it is refused with what is wrong with the file itself:
 * an encoding other than UTF-8 (UTF-16 with or without a byte-order mark, UTF-32, Latin-1), or more than one YAML
 * document, of which the CLI would silently read the first. Never "not a YAML mapping" for bytes that are not text,
 * never a quoted line (it may hold a secret), never a stack trace.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { parseStackFile } from "../../config";
import { decodeStackFile } from "../../config/stackFileEncoding";
import { runMara } from "./support/io";

const TEXT = "config:\n  kubernetes:infra_type: AWS\n  aws:region: us-east-1\n  prometheus:adminpass: Gr\u00e4fin-p4ss\n";
const made: string[] = [];
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

async function validateBytes(bytes: Uint8Array) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-stack-shape-"));
    made.push(dir);
    const file = path.join(dir, "Pulumi.dev.yaml");
    fs.writeFileSync(file, bytes);
    const r = await runMara(["validate", "-c", file], { cwd: dir });
    expect(r.stderr).not.toContain("not a YAML mapping");
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+|unexpected error/);
    expect(r.stderr).not.toContain("p4ss");
    return { ...r, file };
}

const utf16le = (text: string, bom: boolean) => Buffer.concat([bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(text, "utf16le")]);

describe("encodings", () => {
    it("UTF-16 with a byte-order mark (PowerShell's `>`)", async () => {
        const r = await validateBytes(utf16le(TEXT, true));
        expect(r.code).toBe(1);
        expect(r.stderr).toBe(`mara: ${r.file} is not a readable stack file: it is UTF-16 text (it starts with a UTF-16 byte-order mark), and stack files are UTF-8; save it as UTF-8 (in most editors: Save with Encoding, UTF-8), or rewrite it with \`pulumi config set\`\n`);
    });

    it("UTF-16 without one, UTF-32, and Latin-1", async () => {
        expect((await validateBytes(utf16le(TEXT, false))).stderr).toContain("it holds a NUL byte at line 1, column 2, as UTF-16 text without a byte-order mark does");
        expect((await validateBytes(Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from("c\0\0\0", "latin1")]))).stderr).toContain("it is UTF-32 text");
        const latin1 = await validateBytes(Buffer.from(TEXT, "latin1"));
        expect(latin1.code).toBe(1);
        expect(latin1.stderr).toContain("it is not UTF-8 text: line 4, column 27 has bytes UTF-8 does not allow, as Latin-1 or Windows-1252 text with accented letters has");
    });

    it("UTF-8, with or without a byte-order mark, is read", async () => {
        expect(decodeStackFile(Buffer.from(TEXT, "utf8"))).toBe(TEXT);
        expect(decodeStackFile(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(TEXT, "utf8")]))).toBe(TEXT);
        const r = await validateBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(TEXT, "utf8")]));
        expect(r.code, r.stderr).toBe(0);
    });

    it("overlong forms and surrogates are not UTF-8 either", () => {
        for (const bad of [[0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]]) {
            expect(() => decodeStackFile(Buffer.from([0x61, ...bad])), JSON.stringify(bad)).toThrow("line 1, column 2 has bytes UTF-8 does not allow");
        }
    });
});

describe("documents", () => {
    it("two documents: an error naming where the second starts, not the first read alone", async () => {
        const r = await validateBytes(Buffer.from(`${TEXT}---\nconfig:\n  aws:region: eu-west-1\n`));
        expect(r.code).toBe(1);
        expect(r.stderr).toContain("is not a readable stack file: it holds 2 YAML documents (the second starts at line 5), and a stack file is one: the Pulumi CLI would read the first and ignore the rest.");
    });

    it("a trailing '---' or a document of comments only holds nothing, and is no second document", () => {
        expect(parseStackFile(`---\n${TEXT}---\n`).values["aws:region"]).toBe("us-east-1");
        expect(parseStackFile(`${TEXT}---\n# nothing here\n`).values["aws:region"]).toBe("us-east-1");
        expect(parseStackFile("").values).toEqual({});
    });

    it("a list, or one value, where the mapping belongs", () => {
        expect(() => parseStackFile("- config\n")).toThrow("The stack file is a YAML list, not a mapping; a stack file is a mapping with a `config:` section of keys and values.");
        expect(() => parseStackFile("just text\n")).toThrow("The stack file is a single YAML value, not a mapping");
    });
});
