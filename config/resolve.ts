/**
 * Reads one key from raw config: the canonical key or one of its MARA aliases, parsed by its type.
 * Pure: no Pulumi runtime, so `mara validate` and tests can use it on a stack file.
 */
// The SDK's output module rather than its index: \`mara validate\` loads configuration validation without the whole SDK.
import type { Output } from "@pulumi/pulumi/output";
import { ENCRYPTED_PLACEHOLDER } from "./encryptedPlaceholder";
import { KeySpec, LegacyKey, PROJECT_NAMESPACE, PROVIDER_NAMESPACES } from "./keys";
import { legacyPinReplacement } from "./legacyPins";
import type { RawConfig } from "./rawConfig";
import { ConfigProblem, configSetCommand } from "./problems";
import { Redactor, shorten } from "./redact";
import { redactUrlCredentials } from "../contracts/urlCredentials";

export type { RawConfig } from "./rawConfig";

/** A resolved key: where its value came from and what it parsed to. */
export interface Resolved<T> {
    /** Parsed value (the default when nothing was set); undefined when unset without default, or invalid. */
    readonly value?: T;
    /**
     * The key the value was read from; undefined when the default applied, including when the canonical key
     * holds exactly its Pulumi.yaml default (which `pulumi up` passes whether or not the stack sets it).
     */
    readonly source?: string;
    /** The raw string that was read. */
    readonly raw?: string;
}

/** A MARA key in a provider's namespace that was read under its canonical name. */
interface Rename {
    readonly from: string;
    readonly to: string;
    readonly value: string;
    readonly secret: boolean;
    /** The release that renamed one of this project's keys; undefined for a MARA key in a provider's namespace. */
    readonly renamedIn?: string;
}

/**
 * Collects problems and warnings while keys are resolved. Every message passes through the stack's
 * {@link Redactor}, so no secret value reaches a problem or a warning even where a message was written
 * carelessly, and huge values are shortened.
 */
export class Findings {
    readonly problems: ConfigProblem[] = [];
    private readonly problemIds = new Set<string>();
    private readonly messages: string[] = [];
    private readonly warned = new Set<string>();
    private readonly renames = new Map<string, Rename[]>();

    private readonly redactor: Redactor;

    // A plain field, not a parameter property: Node's type stripping (a loader the benchmark compares) refuses those.
    constructor(redactor: Redactor = new Redactor([])) {
        this.redactor = redactor;
    }

    /** Warnings, with one summary per provider namespace whose keys were read under new names. */
    get warnings(): string[] {
        const renameWarnings = [...this.renames].map(
            ([ns, list]) =>
                (ns === PROJECT_NAMESPACE
                    ? `Keys renamed in ${[...new Set(list.map((r) => r.renamedIn))].join(" and ")} are read under their old names until 1.0.0: `
                    : `Keys in the "${ns}" namespace belong to the ${ns} provider, which may reject keys it does not know. Read under their new names: `) +
                `${list.map((r) => `${r.from} → ${r.to}`).join(", ")}. Rename them: ` +
                list.map((r) => `pulumi config rm ${r.from} && ${configSetCommand(r.to, r.value, r.secret)}`).join(" && "),
        );
        return [...renameWarnings, ...this.messages].map((w) => shorten(this.redactor.redact(w)));
    }

    /** Whether `value` is, or contains, one of the stack's secrets. */
    reveals(value: string): boolean {
        return this.redactor.reveals(value);
    }

    /** Records that a provider-namespace MARA key, or an earlier name of one of this project's keys, was read as its canonical key. */
    renamed(namespace: string, rename: Rename): void {
        const list = this.renames.get(namespace) ?? [];
        if (!list.some((r) => r.from === rename.from)) list.push(rename);
        this.renames.set(namespace, list);
    }

    /** Records a problem; the same problem reached through two settings (a shared MARA key) counts once. */
    problem(found: ConfigProblem): void {
        const r = (t: string) => this.redactor.redact(t);
        // A URL is shown without its user information; a value that still holds a secret is not shown at all.
        const shown = found.value === undefined ? undefined : redactUrlCredentials(found.value);
        const p: ConfigProblem = {
            key: found.key,
            value: shown === undefined || this.redactor.reveals(shown) ? undefined : shown,
            problem: r(found.problem),
            allowed: r(found.allowed),
            fix: r(found.fix),
        };
        const id = JSON.stringify([p.key, p.value, p.problem]);
        if (this.problemIds.has(id)) return;
        this.problemIds.add(id);
        this.problems.push(p);
    }

