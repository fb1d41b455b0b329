/**
 * How a configuration key is declared: its spec (canonical name, MARA aliases, type, default, description, group)
 * and the three keys every chart has. The machinery the key table (keys.ts) and every add-on unit's own keys
 * (components/<unit>/keys.ts) declare their keys with, so a unit's keys reach validation, Pulumi.yaml, the
 * configuration reference and the prompts exactly as the table's do. Imports no key table, so a unit's keys
 * can import it without a cycle.
 */
import { CHARTS, ChartId, InfraType } from "../contracts";
import { helmRepoUrl, integer, text, ValueType } from "./valueTypes";

/**
 * Another name a key is read under: a MARA key, optionally a field inside an object-valued key (MARA's
 * `kic:nginx_plus`), or this project's own earlier name of the key (`renamedIn`).
 */
export interface LegacyKey {
    /** Full key as written in a MARA stack file, e.g. `eks:min_size`, or the key's earlier name, e.g. `mara:kicImageName`. */
    readonly key: string;
    /** Field inside the key's object value, e.g. `kic:key_path` inside `kic:nginx_plus`. */
    readonly field?: string;
    /**
     * The release that renamed this project's key: the earlier name is read, with a warning naming the new one, until
     * 1.0.0 (CHANGELOG.md, "Deprecated"). Undefined for a MARA key.
     */
    readonly renamedIn?: string;
}

/**
 * How docs and generated files name another name of a key: a MARA key as written, an earlier name with the release
 * that renamed it. `quote` wraps the name alone (Markdown's backticks).
 */
export function describeLegacy(l: LegacyKey, quote: (name: string) => string = (n) => n): string {
    const name = quote(l.field ? `${l.key}.${l.field}` : l.key);
    return l.renamedIn ? `${name} (its name before ${l.renamedIn})` : name;
}

/** The sentences generated files add about a key's other names: its MARA keys, then its earlier names. */
export function otherNamesNote(legacyKeys: readonly LegacyKey[], maraLabel: string): string {
    const named = (ls: readonly LegacyKey[]) => ls.map((l) => (l.field ? `${l.key}.${l.field}` : l.key)).join(", ");
    const mara = legacyKeys.filter((l) => !l.renamedIn);
    const earlier = legacyKeys.filter((l) => l.renamedIn);
    return [
        mara.length ? `${maraLabel}: ${named(mara)}.` : "",
        ...[...new Set(earlier.map((l) => l.renamedIn!))].map((r) => `Before ${r}: ${named(earlier.filter((l) => l.renamedIn === r))}.`),
    ]
        .filter(Boolean)
        .join(" ");
}

/** An earlier name of one of this project's keys, renamed in `release`. */
export const renamedFrom = (key: string, release: string): LegacyKey => ({ key, renamedIn: release });

/** How one setting is named, typed, defaulted and documented. */
export interface KeySpec<T> {
    /** Canonical full key (`mara:eksMinSize`, or a genuine provider key such as `aws:region`). */
    readonly key: string;
    /** MARA keys read when the canonical key is not set, in order of preference. */
    readonly legacy: readonly LegacyKey[];
    /** Parser and description of accepted values. */
    readonly type: ValueType<T>;
    /** Default applied when no key is set; also declared in Pulumi.yaml. */
    readonly default?: T;
    /** Words describing a default that depends on other settings (shown instead of a value). */
    readonly defaultNote?: string;
    /** One-line description for Pulumi.yaml, docs/configuration.md and prompts. */
    readonly description: string;
    /** The value must be stored encrypted (`pulumi config set --secret`). */
    readonly secret?: boolean;
    /** A sample value used in fix hints when there is no default. */
    readonly example?: string;
    /** Section of the config reference this key belongs to. */
    readonly group: KeyGroup;
    /**
     * The infrastructure types whose stacks read the key; undefined for every type. A key set on a stack of another
     * type does nothing: validation names it as not used and does not check its value.
     */
    readonly usedOn?: readonly InfraType[];
}

