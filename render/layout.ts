/**
 * How rendered objects become files: one folder per component with a kustomization.yaml listing its files, a root
 * kustomization.yaml listing the folders, each object's Argo CD sync wave (waves.ts), and bytes
 * that depend on nothing but the objects (sorted keys and files, no timestamps), so two renders of one stack are
 * identical and a diff between two commits shows exactly what changed.
 */
import { isMap, type KubeObject } from "../contracts/kubeObject";
import { unambiguousYaml } from "./safeYaml";

/** The Argo CD annotation that orders a sync. */
export const SYNC_WAVE = "argocd.argoproj.io/sync-wave";

/** One object with where it came from and where it goes. */
export interface PlacedObject {
    /** The object as it will be written (without the sync-wave annotation, which {@link layoutFiles} adds from waves.ts). */
    object: KubeObject;
    /** Component folder. */
    component: string;
    /** Who declared it, for the file's header, e.g. `release platform-prometheus-release (kube-prometheus-stack 88.5.3)`. */
    source: string;
    /** Whether its kind is defined by a CRD in the output. */
    custom: boolean;
}

/** The object as written: with its sync wave, when it has one. */
export function withWave(o: KubeObject, wave: number | undefined): KubeObject {
    if (wave === undefined) return o;
    return { ...o, metadata: { ...o.metadata, annotations: { ...o.metadata?.annotations, [SYNC_WAVE]: String(wave) } } };
}

/** A file-name-safe form of a name. */
const safe = (s: string) => s.toLowerCase().replace(/[^a-z0-9.-]+/g, "-");

/** Keys sorted at every level (arrays keep their order: it carries meaning). */
export function sortKeys(v: unknown): unknown {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (isMap(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])]));
    return v;
}

/** Deterministic YAML that YAML 1.1 and 1.2 readers take alike: sorted keys, no line folding, no anchors (safeYaml.ts). */
export function toYaml(v: unknown): string {
    return unambiguousYaml(sortKeys(v));
}

const KUSTOMIZATION = { apiVersion: "kustomize.config.k8s.io/v1beta1", kind: "Kustomization" };

/** The path of each object's file: `<component>/<kind>-<name>.yaml`, with the namespace, then the API group, added only where needed. */
export function filePaths(placed: readonly PlacedObject[]): Map<PlacedObject, string> {
    const paths = new Map<PlacedObject, string>();
    const byComponent = new Map<string, PlacedObject[]>();
    for (const p of placed) byComponent.set(p.component, [...(byComponent.get(p.component) ?? []), p]);
    for (const [component, objects] of byComponent) fileNames(objects).forEach((file, i) => paths.set(objects[i]!, `${component}/${file}`));
    return paths;
}

/**
 * The files of a render, by relative path: each object in its file (see {@link filePaths}) with its sync wave, a
 * kustomization.yaml per folder and one at the root.
 *
 * @param waveOf - the sync wave of an object (waves.ts); undefined writes none (a PostSync hook's comes with it).
 */
export function layoutFiles(placed: readonly PlacedObject[], header: string, waveOf: (p: PlacedObject) => number | undefined = () => undefined): Map<string, string> {
    const files = new Map<string, string>();
    const paths = filePaths(placed);
    const components = [...new Set(placed.map((p) => p.component))].sort();
    for (const component of components) {
        const listed: string[] = [];
        for (const p of placed.filter((x) => x.component === component)) {
            const file = paths.get(p)!;
            files.set(file, `${header}# Source: ${p.source}\n${toYaml(withWave(p.object, waveOf(p)))}`);
            listed.push(file.slice(component.length + 1));
        }
        files.set(`${component}/kustomization.yaml`, `${header}${toYaml({ ...KUSTOMIZATION, resources: listed.sort() })}`);
    }
    files.set("kustomization.yaml", `${header}${toYaml({ ...KUSTOMIZATION, resources: components })}`);
    return files;
}

/** File names for the objects of one folder, unique, in the objects' order. */
function fileNames(objects: readonly PlacedObject[]): string[] {
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
