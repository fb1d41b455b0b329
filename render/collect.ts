/**
 * What the program asks Helm and Kubernetes for, collected from a mock run: every `helm.v3.Release` (chart,
 * version, namespace, values) and every typed Kubernetes object, with the dependency graph between them.
 * Values still unknown (a first preview) become placeholders so the release can be rendered anyway.
 */
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { isMap } from "../contracts/kubeObject";
import { unwrapSecrets } from "../offline/wrappedSecrets";

/** What collecting needs of one registration; both the offline run's records and the tests' mock records fit. */
export interface Registration {
    type: string;
    name: string;
    /** URN, once the (mock) engine answered. */
    urn?: string;
    /** Inputs as the monitor received them (secrets still wrapped). */
    inputs?: Record<string, unknown>;
    /** A `Resource.get` read of an existing object (not created by the program). */
    read?: boolean;
    /** URNs this resource waits for. */
    dependencies: readonly string[];
}

/** The type token of Helm releases. */
export const RELEASE_TYPE = "kubernetes:helm.sh/v3:Release";
/** Text that stands in for a value the program does not know yet (first preview). */
export const PLACEHOLDER = "placeholder-unknown-at-preview";

/** One Helm release as the program declares it. */
export interface ReleaseSpec {
    /** Helm repository URL the release installs from. */
    repositoryUrl: string;
    /** Pulumi resource name (names the release in messages). */
    resource: string;
    /** URN, for the dependency graph. */
    urn: string;
    /** Helm release name. */
    release: string;
    chart: string;
    version: string;
    namespace: string;
    /** Values with secrets unwrapped and unknowns replaced by {@link PLACEHOLDER}. */
    values: Record<string, unknown>;
    /** Whether the whole values object was unknown (a first preview): there is nothing to render. */
    valuesUnknown: boolean;
    /** Value paths that were unknown and hold a placeholder. */
    placeholders: string[];
    /** Whether Helm skips the chart's `crds/` directories (the program applies those CRDs itself). */
    skipCrds: boolean;
    /** The local archive the release installs (`mara:chartArchiveDir`), when it installs one. */
    archive?: string;
}

/** A typed Kubernetes object the program registers itself (not through Helm). */
export interface TypedObject {
    resource: string;
    urn: string;
    apiVersion: string;
    kind: string;
    /** The object as sent to Kubernetes (secrets unwrapped, unknowns as placeholders). */
    body: Record<string, unknown>;
}

/** Replaces unknown values by placeholders, recording where. */
function fillUnknowns(value: unknown, path: string, found: string[]): unknown {
    if (pulumi.isUnknown(value)) {
        found.push(path || "(all)");
        return PLACEHOLDER;
    }
    if (Array.isArray(value)) return value.map((v, i) => fillUnknowns(v, `${path}[${i}]`, found));
    if (isMap(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillUnknowns(v, path ? `${path}.${k}` : k, found)]));
    return value;
}

function dropUnknowns(value: unknown): unknown {
    if (Array.isArray(value)) return value.filter((v) => !pulumi.isUnknown(v)).map(dropUnknowns);
    if (isMap(value)) return Object.fromEntries(Object.entries(value).filter(([, v]) => !pulumi.isUnknown(v)).map(([k, v]) => [k, dropUnknowns(v)]));
    return value;
}

/** The Helm releases of a run. */
export function releasesOf(regs: Registration[]): ReleaseSpec[] {
    return regs
        .filter((r) => r.type === RELEASE_TYPE && r.inputs)
        .map((r) => {
            const inputs = unwrapSecrets(r.inputs) as Record<string, unknown>;
            const placeholders: string[] = [];
            const valuesUnknown = pulumi.isUnknown(inputs.values);
            const values = valuesUnknown ? {} : (fillUnknowns(inputs.values ?? {}, "", placeholders) as Record<string, unknown>);
            const chart = String(inputs.chart);
            const oci = chart.startsWith("oci://");
            // A local archive (`mara:chartArchiveDir`) is an absolute path named <chart>-<version>.tgz, as helm pull names it.
            const local = !inputs.repositoryOpts && path.isAbsolute(chart) ? /^(.*)-(v?\d+\.\d+\.\d+[^/]*)\.tgz$/.exec(path.basename(chart)) : null;
            const source = local
                ? { repositoryUrl: "", chart: local[1]!, version: local[2]!, archive: chart }
                : {
                      repositoryUrl: oci ? chart.split("/").slice(0, -1).join("/") : String((inputs.repositoryOpts as { repo?: string } | undefined)?.repo ?? ""),
                      // An OCI chart is given as its full reference; its name is the last path segment.
                      chart: oci ? chart.split("/").at(-1)! : chart,
                      version: String(inputs.version),
                  };
            return {
                resource: r.name,
                urn: r.urn!,
                release: String(inputs.name),
                ...source,
                namespace: String(fillUnknowns(inputs.namespace, "namespace", placeholders)),
                values,
                valuesUnknown,
                placeholders,
                skipCrds: inputs.skipCrds === true,
            };
        });
}

/** `kubernetes:<group>/<version>:<Kind>` → apiVersion and kind (core group has no prefix). */
export function gvkOf(type: string): { apiVersion: string; kind: string } | undefined {
    const m = /^kubernetes:([^/]+)\/([^:]+):(\w+)$/.exec(type);
    if (!m || m[1] === "helm.sh") return undefined;
    return { apiVersion: m[1] === "core" ? m[2]! : `${m[1]}/${m[2]}`, kind: m[3]! };
}

/**
 * Every Kubernetes object the program registers itself, built-in or custom. A `<Kind>Patch` (a server-side apply
 * of an object that may already exist) is taken as the `<Kind>` it applies: the program's patches carry whole
 * objects, so they must be valid as such.
 */
export function typedObjectsOf(regs: Registration[]): TypedObject[] {
    const out: TypedObject[] = [];
    for (const r of regs) {
        const gvk = patchedKind(gvkOf(r.type));
        if (!gvk || r.read || !r.inputs) continue;
        // An unknown field of a typed object may be a whole map (a Secret's stringData from a generated password):
        // its type is unknown too, so it is left out and the known rest is validated.
        const body = dropUnknowns(unwrapSecrets(r.inputs)) as Record<string, unknown>;
        delete body.__defaults;
        out.push({ resource: r.name, urn: r.urn!, ...gvk, body: { ...body, apiVersion: gvk.apiVersion, kind: gvk.kind } });
    }
    return out;
}

function patchedKind(gvk: { apiVersion: string; kind: string } | undefined) {
    return gvk && /.Patch$/.test(gvk.kind) ? { ...gvk, kind: gvk.kind.slice(0, -"Patch".length) } : gvk;
}

/** Whether `from` waits for `to`: `to` is among its dependencies, directly or through other resources. */
export function waitsFor(regs: Registration[], from: string, to: string): boolean {
    const byUrn = new Map(regs.map((r) => [r.urn, r]));
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length) {
        const urn = stack.pop()!;
        if (urn === to && urn !== from) return true;
        if (seen.has(urn)) continue;
        seen.add(urn);
        stack.push(...(byUrn.get(urn)?.dependencies ?? []));
    }
    return false;
}
