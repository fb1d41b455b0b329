/**
 * Keys as the user writes them on the command line (`--set aws:region=us-east-1`): canonical or MARA
 * names, parsed with the same value types the program uses.
 */
import { currentKeyName, KEYS, KeyId, KNOWN_KEYS, PROJECT_NAMESPACE } from "../../config";
import { closest } from "../../config/suggest";
import { CliError, EXIT } from "../kernel/io";

/** A key without a namespace belongs to the project, as in a stack file. */
const qualified = (key: string) => (key.includes(":") ? key : `${PROJECT_NAMESPACE}:${key}`);

/** The key-table id of a key (canonical or a MARA alias), or undefined when the program does not read it. */
export function keyIdOf(key: string): KeyId | undefined {
    const full = qualified(key.trim());
    return (Object.keys(KEYS) as KeyId[]).find((id) => KEYS[id].key === full || KEYS[id].legacy.some((l) => !l.field && l.key === full));
}

/** Parses a value for a key: the stored form, or why it is not acceptable (with what is allowed). */
export function checkValue(id: KeyId, text: string): { ok: true; value: string } | { ok: false; reason: string } {
    const type = KEYS[id].type as { parse(raw: string): { ok: true; value: unknown } | { ok: false; reason: string }; render(v: never): string; allowed: string };
    const parsed = type.parse(text);
    if (!parsed.ok) return { ok: false, reason: `${parsed.reason}. Allowed: ${type.allowed}` };
    return { ok: true, value: type.render(parsed.value as never) };
}

/**
 * Parses `--set key=value` flags. Every bad flag is reported together.
 *
 * @throws CliError (usage) listing malformed flags, unknown keys (with a suggestion) and bad values.
 */
export function parseSetFlags(flags: readonly string[]): Map<KeyId, string> {
    const out = new Map<KeyId, string>();
    const errors: string[] = [];
    for (const flag of flags) {
        const eq = flag.indexOf("=");
        if (eq <= 0) {
            // Without a key, what follows '=' is a value, and may be a secret: it is not repeated.
            errors.push(`--set ${eq === 0 ? "=…" : flag}: expected key=value, e.g. --set aws:region=us-east-1`);
            continue;
        }
        const key = flag.slice(0, eq).trim();
        const id = keyIdOf(key);
        if (!id) {
            const near = closest(qualified(key), KNOWN_KEYS);
            const guess = near && currentKeyName(near);
            errors.push(`--set ${key}: not a setting this program reads${guess ? `; did you mean ${guess}?` : ""}`);
            continue;
        }
        const checked = checkValue(id, flag.slice(eq + 1));
        if (checked.ok) out.set(id, checked.value);
        else errors.push(`--set ${key}: the value ${checked.reason}`);
    }
    if (errors.length > 0) throw new CliError(errors.join("\n      "), EXIT.usage);
    return out;
}

/** The key an id is stored under: the one the stack file already uses (possibly MARA's), else canonical. */
export function storedKey(id: KeyId, existing: Readonly<Record<string, string>>): string {
    const alias = KEYS[id].legacy.find((l) => !l.field && existing[l.key] !== undefined);
    return existing[KEYS[id].key] === undefined && alias ? alias.key : KEYS[id].key;
}

/** Whether the stack file sets an id under any of its names. */
export function isSet(id: KeyId, existing: Readonly<Record<string, string>>): boolean {
    return existing[KEYS[id].key] !== undefined || KEYS[id].legacy.some((l) => existing[l.key] !== undefined);
}