/** Sections of the config reference, in display order. */
export const KEY_GROUPS = [
    "Platform",
    "Admission policies",
    "AWS",
    "DigitalOcean",
    "Linode",
    "Existing cluster",
    "MetalLB",
    "NFS storage",
    "Ingress controller",
    "cert-manager",
    "Charts",
    "Log store",
    "Log agent",
    "Prometheus",
    "Alerts",
    "Observability",
    "Application (Bank of Sirius)",
    "GitOps",
    "Argo CD",
    "Pulumi Kubernetes Operator",
    "Tear down",
] as const;
export type KeyGroup = (typeof KEY_GROUPS)[number];

/** Namespaces that belong to a Pulumi provider package: custom keys there draw a warning. */
export const PROVIDER_NAMESPACES = ["eks", "linode", "digitalocean", "aws"] as const;

/** The project namespace that holds canonical keys. */
export const PROJECT_NAMESPACE = "mara";

const legacy = (...keys: (string | LegacyKey)[]): LegacyKey[] =>
    keys.map((k) => (typeof k === "string" ? { key: k } : k));

export interface SpecInput<T> {
    key: string;
    legacy?: (string | LegacyKey)[];
    type: ValueType<T>;
    default?: NoInfer<T>;
    defaultNote?: string;
    description: string;
    secret?: boolean;
    example?: string;
    group: KeyGroup;
    usedOn?: readonly InfraType[];
}

/** The infrastructure types that read the keys of a section, unless a key says otherwise; other sections are read by every type. */
const GROUP_USED_ON: Partial<Record<KeyGroup, readonly InfraType[]>> = {
    AWS: ["aws"],
    DigitalOcean: ["digitalocean"],
    Linode: ["linode"],
    "Existing cluster": ["kubeconfig"],
    // The add-ons a cluster the stack creates does not need: the cloud's load balancers and volumes serve instead.
    MetalLB: ["kubeconfig"],
    "NFS storage": ["kubeconfig"],
};

/** A key with a declared default: once validated, it always has a value. */
export type DefaultedKeySpec<T> = KeySpec<T> & { readonly default: T };

export function spec<T>(s: SpecInput<T> & { default: NoInfer<T> }): DefaultedKeySpec<T>;
export function spec<T>(s: SpecInput<T>): KeySpec<T>;
export function spec<T>(s: SpecInput<T>): KeySpec<T> {
    return { ...s, legacy: legacy(...(s.legacy ?? [])), usedOn: s.usedOn ?? GROUP_USED_ON[s.group] };
}

const chartVersion = text({
    pattern: /^v?\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$/,
    allowed: 'a chart version such as "2.6.4" or "v1.21.1"',
});
const helmTimeout = integer(30, 7200, "seconds");

/** The three keys every chart has: version, repository URL and Helm timeout. */
export function chartKeys<Id extends ChartId>(
    id: Id,
    group: KeyGroup,
    maraKeys: { version?: string[]; url?: string[]; timeout?: string[] },
): { [K in `${Id}ChartVersion` | `${Id}HelmRepoUrl`]: DefaultedKeySpec<string> } & { [K in `${Id}HelmTimeout`]: DefaultedKeySpec<number> } {
    const c = CHARTS[id];
    return {
        [`${id}ChartVersion`]: spec({
            key: `mara:${id}ChartVersion`,
            legacy: maraKeys.version,
            type: chartVersion,
            default: c.version,
            description: `Version of the ${c.chart} chart (${c.title}).`,
            group,
        }),
        [`${id}HelmRepoUrl`]: spec({
            key: `mara:${id}HelmRepoUrl`,
            legacy: maraKeys.url,
            type: helmRepoUrl(),
            default: c.repositoryUrl,
            description: `Helm repository the ${c.chart} chart is fetched from (set it to use a mirror).`,
            group,
        }),
        [`${id}HelmTimeout`]: spec({
            key: `mara:${id}HelmTimeout`,
            legacy: maraKeys.timeout,
            type: helmTimeout,
            default: c.timeoutSeconds,
            description: `Seconds Helm may wait for the ${c.chart} release to become ready.`,
            group,
        }),
    } as never;
}