    /** Adds a warning once, however many keys lead to it. */
    warn(message: string): void {
        if (this.warned.has(message)) return;
        this.warned.add(message);
        this.messages.push(message);
    }
}

/** Reads a MARA alias, digging into an object-valued key when the alias names a field. */
export function readLegacy(values: RawConfig["values"], l: LegacyKey): string | undefined {
    const raw = values[l.key];
    if (raw === undefined || l.field === undefined) return raw;
    try {
        const obj: unknown = JSON.parse(raw);
        if (obj && typeof obj === "object" && !Array.isArray(obj)) {
            const field = (obj as Record<string, unknown>)[l.field];
            if (field === undefined || field === null) return undefined;
            return typeof field === "string" ? field : JSON.stringify(field);
        }
    } catch {
        // Not an object: treated as unset below, with the whole-key problem reported by the caller.
    }
    return undefined;
}

/** Names a legacy key as the user wrote it, including the field for object-valued keys. */
export const legacyName = (l: LegacyKey) => (l.field ? `${l.key}.${l.field}` : l.key);

const namespaceOf = (key: string) => key.slice(0, Math.max(0, key.indexOf(":")));

/** Options that change how one key is resolved. */
export interface ResolveOptions {
    /** Skip the MARA aliases (they describe a chart we no longer install). */
    readonly ignoreLegacy?: boolean;
    /** The stack's infrastructure type: a MARA pin in another cloud's section is replaced without a warning. */
    readonly infraType?: string;
}

/**
 * Resolves one key. Precedence: the canonical key, unless it only holds its declared default (the
 * Pulumi CLI fills project defaults in), in which case an explicitly set MARA alias wins; then the
 * aliases in order; then the default. Conflicting explicit values are a problem, not a silent choice.
 */
