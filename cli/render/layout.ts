/**
 * How rendered objects become files: one folder per component with a kustomization.yaml listing its files, a root
 * kustomization.yaml listing the folders, Argo CD sync waves in the order the objects must be applied, and bytes
 * that depend on nothing but the objects (sorted keys and files, no timestamps), so two renders of one stack are
 * identical and a diff between two commits shows exactly what changed.
 */
import { stringify } from "yaml";
import { isMap, KubeObject } from "./charts";

/** The Argo CD annotation that orders a sync. */
export const SYNC_WAVE = "argocd.argoproj.io/sync-wave";

/**
 * Sync waves, applied in ascending order, each waiting for the one before to be healthy:
 * CRDs, then Namespaces, then the Secrets (as ExternalSecrets) workloads mount, then the built-in objects, then the
 * custom resources, whose operators and admission webhooks come with the built-in objects.
 */
export const WAVES = { crd: -3, namespace: -2, secret: -1, builtIn: 0, customResource: 1 } as const;

/** One object with where it came from and where it goes. */
export interface PlacedObject {
    /** The object as it will be written (without the sync-wave annotation, which {@link layoutFiles} adds). */
    object: KubeObject;
    /** Component folder. */
    component: string;
    /** Who declared it, for the file's header, e.g. `release platform-prometheus-release (kube-prometheus-stack 88.5.3)`. */
    source: string;
    /** Whether its kind is defined by a CRD in the output. */
    custom: boolean;
}

/** Wave of an object. */
export function waveOf(p: PlacedObject): number {
    const { kind, apiVersion } = p.object;
    if (kind === "CustomResourceDefinition" && apiVersion.startsWith("apiextensions.k8s.io/")) return WAVES.crd;
    if (kind === "Namespace" && apiVersion === "v1") return WAVES.namespace;
    if ((kind === "Secret" && apiVersion === "v1") || (kind === "ExternalSecret" && apiVersion.startsWith("external-secrets.io/"))) return WAVES.secret;
    return p.custom ? WAVES.customResource : WAVES.builtIn;
}

/** Whether Helm runs the object as a hook; Argo CD maps Helm hook annotations to its own hooks, which carry their own order. */
const isHook = (o: KubeObject) => o.metadata?.annotations?.["helm.sh/hook"] !== undefined;

/** A file-name-safe form of a name. */
const safe = (s: string) => s.toLowerCase().replace(/[^a-z0-9.-]+/g, "-");

/** Keys sorted at every level (arrays keep their order: it carries meaning). */
export function sortKeys(v: unknown): unknown {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (isMap(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])]));
    return v;
}

/** Deterministic YAML: sorted keys, no line folding, no anchors. */
export function toYaml(v: unknown): string {
    return stringify(sortKeys(v), { lineWidth: 0, aliasDuplicateObjects: false });
}

const KUSTOMIZATION = { apiVersion: "kustomize.config.k8s.io/v1beta1", kind: "Kustomization" };

/**
 * The files of a render, by relative path: `<component>/<kind>-<name>.yaml` (with the namespace, then the API
 * group, added to the name only where two objects of a folder would otherwise share a file), a kustomization.yaml
 * per folder and one at the root.
 */
export function layoutFiles(placed: PlacedObject[], header: string): Map<string, string> {
    const files = new Map<string, string>();
    const byComponent = new Map<string, PlacedObject[]>();
    for (const p of placed) byComponent.set(p.component, [...(byComponent.get(p.component) ?? []), p]);
    const components = [...byComponent.keys()].sort();
    for (const component of components) {
        const objects = byComponent.get(component)!;
        const names = fileNames(objects);
        const listed: string[] = [];
        for (const [i, p] of objects.entries()) {
            const file = names[i]!;
            const obj = structuredClone(p.object);
            if (!isHook(obj)) {
                obj.metadata = { ...obj.metadata, annotations: { ...obj.metadata?.annotations, [SYNC_WAVE]: String(waveOf(p)) } };
            }
            files.set(`${component}/${file}`, `${header}# Source: ${p.source}\n${toYaml(obj)}`);
            listed.push(file);
        }
        files.set(`${component}/kustomization.yaml`, `${header}${toYaml({ ...KUSTOMIZATION, resources: listed.sort() })}`);
    }
    files.set("kustomization.yaml", `${header}${toYaml({ ...KUSTOMIZATION, resources: components })}`);
    return files;
}

/** File names for the objects of one folder, unique, in the objects' order. */
function fileNames(objects: PlacedObject[]): string[] {
    const forms = [
        (o: KubeObject) => `${safe(o.kind)}-${safe(o.metadata?.name ?? "unnamed")}`,
        (o: KubeObject) => `${safe(o.kind)}-${o.metadata?.namespace ? `${safe(o.metadata.namespace)}-` : ""}${safe(o.metadata?.name ?? "unnamed")}`,
        (o: KubeObject) => `${safe(o.kind)}.${safe(o.apiVersion.split("/")[0]!)}-${o.metadata?.namespace ? `${safe(o.metadata.namespace)}-` : ""}${safe(o.metadata?.name ?? "unnamed")}`,
    ];
    const names = objects.map(() => "");
    let pending = objects.map((_, i) => i);
    for (const form of forms) {
        const candidates = new Map<number, string>(pending.map((i) => [i, form(objects[i]!.object)]));
        const count = new Map<string, number>();
        for (const n of candidates.values()) count.set(n, (count.get(n) ?? 0) + 1);
        const taken = new Set(names.filter(Boolean));
        pending = pending.filter((i) => {
            const n = candidates.get(i)!;
            if (count.get(n) === 1 && !taken.has(`${n}.yaml`)) {
                names[i] = `${n}.yaml`;
                return false;
            }
            return true;
        });
        if (pending.length === 0) break;
    }
    if (pending.length) {
        const o = objects[pending[0]!]!.object;
        throw new Error(`two objects would be written as one: ${o.apiVersion} ${o.kind} ${o.metadata?.namespace ?? ""}/${o.metadata?.name} appears twice in ${objects[pending[0]!]!.component}`);
    }
    return names;
}
