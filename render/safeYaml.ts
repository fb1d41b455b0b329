/**
 * YAML that every reader takes the same way. The output is YAML 1.2, where `on`, `off`, `NO`, `y`, `1:20` or
 * `2001-12-14` written plain are strings; but many readers of Kubernetes manifests follow YAML 1.1 (kubectl's and
 * Argo CD's go-yaml among them), where those are booleans, numbers and timestamps, so a CRD's enum of `on` and `off`
 * would reach the API server as `true` and `false`. Every string a YAML 1.1 or 1.2 reader would read as another type,
 * written plain, is quoted (and `<<`, YAML 1.1's merge key).
 */
import { Document, parse, Scalar, visit } from "yaml";

/** What YAML's own parser said of a short string, by string: a render writes the same keys and values thousands of times. */
const parsed = new Map<string, boolean>();
/** Strings remembered at most; past it the memory starts again (a long-lived process renders many stacks). */
const MAX_PARSED = 50_000;

/** Whether a YAML 1.1 or YAML 1.2 reader would take `s`, written as a plain scalar, for something other than that string. */
export function readsAsOtherType(s: string): boolean {
    // Longer strings, and those with line breaks or surrounding spaces, are never plain booleans, numbers, nulls or dates.
    if (s.length === 0 || s.length > 40 || s.includes("\n") || s !== s.trim()) return false;
    if (s === "<<" || s === "=") return true;
    // Only these can start a plain boolean, number, null or date; anything else is a string to every reader.
    if (!/^[-+.~0-9A-Za-z]/.test(s)) return false;
    let verdict = parsed.get(s);
    if (verdict === undefined) {
        verdict = parsesAsOtherType(s);
        if (parsed.size >= MAX_PARSED) parsed.clear();
        parsed.set(s, verdict);
    }
    return verdict;
}

/** Whether YAML 1.1 or 1.2 parses `s` as a null, boolean, number or date. */
function parsesAsOtherType(s: string): boolean {
    for (const version of ["1.1", "1.2"] as const) {
        let value: unknown;
        try {
            value = parse(s, { version, logLevel: "silent" });
        } catch {
            // Not a valid plain scalar: the writer quotes it anyway.
            continue;
        }
        if (value === null || value instanceof Date || ["boolean", "number", "bigint"].includes(typeof value)) return true;
    }
    return false;
}

/** A value as YAML: keys in the order given, no line folding, no anchors, and every ambiguous string quoted. */
export function unambiguousYaml(value: unknown): string {
    const doc = new Document(value, { aliasDuplicateObjects: false });
    visit(doc, {
        Scalar(_key, node) {
            if (typeof node.value === "string" && readsAsOtherType(node.value)) node.type = Scalar.QUOTE_DOUBLE;
        },
    });
    return doc.toString({ lineWidth: 0 });
}
