/**
 * The keys of an add-on defined outside this package (docs/library.md, "Your own add-on"): declared with the same
 * spec as the key table's (keySpec.ts), read with the same resolver and reported through the same `Findings`, so a
 * bad value gets the platform's message — the key, the value unless secret, what is allowed, how to fix it. Such
 * keys live in a namespace of their own (`externalDns:provider`): the `mara:` namespace and MARA's own are the key
 * table's, whose validation names any key it does not know there, and a provider's namespace belongs to its provider.
 */
import type { Output } from "@pulumi/pulumi/output";
import { DefaultedKeySpec, KeySpec, PROVIDER_NAMESPACES, SpecInput, spec } from "./keySpec";
import { MARA_NAMESPACES } from "./keys";
import { Redactor } from "./redact";
import { Findings, RawConfig, resolve, secretOutput } from "./resolve";
import type { ConfigProblem } from "./problems";

/** A key declared by an add-on of your own: everything of a key table entry but the reference's section. */
export type AddOnKeyInput<T> = Omit<SpecInput<T>, "group" | "usedOn" | "secret">;
/** A key whose value is a secret: stored encrypted, handed to the add-on as a secret Output. */
export type SecretKeySpec = KeySpec<string> & { readonly secret: true };
/** An add-on's keys, by the ids its mapping reads them with. */
export type AddOnKeyTable = Readonly<Record<string, KeySpec<unknown>>>;
/** The validated values of an add-on's keys: a defaulted key always has one, a secret is a secret Output. */
export type AddOnValues<K extends AddOnKeyTable> = {
    readonly [I in keyof K]: K[I] extends SecretKeySpec
        ? Output<string> | undefined
        : K[I] extends DefaultedKeySpec<infer T>
          ? T
          : K[I] extends KeySpec<infer T>
            ? T | undefined
            : never;
};

/** Declares an add-on's key; see {@link AddOnKeyInput}. The section is the add-on's own, outside this package's reference. */
export function addOnKey<T>(s: AddOnKeyInput<T> & { default: NoInfer<T> }): DefaultedKeySpec<T>;
export function addOnKey<T>(s: AddOnKeyInput<T>): KeySpec<T>;
export function addOnKey<T>(s: AddOnKeyInput<T>): KeySpec<T> {
    checkNamespace(s.key);
    // The section only orders this package's generated reference, which an add-on's keys are not part of.
    return spec<T>({ ...s, group: "Platform" });
}

/** Declares an add-on's secret key: refused unless stored encrypted (`pulumi config set --secret`), never shown in a message. */
export function addOnSecretKey(s: AddOnKeyInput<string>): SecretKeySpec {
    checkNamespace(s.key);
    return { ...spec<string>({ ...s, group: "Platform" }), secret: true };
}

/** What validating an add-on's keys found; `values` only when there is no problem. */
export interface AddOnKeysResult<K extends AddOnKeyTable> {
    readonly values?: AddOnValues<K>;
    readonly problems: readonly ConfigProblem[];
    readonly warnings: readonly string[];
}

/**
 * Validates an add-on's keys against the raw configuration, and `check`, its rules across keys (given the values,
 * the key each was read from, and where to report). Pure: nothing is registered, so a program calls it before
 * creating any resource (program/addOns.ts `loadAddOns`).
 */
export function validateAddOnKeys<K extends AddOnKeyTable>(
    keys: K,
    raw: RawConfig,
    check?: (values: AddOnValues<K>, keyOf: (id: keyof K) => string, findings: Pick<Findings, "problem" | "warn">) => void,
): AddOnKeysResult<K> {
    const findings = new Findings(Redactor.of(raw));
    const resolved = Object.fromEntries(Object.entries(keys).map(([id, s]) => [id, { spec: s, r: resolve<unknown>(raw, s, findings) }]));
    const values = Object.fromEntries(
        Object.entries(resolved).map(([id, { spec: s, r }]) => [id, s.secret ? secretOutput(r as { value?: string }) : r.value]),
    ) as AddOnValues<K>;
    if (findings.problems.length === 0 && check) check(values, (id) => resolved[id as string]!.r.source ?? keys[id]!.key, findings);
    return findings.problems.length > 0 ? { problems: findings.problems, warnings: findings.warnings } : { values, problems: [], warnings: findings.warnings };
}

/** An add-on's key must be `<namespace>:<name>` in a namespace of its own (module comment). */
function checkNamespace(key: string): void {
    const ns = key.split(":")[0]!;
    const taken: readonly string[] = [...new Set<string>([...MARA_NAMESPACES, ...PROVIDER_NAMESPACES])];
    if (!/^[A-Za-z][\w-]*:[A-Za-z][\w.-]*$/.test(key) || taken.includes(ns)) {
        throw new Error(
            `add-on key "${key}": an add-on's keys are <namespace>:<name> in a namespace of its own, such as externalDns:provider; ` +
                `not ${taken.map((n) => `${n}:`).join(", ")}, which belong to the platform or a provider.`,
        );
    }
}
