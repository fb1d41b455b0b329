/**
 * A render as Argo CD reads it: each object with the sync phases and the wave Argo CD gives it, and an index that
 * finds objects by reference. The rules are Argo CD's (its sync engine, gitops-engine): an object is a hook when it
 * carries `argocd.argoproj.io/hook`, or else a Helm hook annotation Argo CD maps to one (pre-install and pre-upgrade
 * to PreSync, post-install and post-upgrade to PostSync; any other Helm hook is never applied by a sync). Its wave is
 * `argocd.argoproj.io/sync-wave`, else `helm.sh/hook-weight`, else 0.
 */
import { parse } from "yaml";
import { isMap, type KubeObject } from "../../contracts/kubeObject";
import { APPLICATIONS_FOLDER } from "../../components/argoCd/applications";
import { apiGroupOf, CLUSTER_SCOPED, groupOf } from "../kinds";

/** A reference to an object, or to something a controller makes that is not an object (see {@link CONDITION_GROUP}). */
export interface Ref {
    /** API group, "" for the core group. */
    group: string;
    kind: string;
    namespace?: string;
    name: string;
}

/** The group of references to conditions controllers bring about (a webhook's CA injected, an Ingress's address published). */
export const CONDITION_GROUP = "sync.mara";

export const refKey = (r: Ref) => `${r.group}/${r.kind}/${r.namespace ?? ""}/${r.name}`;

/** "Secret logstore/elastic-es-elastic-user", for messages. */
export const describeRef = (r: Ref) => `${r.kind} ${r.namespace ? `${r.namespace}/` : ""}${r.name}`;

/** The reference of a manifest. */
export const refOf = (o: KubeObject): Ref => ({ group: apiGroupOf(o.apiVersion), kind: o.kind, ...(o.metadata?.namespace ? { namespace: o.metadata.namespace } : {}), name: o.metadata?.name ?? "" });

/** Argo CD's sync phases, in the order a sync runs them. */
export const PHASES = ["PreSync", "Sync", "PostSync"] as const;
export type Phase = (typeof PHASES)[number];

/** One object of a render as Argo CD syncs it. */
export interface SyncObject {
    /** File it was read from, relative to the render's folder. */
    file: string;
    object: KubeObject;
    ref: Ref;
    /** The phases it is applied in: Sync for an ordinary object, its hook phases for a hook (none for a hook no sync runs). */
    phases: Phase[];
    wave: number;
    hook: boolean;
}

const ARGO_HOOK = "argocd.argoproj.io/hook";
const HELM_HOOK = "helm.sh/hook";
const HELM_PHASES: Record<string, Phase> = { "pre-install": "PreSync", "pre-upgrade": "PreSync", "post-install": "PostSync", "post-upgrade": "PostSync" };

const csv = (v: string | undefined) => (v ?? "").split(",").map((s) => s.trim()).filter(Boolean);

/** Phases and hook status of an object, as Argo CD reads its annotations. */
export function phasesOf(o: KubeObject): { phases: Phase[]; hook: boolean } {
    const a = o.metadata?.annotations ?? {};
    if (a[ARGO_HOOK] !== undefined) {
        const types = csv(a[ARGO_HOOK]);
        // A resource whose only hook type is Skip is not applied at all; SyncFail hooks run only when a sync fails.
        return { phases: [...new Set(types.filter((t): t is Phase => (PHASES as readonly string[]).includes(t)))], hook: !(types.length === 1 && types[0] === "Skip") };
    }
    if (a[HELM_HOOK] !== undefined && a[HELM_HOOK] !== "crd-install") {
        return { phases: [...new Set(csv(a[HELM_HOOK]).flatMap((t) => (HELM_PHASES[t] ? [HELM_PHASES[t]] : [])))], hook: true };
    }
    return { phases: ["Sync"], hook: false };
}

/** The wave of an object, as Argo CD reads it: its sync-wave if that is a number, else its Helm hook weight, else 0. */
export function waveOf(o: KubeObject): number {
    const a = o.metadata?.annotations ?? {};
    const integer = (v: string | undefined) => (v !== undefined && /^[-+]?\d+$/.test(v.trim()) ? Number(v) : undefined);
    return integer(a["argocd.argoproj.io/sync-wave"]) ?? integer(a["helm.sh/hook-weight"]) ?? 0;
}

/** The objects of a render's files: every YAML file in a component folder the root kustomization lists, except the kustomizations (so not the Applications in `argocd/`). */
export function syncObjectsOf(files: ReadonlyMap<string, string>): SyncObject[] {
    const out: SyncObject[] = [];
    // A sync applies what the root kustomization lists: not argocd/, nor the folders applied by hand before it (a
    // Pulumi ESC store, secret-store/). A render written without one (a test's) is all component folders.
    const root = files.get("kustomization.yaml");
    const listed = root === undefined ? undefined : new Set(((parse(root) as { resources?: unknown } | null)?.resources as string[] | undefined) ?? []);
    for (const [file, text] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
        if (!file.includes("/") || !file.endsWith(".yaml") || file.endsWith("kustomization.yaml") || file.startsWith(`${APPLICATIONS_FOLDER}/`)) continue;
        if (listed && !listed.has(file.split("/")[0]!)) continue;
        const object = parse(text) as KubeObject;
        if (!isMap(object)) continue;
        out.push(syncObjectOf(object, file));
    }
    return out;
}

/** One object as Argo CD syncs it. */
export function syncObjectOf(object: KubeObject, file: string): SyncObject {
    return { file, object, ref: refOf(object), ...phasesOf(object), wave: waveOf(object) };
}

/** Objects by reference, and the scope and plural name of every kind (built in, or from a CRD in the render). */
export class ObjectIndex {
    private readonly byKey = new Map<string, SyncObject>();
    /** `<group>/<Kind>` → CRD spec (scope, plural) for the custom kinds the render defines. */
    readonly crds = new Map<string, { scope: string; plural: string; file: string }>();

    constructor(readonly objects: readonly SyncObject[]) {
        for (const o of objects) this.byKey.set(refKey(o.ref), o);
        for (const o of objects) {
            if (o.object.kind !== "CustomResourceDefinition") continue;
            const spec = o.object.spec as { group: string; scope: string; names: { kind: string; plural: string } };
            this.crds.set(`${spec.group}/${spec.names.kind}`, { scope: spec.scope, plural: spec.names.plural, file: o.file });
        }
    }

    get(ref: Ref): SyncObject | undefined {
        return this.byKey.get(refKey(ref));
    }

    /** Whether a kind is defined by a CRD (in the render or, with `external`, one the cluster has before the sync). */
    isCustom(o: KubeObject, external: ReadonlySet<string> = new Set()): boolean {
        const key = `${apiGroupOf(o.apiVersion)}/${o.kind}`;
        return this.crds.has(key) || external.has(key);
    }

    /** Whether objects of this kind live in a namespace. */
    isNamespaced(o: KubeObject): boolean {
        const crd = this.crds.get(`${apiGroupOf(o.apiVersion)}/${o.kind}`);
        if (crd) return crd.scope === "Namespaced";
        return !CLUSTER_SCOPED.has(`${groupOf(o.apiVersion)}:${o.kind}`);
    }

    /** Objects matching a predicate. */
    filter(p: (o: SyncObject) => boolean): SyncObject[] {
        return this.objects.filter(p);
    }
}

/** One thing an object needs. */
export interface Need {
    ref: Ref;
    when: "apply" | "run" | "serve";
    /** Why, for messages: "volume cert", "its issuer". */
    why: string;
}
