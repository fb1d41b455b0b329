/**
 * MARA's object-valued keys (`kic:nginx_plus`, whose fields are literally `kic:key_path` and `kic:cert_path`).
 * Each field is read as its own setting, so a field spelled any other way, or a value that is not an object,
 * would otherwise be dropped without a word: a Plus source build then reports that no certificate or key is
 * configured while the stack file plainly names them.
 */
import { KEYS } from "./keys";
import { configSetCommand } from "./problems";
import type { Findings, RawConfig } from "./resolve";
import { closest } from "./suggest";

/** For each object-valued MARA key: its known fields and the canonical key each one stands for. */
function objectKeys(): Map<string, Map<string, string>> {
    const found = new Map<string, Map<string, string>>();
    for (const spec of Object.values(KEYS)) {
        for (const l of spec.legacy) {
            if (l.field === undefined) continue;
            const fields = found.get(l.key) ?? new Map<string, string>();
            fields.set(l.field, spec.key);
            found.set(l.key, fields);
        }
    }
    return found;
}

/** Reports an object-valued MARA key that is not an object, and fields in it that nothing reads. */
export function checkLegacyObjects(raw: RawConfig, findings: Findings): void {
    for (const [key, fields] of objectKeys()) {
        const text = raw.values[key];
        if (text === undefined) continue;
        const known = [...fields.keys()];
        const example = `${key}: { ${known.map((f) => `${f}: <path>`).join(", ")} }`;
        let value: unknown;
        try {
            value = JSON.parse(text);
        } catch {
            value = text;
        }
        if (value === null || typeof value !== "object" || Array.isArray(value)) {
            findings.problem({
                key,
                // The fields are file paths, never secrets; a value stored encrypted is still not shown.
                value: raw.secretKeys.has(key) ? undefined : text,
                problem: `is not an object, so none of its fields (${known.join(", ")}) is read`,
                allowed: `an object with the fields ${known.join(" and ")}, as in MARA's example stack file: ${example}`,
                fix: [...fields.values()].map((canonical) => configSetCommand(canonical, exampleOf(canonical))).join(" && "),
            });
            continue;
        }
        for (const field of Object.keys(value)) {
            if (fields.has(field)) continue;
            // MARA's fields carry the namespace (`kic:key_path`); `key_path` alone is the likeliest slip.
            const meant = closest(field, known) ?? known.find((k) => k.endsWith(`:${field}`));
            findings.problem({
                key: `${key}.${field}`,
                problem: `is not a field of ${key}, so it is ignored`,
                allowed: `the fields ${known.join(" and ")} (MARA writes them with the namespace)`,
                fix: meant ? `rename it ${meant}, or use ${configSetCommand(fields.get(meant)!, exampleOf(fields.get(meant)!))}` : `remove it from ${key}`,
            });
        }
    }
}

/** The documented example value of a canonical key, for a fix hint. */
function exampleOf(canonical: string): string {
    return Object.values(KEYS).find((s) => s.key === canonical)?.example ?? "<path>";
}
