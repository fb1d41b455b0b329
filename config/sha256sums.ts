/**
 * A `SHA256SUMS` file read as GNU `sha256sum --check` reads it, so that every file `sha256sum` writes is understood
 * and nothing it would refuse is taken. The rules, from coreutils' `src/cksum.c` (formerly `src/digest.c`,
 * functions `digest_check`, `split_3`, `bsd_split_3`, `filename_unescape`; the writer is `output_file` with
 * `print_filename`) and its manual ("md5sum invocation", "Tagged output format"):
 *
 * - lines end at `\n`; one `\r` before it is dropped; a line that *starts* with `#` is a comment; empty lines are skipped;
 * - blanks (space, tab) before the line's content are skipped;
 * - a line starting with `\` has an escaped file name: the writer escapes a name holding a backslash, a newline or a
 *   carriage return as `\\`, `\n` and `\r` and starts the line with `\`; any other escape is refused;
 * - the untagged form is `<digest><blank><mode><name>`, where mode is ` ` (text) or `*` (binary) and every character
 *   after it, leading and trailing spaces included, belongs to the name; `<digest><blank><name>` (BSD's reversed
 *   form) is read too, but never mixed with the other in one file;
 * - the tagged form (`sha256sum --tag`) is `SHA256 (<name>) = <digest>`, the name ending at the line's last `)`;
 * - a SHA-256 digest is 64 hexadecimal digits, in either case.
 *
 * What `sha256sum --check` would do and this reader does not need: it checks every listed file, wherever the name
 * points. Chart archives sit in the folder itself, so a name leading out of it (`../x.tgz`, `/x.tgz`) or into a
 * subfolder is refused, as is a name listed twice (which of two digests would be meant?).
 */
import { LISTED_ONE_BY_ONE } from "./capped";

/** At most this many bytes of SHA256SUMS are read: a list of chart archives is a few kilobytes. */
export const MAX_CHECKSUM_FILE_BYTES = 1024 * 1024;

/** At most this many problems are kept one by one; the rest are only counted. */
export const MAX_LISTED_LINE_PROBLEMS = LISTED_ONE_BY_ONE;

/** One line `sha256sum --check` could not use, or one this folder cannot. */
export interface ChecksumLineProblem {
    /** 1-based line number in the file; 0 for a problem of the whole file. */
    readonly line: number;
    /** What is wrong, as a sentence fragment ("line 3 is …" is built by the caller). */
    readonly problem: string;
}

/** What a checksum file lists. */
export interface ChecksumList {
    /** Archive name (unescaped, `./` removed) → lower-case hexadecimal digest. */
    readonly sums: ReadonlyMap<string, string>;
    /** The first {@link MAX_LISTED_LINE_PROBLEMS} problems, in line order. */
    readonly problems: readonly ChecksumLineProblem[];
    /** How many further problems there are. */
    readonly moreProblems: number;
}

const SHA256_HEX = /^[0-9a-fA-F]{64}$/;
const TAG = "SHA256";
const isBlank = (c: string | undefined) => c === " " || c === "\t";

/** A line shown in a message: quoted (a newline stays visible), and cut when long. */
export function quoteLine(text: string): string {
    return text.length > 60 ? `${JSON.stringify(text.slice(0, 60))}… (${text.length} characters)` : JSON.stringify(text);
}

/** `filename_unescape`: `\\` → `\`, `\n` → newline, `\r` → carriage return; undefined for any other escape. */
function unescapeName(s: string): string | undefined {
    let out = "";
    for (let i = 0; i < s.length; i++) {
        if (s[i] !== "\\") {
            out += s[i];
            continue;
        }
        const next = s[++i];
        if (next === "\\") out += "\\";
        else if (next === "n") out += "\n";
        else if (next === "r") out += "\r";
        else return undefined;
    }
    return out;
}

type Split = { name: string; digest: string; form: "standard" | "reversed" | "tagged" } | { why: string };

/** `split_3`: one line (without its end of line) into digest and name, or why it is not a checksum line. */
function splitLine(line: string): Split {
    let i = 0;
    while (isBlank(line[i])) i++;
    const escaped = line[i] === "\\";
    if (escaped) i++;
    const unescape = (raw: string): Split | string => {
        if (!escaped) return raw;
        const name = unescapeName(raw);
        return name ?? { why: "its name has a backslash escape sha256sum never writes (only \\\\, \\n and \\r)" };
    };
    if (line.startsWith(TAG, i) && (line[i + TAG.length] === "(" || (line[i + TAG.length] === " " && line[i + TAG.length + 1] === "("))) {
        const open = line.indexOf("(", i) + 1;
        const close = line.lastIndexOf(")");
        const m = close >= open ? /^[ \t]*=[ \t]*(\S*)$/.exec(line.slice(close + 1)) : null;
        if (!m) return { why: 'it starts like sha256sum --tag output but is not "SHA256 (<file>) = <digest>"' };
        if (!SHA256_HEX.test(m[1]!)) return { why: "its digest is not 64 hexadecimal digits" };
        const name = unescape(line.slice(open, close));
        return typeof name === "string" ? { name, digest: m[1]!.toLowerCase(), form: "tagged" } : name;
    }
    let end = i;
    while (end < line.length && !isBlank(line[end])) end++;
    const digest = line.slice(i, end);
    if (end === line.length) return { why: 'it is not "<digest>  <file>" (no file name after the digest)' };
    if (!SHA256_HEX.test(digest)) return { why: `it does not start with a SHA-256 digest (64 hexadecimal digits)` };
    const rest = line.slice(end + 1);
    // The mode character (' ' text, '*' binary) follows the blank; without it, the line is BSD's reversed form.
    const reversed = rest.length === 1 || (rest[0] !== " " && rest[0] !== "*");
    const name = unescape(reversed ? rest : rest.slice(1));
    if (typeof name !== "string") return name;
    if (name === "") return { why: "it names no file after the digest" };
    return { name, digest: digest.toLowerCase(), form: reversed ? "reversed" : "standard" };
}

