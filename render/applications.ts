/**
 * The Applications of a render delivered by Argo CD (`mara:delivery` handover or gitops): one per component folder,
 * written to `argocd/`, which the root Application syncs. A component's objects may need another's (the
 * OpenTelemetry operator's Certificate needs cert-manager; Bank of Sirius' ServiceMonitors need the Prometheus
 * operator's CRDs), so each Application gets the sync wave after every component it needs: the root Application
 * then syncs them in that order, waiting for each wave's Applications to be healthy (the Application health check
 * `mara:delivery: gitops` configures in argocd-cm; docs/gitops.md).
 */
import { APPLICATIONS_FOLDER, applicationManifest, Destination, folderPath, GitSource } from "../components/argoCd/applications";
import { RenderError } from "./errors";
import { PlacedObject, toYaml } from "./layout";
import { Need, needsOf } from "./sync/needs";
import { CONDITION_GROUP, ObjectIndex, Ref, refKey, syncObjectOf } from "./sync/objects";
import { Production, productionsOf } from "./sync/productions";
import { failWebhooksFor, servingProductions } from "./sync/webhooks";

/** The components each component needs something from. */
export function componentNeeds(placed: readonly PlacedObject[]): Map<string, Set<string>> {
    const objects = placed.map((p) => syncObjectOf(p.object, p.component));
    const component = new Map(objects.map((o, i) => [o, placed[i]!.component]));
    const index = new ObjectIndex(objects);
    const needs = new Map(objects.map((o) => [o, needsOf(o, index)]));
    const productions: Production[] = [...productionsOf(index), ...servingProductions(index, (o) => needs.get(o)!)];
    const byMade = new Map<string, Production[]>();
    for (const p of productions) byMade.set(refKey(p.makes), [...(byMade.get(refKey(p.makes)) ?? []), p]);

    /** The components that provide something: its object's, or those of what makes it and what that needs. */
    const providers = (ref: Ref, seen: Set<string>): string[] => {
        const key = refKey(ref);
        if (seen.has(key)) return [];
        seen.add(key);
        const o = ref.group === CONDITION_GROUP ? undefined : index.get(ref);
        if (o) return [component.get(o)!];
        return (byMade.get(key) ?? []).flatMap((p) => [
            component.get(p.from)!,
            ...(p.controller ? [component.get(p.controller)!] : []),
            ...p.needs.flatMap((n: Need) => providers(n.ref, seen)),
        ]);
    };
    const out = new Map<string, Set<string>>([...new Set(placed.map((p) => p.component))].map((c) => [c, new Set<string>()]));
    for (const o of objects) {
        const own = component.get(o)!;
        const refs = [...needs.get(o)!.map((n) => n.ref), ...failWebhooksFor(o.object, index).map((w) => w.serving)];
        for (const ref of refs) for (const c of providers(ref, new Set())) if (c !== own) out.get(own)!.add(c);
    }
    return out;
}

/** Each component's wave: 0 for one that needs no other, else one after the last it needs. */
export function componentWaves(placed: readonly PlacedObject[]): Map<string, number> {
    const needs = componentNeeds(placed);
    const waves = new Map<string, number>();
    const visiting = new Set<string>();
    const waveOf = (c: string): number => {
        const known = waves.get(c);
        if (known !== undefined) return known;
        if (visiting.has(c)) throw new RenderError(`components need each other (${[...visiting, c].join(" → ")}), so no order of Applications syncs them; this is a bug in the program or in mara render, please report it`);
        visiting.add(c);
        const wave = Math.max(-1, ...[...needs.get(c)!].map(waveOf)) + 1;
        visiting.delete(c);
        waves.set(c, wave);
        return wave;
    };
    for (const c of [...needs.keys()].sort()) waveOf(c);
    return waves;
}

/** The `argocd/` files of a render: an Application per component folder, in its wave, and their kustomization. */
export function applicationFiles(placed: readonly PlacedObject[], source: GitSource, destination: Destination, header: string): Map<string, string> {
    const waves = componentWaves(placed);
    const files = new Map<string, string>();
    const names: string[] = [];
    for (const [component, wave] of [...waves].sort(([a], [b]) => a.localeCompare(b))) {
        const file = `application-${component}.yaml`;
        files.set(`${APPLICATIONS_FOLDER}/${file}`, `${header}${toYaml(applicationManifest(component, folderPath(source, component), source, destination, wave))}`);
        names.push(file);
    }
    files.set(`${APPLICATIONS_FOLDER}/kustomization.yaml`, `${header}${toYaml({ apiVersion: "kustomize.config.k8s.io/v1beta1", kind: "Kustomization", resources: names })}`);
    return files;
}
