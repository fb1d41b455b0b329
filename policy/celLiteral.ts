/**
 * JSON values written as CEL literals, so the admission policies can carry a rule's settings and patterns as
 * constants rather than as parameter objects the cluster would have to hold.
 */

/** A CEL string literal holding `text` exactly (single-quoted; backslashes and quotes escaped). */
export function celString(text: string): string {
    return `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n")}'`;
}

/** A CEL literal of a JSON value: strings, whole numbers (CEL ints), booleans, null, lists and string-keyed maps. */
export function celLiteral(value: unknown): string {
    if (value === null) return "null";
    if (typeof value === "string") return celString(value);
    if (typeof value === "boolean") return String(value);
    if (typeof value === "number") {
        if (!Number.isInteger(value)) throw new Error(`celLiteral: only whole numbers are supported, got ${value}`);
        return String(value);
    }
    if (Array.isArray(value)) return `[${value.map(celLiteral).join(", ")}]`;
    if (typeof value === "object") {
        return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${celString(k)}: ${celLiteral(v)}`).join(", ")}}`;
    }
    throw new Error(`celLiteral: ${typeof value} has no CEL literal`);
}
