/**
 * A stack file's bytes as text. Stack files are UTF-8 (a byte-order mark is allowed and dropped). Anything else — a
 * file saved as UTF-16 by an editor or by PowerShell's `>`, UTF-32, or Latin-1 / Windows-1252 text with accented
 * letters — is refused with what it looks like and how to fix it, instead of being read as garbage and reported as
 * "not a YAML mapping". No part of the file is quoted: it may hold plain-text secrets.
 */

/** A stack file that is not UTF-8 text. */
export class StackFileEncodingError extends Error {
    constructor(message: string) {
        super(message);
        this.name = "StackFileEncodingError";
    }
}

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);

/** The encoding a byte-order mark announces, when it is not UTF-8's. */
function markedEncoding(bytes: Uint8Array): string | undefined {
    if (startsWith(bytes, [0x00, 0x00, 0xfe, 0xff]) || startsWith(bytes, [0xff, 0xfe, 0x00, 0x00])) return "UTF-32";
    if (startsWith(bytes, [0xfe, 0xff]) || startsWith(bytes, [0xff, 0xfe])) return "UTF-16";
    return undefined;
}

/** Line and column (1-based) of byte `offset`, counting the valid text before it. */
function positionOf(bytes: Uint8Array, offset: number): string {
    const before = new TextDecoder("utf-8").decode(bytes.subarray(0, offset));
    const lines = before.split("\n");
    return `line ${lines.length}, column ${[...lines.at(-1)!].length + 1}`;
}

/** The first offset where `bytes` stop being valid UTF-8, or undefined. */
function firstInvalidUtf8(bytes: Uint8Array): number | undefined {
    for (let i = 0; i < bytes.length; ) {
        const b = bytes[i]!;
        const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
        if (need < 0) return i;
        for (let k = 1; k <= need; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
        // Overlong forms, surrogates and code points past U+10FFFF.
        const second = bytes[i + 1] ?? 0;
        if ((b === 0xe0 && second < 0xa0) || (b === 0xed && second > 0x9f) || (b === 0xf0 && second < 0x90) || (b === 0xf4 && second > 0x8f)) return i;
        i += need + 1;
    }
    return undefined;
}

const SAVE_AS_UTF8 = "save it as UTF-8 (in most editors: Save with Encoding, UTF-8), or rewrite it with `pulumi config set`";

/**
 * The text of a stack file.
 *
 * @throws StackFileEncodingError when the bytes are not UTF-8 text, saying what they look like.
 */
export function decodeStackFile(bytes: Uint8Array): string {
    const marked = markedEncoding(bytes);
    if (marked) return refuse(`it is ${marked} text (it starts with a ${marked} byte-order mark), and stack files are UTF-8`);
    const body = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? bytes.subarray(3) : bytes;
    const nul = body.indexOf(0);
    if (nul >= 0) return refuse(`it holds a NUL byte at ${positionOf(body, nul)}, as UTF-16 text without a byte-order mark does; stack files are UTF-8 text`);
    const invalid = firstInvalidUtf8(body);
    if (invalid !== undefined) return refuse(`it is not UTF-8 text: ${positionOf(body, invalid)} has bytes UTF-8 does not allow, as Latin-1 or Windows-1252 text with accented letters has`);
    return new TextDecoder("utf-8").decode(body);
}

function refuse(why: string): never {
    throw new StackFileEncodingError(`${why}; ${SAVE_AS_UTF8}`);
}