export function resolve<T>(raw: RawConfig, spec: KeySpec<T>, findings: Findings, opts: ResolveOptions = {}): Resolved<T> {
    const canonical = raw.values[spec.key];
    const aliases = opts.ignoreLegacy ? [] : spec.legacy;
    const alias = aliases.map((l) => ({ l, raw: readLegacy(raw.values, l) })).find((a): a is { l: LegacyKey; raw: string } => a.raw !== undefined);
    const defaultText = spec.default === undefined ? undefined : spec.type.render(spec.default);

    let source: string;
    let text: string;
    // The key a fix hint tells the user to set: the one they wrote, unless it is a field of an object.
    let fixKey = spec.key;
    // Neither value of a secret (or of a key stored encrypted) ever appears in a message; the key names may.
    const sensitive = spec.secret === true || raw.secretKeys.has(spec.key) || (alias !== undefined && raw.secretKeys.has(alias.l.key));
    if (canonical !== undefined && alias && canonical.trim() !== defaultText) {
        const a = spec.type.parse(canonical);
        const b = spec.type.parse(alias.raw);
        if (!(a.ok && b.ok && JSON.stringify(a.value) === JSON.stringify(b.value))) {
            findings.problem({
                key: spec.key,
                value: sensitive ? undefined : canonical,
                problem: `is set together with ${legacyName(alias.l)}${sensitive ? "" : ` = ${JSON.stringify(alias.raw)}`}, and the two disagree`,
                allowed: "one of the two keys",
                fix: `keep ${spec.key} and remove the ${alias.l.renamedIn ? "old name" : "MARA key"}: pulumi config rm ${alias.l.key}`,
            });
            // Set (twice), with no value to use: what needs the key must not also call it unset.
            return { source: spec.key, raw: canonical };
        }
        source = spec.key;
        text = canonical;
    } else if (alias) {
        source = legacyName(alias.l);
        text = alias.raw;
        if (!alias.l.field) fixKey = alias.l.key;
    } else if (canonical !== undefined && canonical !== defaultText) {
        source = spec.key;
        text = canonical;
    } else {
        // Unset, or holding exactly its declared default: `pulumi up` passes every Pulumi.yaml default as if the
        // stack set it, so that value cannot mean "the user chose this" (it would otherwise switch off MARA
        // aliases such as kic-helm:nginx_tag and raise warnings about keys the user never wrote).
        return { value: spec.default };
    }

    // MARA's own 2022 pins are read as the versions this platform installs, with a warning (legacyPins.ts).
    const pin = source !== spec.key ? legacyPinReplacement(source, text) : undefined;
    if (pin) {
        if (pin.cloud === undefined || pin.cloud === opts.infraType) findings.warn(pin.warning);
        text = pin.value;
    }

    const storedKey = alias && source !== spec.key ? alias.l.key : spec.key;
    // A secret stored encrypted, read where it cannot be decrypted: its form is checked where Pulumi decrypts it (by
    // the program under preview and up), not refused here for not looking like a key or a URL.
    if (spec.secret && spec.type.pulumiType === "string" && raw.secretKeys.has(storedKey) && text.trim() === ENCRYPTED_PLACEHOLDER) {
        return { value: ENCRYPTED_PLACEHOLDER as T, source, raw: text };
    }
    const parsed = spec.type.parse(text);
    const cliRefusal = parsed.ok && source === spec.key ? refusedByCli(spec, text) : undefined;
    if (cliRefusal && parsed.ok) {
        findings.problem({
            key: source,
            value: sensitive ? undefined : text,
            problem: `is refused by the Pulumi CLI before the program starts, because Pulumi.yaml declares ${spec.key} as ${cliRefusal}`,
            allowed: spec.type.pulumiType === "boolean" ? "exactly true or false" : "digits only, optionally signed",
            fix: configSetCommand(spec.key, spec.type.render(parsed.value)),
        });
        return { source, raw: text };
    }
    if (!parsed.ok) {
        const hint = spec.example ?? defaultText ?? "<value>";
        findings.problem({
            key: source,
            value: sensitive ? undefined : text,
            // A parser's reason may quote the value (a list entry); a sensitive value gets the reason alone.
            problem: sensitive && !spec.secret ? "is not valid" : parsed.reason,
            allowed: spec.type.allowed,
            fix: configSetCommand(fixKey, hint, spec.secret),
        });
        return { source, raw: text };
    }
    if (alias && source !== spec.key && !pin) {
        const ns = namespaceOf(alias.l.key);
        if (alias.l.renamedIn || ((PROVIDER_NAMESPACES as readonly string[]).includes(ns) && ns !== namespaceOf(spec.key))) {
            findings.renamed(ns, { from: alias.l.key, to: spec.key, value: spec.secret ? "<value>" : text, secret: spec.secret === true, renamedIn: alias.l.renamedIn });
        }
    }
    if (spec.secret && !raw.secretKeys.has(storedKey)) {
        findings.warn(
            `${source} is stored in plain text in the stack file; encrypt it: ${configSetCommand(spec.key, "<value>", true)}` +
                (source !== spec.key ? ` && pulumi config rm ${source}` : ""),
        );
    }
    return { value: parsed.value, source, raw: text };
}

/**
 * Why the Pulumi CLI would refuse a value of a key that Pulumi.yaml declares with a type (project keys with a
 * default; see `configDeclarations`), or undefined. The CLI accepts only `true`/`false` for booleans and
 * `strconv.Atoi` integers; the program's own parsers are more lenient (`yes`, ` 3`) because MARA's keys,
 * which the CLI does not check, were.
 */
export function refusedByCli<T>(spec: KeySpec<T>, text: string): string | undefined {
    if (!spec.key.startsWith(`${PROJECT_NAMESPACE}:`) || spec.default === undefined) return undefined;
    if (spec.type.pulumiType === "boolean" && text !== "true" && text !== "false") return "a boolean";
    if (spec.type.pulumiType === "integer" && !/^[+-]?\d+$/.test(text)) return "an integer";
    return undefined;
}

/** Wraps a resolved secret as a secret Output, so it can never be printed or exported in plain text. */
export function secretOutput(r: Resolved<string>): Output<string> | undefined {
    if (r.value === undefined) return undefined;
    // Loaded only when there is a secret to wrap: the SDK's Output module loads its whole runtime, and
    // `mara validate` on a stack without secrets needs none of it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require("@pulumi/pulumi/output") as typeof import("@pulumi/pulumi/output")).secret(r.value);
}
