/**
 * JSON.parse with the failure said in our words: where the text stops being JSON (line and column), never the
 * parser's own message, which quotes the text around the error — and the text may hold a password.
 */

/** The parsed value, or where the text stops being JSON. */
export type ParsedJson = { ok: true; value: unknown } | { ok: false; where: string };

/** Parses `text`; on failure, `where` is "line L, column C" (or "at its end", or "it is empty"). */
export function parseJson(text: string): ParsedJson {
    try {
        return { ok: true, value: JSON.parse(text) };
    } catch (e) {
        if (text.trim() === "") return { ok: false, where: "it is empty" };
        const message = e instanceof Error ? e.message : "";
        const lineCol = /line (\d+) column (\d+)/.exec(message);
        if (lineCol) return { ok: false, where: `from line ${lineCol[1]}, column ${lineCol[2]}` };
        const position = /position (\d+)/.exec(message);
        if (position) {
            const before = text.slice(0, Number(position[1]));
            const line = before.split("\n").length;
            return { ok: false, where: `from line ${line}, column ${before.length - before.lastIndexOf("\n")}` };
        }
        return { ok: false, where: /end of (JSON|data) input/i.test(message) ? "it ends too soon" : "somewhere in it" };
    }
}
