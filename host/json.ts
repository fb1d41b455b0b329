/**
 * JSON.parse with the failure said in our words: where the text stops being JSON (line and column), never the
 * parser's own message, which quotes the text around the error — and the text may hold a password. V8 gives a
 * position for some errors and not others, so the position is found here, by a scan of the JSON grammar (RFC 8259).
 */

/** The parsed value, or where the text stops being JSON. */
export type ParsedJson = { ok: true; value: unknown } | { ok: false; where: string };

/** Parses `text`; on failure, `where` says where it stops being JSON ("from line 3, column 7", "it is empty", "it ends too soon"). */
export function parseJson(text: string): ParsedJson {
    try {
        return { ok: true, value: JSON.parse(text) };
    } catch {
        if (text.trim() === "") return { ok: false, where: "it is empty" };
        const at = firstError(text);
        if (at >= text.length) return { ok: false, where: "it ends too soon" };
        const before = text.slice(0, at);
        return { ok: false, where: `from line ${before.split("\n").length}, column ${at - before.lastIndexOf("\n")}` };
    }
}

/** The offset of the first character that cannot continue a JSON text (its length when the text ends too soon). */
function firstError(text: string): number {
    let i = 0;
    const ws = () => {
        while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
    };
    const fail = (): never => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- the offset unwinds the descent to the catch below and never leaves this function
        throw i;
    };
    const literal = (word: string) => {
        for (const c of word) {
            if (text[i] !== c) fail();
            i++;
        }
    };
    const string = () => {
        i++;
        while (i < text.length && text[i] !== '"') {
            if (text.charCodeAt(i) < 0x20) fail();
            if (text[i] === "\\") {
                i++;
                if (text[i] === "u") {
                    for (let k = 0; k < 4; k++) {
                        i++;
                        if (!/[0-9a-fA-F]/.test(text[i] ?? "")) fail();
                    }
                } else if (!'"\\/bfnrt'.includes(text[i] ?? "x")) fail();
            }
            i++;
        }
        if (i >= text.length) fail();
        i++;
    };
    const number = () => {
        const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
        if (!m || m[0] === "" || m[0] === "-") fail();
        i += m![0].length;
    };
    const value = (): void => {
        ws();
        const c = text[i];
        if (c === "{") {
            i++;
            ws();
            if (text[i] === "}") return void i++;
            for (;;) {
                ws();
                if (text[i] !== '"') fail();
                string();
                ws();
                if (text[i] !== ":") fail();
                i++;
                value();
                ws();
                if (text[i] === ",") i++;
                else if (text[i] === "}") return void i++;
                else fail();
            }
        }
        if (c === "[") {
            i++;
            ws();
            if (text[i] === "]") return void i++;
            for (;;) {
                value();
                ws();
                if (text[i] === ",") i++;
                else if (text[i] === "]") return void i++;
                else fail();
            }
        }
        if (c === '"') return string();
        if (c === "t") return literal("true");
        if (c === "f") return literal("false");
        if (c === "n") return literal("null");
        if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return number();
        fail();
    };
    try {
        value();
        ws();
        return i < text.length ? i : text.length;
    } catch (at) {
        return typeof at === "number" ? at : 0;
    }
}
