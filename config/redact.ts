/**
 * Keeps secret values out of every message the configuration produces. Messages are written not to contain
 * them in the first place (a problem about a secret key has no value); this is the second line of defence:
 * every problem and warning passes through a redactor that knows the stack's secret values — secret keys,
 * MARA's names for them, keys stored encrypted, keys whose names say they hold credentials, an inline
 * kubeconfig, and the user information of any URL (`https://<user>:<token>@host`) — and replaces any of them, or any
 * part of the kubeconfig, with `[secret]`.
 */
import { parse } from "yaml";
import { KEYS, KeySpec } from "./keys";
import { closest } from "./suggest";
import { redactUrlCredentials, URL_CREDENTIALS_REDACTED, urlCredentials } from "../contracts/urlCredentials";

/** What a secret is replaced with in messages. */
export const REDACTED = URL_CREDENTIALS_REDACTED;

/** Key names that say they hold a credential, whether or not the program knows the key (a misspelled one). */
const CREDENTIAL_NAME = /pass|pas+w(or)?d|pwd|token|secret|jwt|credential|auth|private[_-]?key|access[_-]?key|api[_-]?key/i;

/** Every key the program reads, under each of its names. */
const KNOWN: ReadonlySet<string> = new Set((Object.values(KEYS) as KeySpec<unknown>[]).flatMap((s) => [s.key, ...s.legacy.map((l) => l.key)]));

/** Every key the key table marks secret, under its canonical and MARA names. */
const SECRET_KEYS: ReadonlySet<string> = new Set(
    (Object.values(KEYS) as KeySpec<unknown>[]).filter((s) => s.secret).flatMap((s) => [s.key, ...s.legacy.map((l) => l.key)]),
);

const SECRET_KEY_LIST: readonly string[] = [...SECRET_KEYS];

/** Keys whose value is a kubeconfig: inline, every part of it is a credential. */
const KUBECONFIG_KEYS: ReadonlySet<string> = new Set([KEYS.kubeconfig.key, ...KEYS.kubeconfig.legacy.map((l) => l.key)]);

/** The raw config a redactor needs: values and which keys were stored encrypted. */
export interface SecretSource {
    readonly values: Readonly<Record<string, string>>;
    readonly secretKeys: ReadonlySet<string>;
}

/**
 * Whether the value of `key` must never appear in a message: a secret key, a key stored encrypted, a key whose
 * name says it holds a credential, or a misspelling of a secret key (the value is still the secret).
 */
export function isSensitiveKey(key: string, secretKeys: ReadonlySet<string> = new Set()): boolean {
    return SECRET_KEYS.has(key) || secretKeys.has(key) || CREDENTIAL_NAME.test(key.slice(key.indexOf(":") + 1)) || (!KNOWN.has(key) && closest(key, SECRET_KEY_LIST) !== undefined);
}

/** A kubeconfig given as contents rather than as a path (a path is one line, not YAML or JSON). */
export function isInlineKubeconfig(value: string): boolean {
    return value.includes("\n") || value.trimStart().startsWith("{") || /^\s*apiVersion\s*:/.test(value);
}

/**
 * The fragments of an inline kubeconfig to hide: the whole text and every value in it (server addresses, names,
 * tokens, certificate data), but not its keys or its fixed `apiVersion` and `kind`, which would hide ordinary
 * words ("context", "Config") from every message. Text that is not YAML is hidden by its longer tokens.
 */
function kubeconfigParts(text: string): string[] {
    const out: string[] = [text];
    let doc: unknown;
    try {
        doc = parse(text, { logLevel: "silent" });
    } catch {
        return [...out, ...text.split(/\s+/).filter((t) => t.length >= 12)];
    }
    const walk = (v: unknown, key?: string) => {
        if (typeof v === "string" && key !== "apiVersion" && key !== "kind" && v.length >= 3) out.push(v);
        else if (Array.isArray(v)) v.forEach((x) => walk(x));
        else if (v && typeof v === "object") Object.entries(v).forEach(([k, x]) => walk(x, k));
    };
    walk(doc);
    return out;
}

/** Redactors by the configuration they were made for (validation and the commands ask for the same one). */
const OF = new WeakMap<SecretSource, Redactor>();

/** Replaces the secret values of a stack in messages. */
export class Redactor {
    private readonly long: string[];
    private readonly short: RegExp[];

    constructor(secrets: Iterable<string>) {
        const unique = [...new Set([...secrets].map((s) => s.trim()).filter((s) => s !== ""))].sort((a, b) => b.length - a.length);
        this.long = unique.filter((s) => s.length >= 8);
        // A short secret (or a short part of a kubeconfig, such as a user name) would also match inside ordinary
        // words and names; it is hidden where it stands alone.
        this.short = unique.filter((s) => s.length < 8).map((s) => new RegExp(`(?<![\\w-])${s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`, "g"));
    }

    /** The secrets of a stack: see the module comment. The same stack's redactor is made once. */
    static of(raw: SecretSource): Redactor {
        const made = OF.get(raw);
        if (made) return made;
        const secrets: string[] = [];
        for (const [key, value] of Object.entries(raw.values)) {
            if (KUBECONFIG_KEYS.has(key) && isInlineKubeconfig(value)) secrets.push(...kubeconfigParts(value));
            else if (isSensitiveKey(key, raw.secretKeys)) secrets.push(value, ...jsonStrings(value));
            // A credential in a URL is a secret whichever key holds the URL (a git source, a chart repository).
            secrets.push(...urlCredentials(value));
        }
        const redactor = new Redactor(secrets);
        OF.set(raw, redactor);
        return redactor;
    }

    /** `text` with every secret replaced by {@link REDACTED}. */
    redact(text: string): string {
        let out = redactUrlCredentials(text);
        for (const s of this.long) out = out.split(s).join(REDACTED);
        // Quoted forms: a secret with quotes or backslashes appears escaped inside JSON and inside a shell command.
        for (const s of this.long) {
            for (const quoted of [JSON.stringify(s).slice(1, -1), s.replace(/'/g, "'\\''")]) if (quoted !== s) out = out.split(quoted).join(REDACTED);
        }
        for (const re of this.short) out = out.replace(re, REDACTED);
        return out;
    }

    /** Whether `value` is, or contains, a secret. */
    reveals(value: string): boolean {
        return this.redact(value) !== value;
    }
}

/** The string fields of a JSON value (MARA's object-valued keys), each a possible secret on its own. */
function jsonStrings(value: string): string[] {
    try {
        const parsed: unknown = JSON.parse(value);
        const out: string[] = [];
        const walk = (v: unknown) => {
            if (typeof v === "string") out.push(v);
            else if (v && typeof v === "object") Object.values(v).forEach(walk);
        };
        walk(parsed);
        return out;
    } catch {
        return [];
    }
}

/** Values longer than this are cut in messages. */
const MAX_VALUE = 100;

/**
 * `text` with every run of non-space characters longer than 100 cut to its start and its length: a huge value
 * (an inline certificate, a pasted file) must not bury the message that names it.
 */
export function shorten(text: string): string {
    return text.replace(new RegExp(`\\S{${MAX_VALUE + 1},}`, "g"), (run) => `${run.slice(0, 40)}… (${run.length} characters)`);
}

/** A value as a message shows it: whole when short, else its start and its length. */
export function shortenValue(value: string): string {
    return value.length <= MAX_VALUE ? value : `${value.slice(0, 60)}… (${value.length} characters)`;
}