/** Why a listed name is no archive of this folder, or the name as the folder holds it (`./x.tgz` is `x.tgz`). */
function folderName(name: string): { name: string } | { why: string } {
    if (name.includes("\0")) return { why: "its name holds a NUL byte" };
    if (name.startsWith("/")) return { why: `it names ${JSON.stringify(name)}, an absolute path outside the folder; list the archives by their names in it` };
    const parts = name.split("/").filter((p) => p !== "" && p !== ".");
    if (parts.includes("..")) return { why: `it names ${JSON.stringify(name)}, which leads out of the folder ('..'); list the archives by their names in it` };
    if (parts.length !== 1) return { why: `it names ${JSON.stringify(name)}, in a subfolder; the archives sit directly in the folder` };
    return { name: parts[0]! };
}

/**
 * Reads the bytes of a SHA256SUMS file. Problems of the whole file (NUL bytes, a byte-order mark) are reported once,
 * with no line-by-line list after them; line problems are kept up to {@link MAX_LISTED_LINE_PROBLEMS} and counted
 * beyond, so a file of a million bad lines costs one short message.
 */
export function readChecksumList(bytes: Uint8Array): ChecksumList {
    const sums = new Map<string, string>();
    const problems: ChecksumLineProblem[] = [];
    let moreProblems = 0;
    const fail = (line: number, problem: string) => (problems.length < MAX_LISTED_LINE_PROBLEMS ? problems.push({ line, problem }) : moreProblems++);
    const whole = (problem: string): ChecksumList => ({ sums, problems: [{ line: 0, problem }], moreProblems: 0 });

    if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
        return whole("is UTF-16 text (it starts with a UTF-16 byte-order mark); sha256sum writes and reads plain bytes, one line per file");
    }
    if (bytes.includes(0)) return whole("is not a text file (it holds NUL bytes), so it is not a list sha256sum wrote");
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
        return whole("starts with a UTF-8 byte-order mark, which sha256sum --check reads as part of the first line and refuses; save it without one");
    }

    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
    const firstLine = new Map<string, number>();
    let form: "standard" | "reversed" | undefined;
    let number = 0;
    for (let start = 0; start < text.length; ) {
        const nl = text.indexOf("\n", start);
        const end = nl < 0 ? text.length : nl;
        let line = text.slice(start, end);
        start = end + 1;
        number++;
        if (line.startsWith("#")) continue;
        if (line.endsWith("\r")) line = line.slice(0, -1);
        if (line === "") continue;
        const split = splitLine(line);
        if ("why" in split) {
            fail(number, `${split.why}: ${quoteLine(line)}`);
            continue;
        }
        // sha256sum --check refuses to mix the two untagged forms, so that a name with leading blanks cannot be misread.
        if (split.form !== "tagged") {
            if (form !== undefined && split.form !== form) {
                fail(number, `it mixes BSD's "<digest> <file>" with sha256sum's "<digest>  <file>", which sha256sum --check refuses: ${quoteLine(line)}`);
                continue;
            }
            form = split.form;
        }
        const named = folderName(split.name);
        if ("why" in named) {
            fail(number, named.why);
            continue;
        }
        const earlier = firstLine.get(named.name);
        if (earlier !== undefined) {
            fail(number, `it lists ${JSON.stringify(named.name)} again (first on line ${earlier}); keep one line per archive`);
            continue;
        }
        firstLine.set(named.name, number);
        sums.set(named.name, split.digest);
    }
    return { sums, problems, moreProblems };
}

/**
 * One line of SHA256SUMS exactly as `sha256sum` writes it for `name` (text mode): a name holding a backslash, a
 * newline or a carriage return is escaped and the line starts with a backslash (`print_filename` in coreutils' cksum.c).
 */
export function checksumLine(name: string, digest: string): string {
    const escape = /[\\\n\r]/.test(name);
    const shown = escape ? name.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\r/g, "\\r") : name;
    return `${escape ? "\\" : ""}${digest}  ${shown}`;
}
