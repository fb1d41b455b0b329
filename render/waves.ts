/**
 * The sync wave of every object of a render. Each kind starts in its band (CRDs, then Namespaces, then Secrets and
 * ExternalSecrets, then the other built-in objects, then custom resources) and is moved to a later wave while
 * something it needs comes later: an object waits for what the API server needs when it applies it (its Namespace,
 * its CRD, a `Fail` webhook able to answer), and for what it needs to become healthy (a Secret it mounts, one an
 * operator makes from a custom resource, the CA of a webhook). What it needs, and what controllers make from what,
 * is the sync model's (sync/needs.ts, sync/productions.ts), so the waves and the check agree on the rules.
 */
import { RenderError } from "./errors";
import { needsOf } from "./sync/needs";
import type { PlacedObject } from "./layout";
import { CONDITION_GROUP, describeRef, ObjectIndex, Ref, refKey, SyncObject, syncObjectOf } from "./sync/objects";
import { Production, productionsOf } from "./sync/productions";
import { argoOrder } from "./sync/replay";
import { failWebhooksFor, servingProductions } from "./sync/webhooks";

/** The band each kind starts in. */
export const WAVES = { crd: -3, namespace: -2, secret: -1, builtIn: 0, customResource: 1 } as const;

/** The band of an object before its needs move it. */
export function bandOf(o: SyncObject, index: ObjectIndex): number {
    const { kind, apiVersion } = o.object;
    if (kind === "CustomResourceDefinition" && apiVersion.startsWith("apiextensions.k8s.io/")) return WAVES.crd;
    if (kind === "Namespace" && apiVersion === "v1") return WAVES.namespace;
    if ((kind === "Secret" && apiVersion === "v1") || (kind === "ExternalSecret" && apiVersion.startsWith("external-secrets.io/"))) return WAVES.secret;
    return index.crds.has(`${apiVersion.includes("/") ? apiVersion.split("/")[0] : ""}/${kind}`) ? WAVES.customResource : WAVES.builtIn;
}

/**
 * Waves for the objects applied in Argo CD's Sync phase (objects of other phases are left out: PostSync hooks run in
 * the order of their own waves once the whole Sync phase is healthy).
 *
 * @throws RenderError when needs form a cycle (no order of waves satisfies them).
 */
export function planWaves(index: ObjectIndex): Map<SyncObject, number> {
    const synced = index.objects.filter((o) => o.phases.includes("Sync"));
    const needs = new Map(index.objects.map((o) => [o, needsOf(o, index)]));
    const productions: Production[] = [...productionsOf(index), ...servingProductions(index, (o) => needs.get(o)!)];
    const byMade = new Map<string, Production[]>();
    for (const p of productions) byMade.set(refKey(p.makes), [...(byMade.get(refKey(p.makes)) ?? []), p]);
    const wave = new Map<SyncObject, number>(synced.map((o) => [o, bandOf(o, index)]));
    const waveOfObject = (o: SyncObject) => wave.get(o) ?? (o.phases.includes("PreSync") ? -Infinity : Infinity);

    let memo = new Map<string, number>();
    /** The earliest wave at which something exists: its object's, or that of the first production that can make it. */
    const ready = (ref: Ref, seen: Set<string>): number => {
        const key = refKey(ref);
        if (seen.has(key)) return Infinity;
        const hit = memo.get(key);
        if (hit !== undefined) return hit;
        const value = readyUncached(ref, key, seen);
        if (seen.size === 0) memo.set(key, value);
        return value;
    };
    const readyUncached = (ref: Ref, key: string, seen: Set<string>): number => {
        const o = ref.group === CONDITION_GROUP ? undefined : index.get(ref);
        if (o) return waveOfObject(o);
        const made = byMade.get(key);
        if (!made) return -Infinity; // the cluster's, or nothing's: the check reports what nothing provides
        const next = new Set(seen).add(key);
        return Math.min(...made.map((p) => Math.max(waveOfObject(p.from), p.controller ? waveOfObject(p.controller) : -Infinity, ...p.needs.map((n) => ready(n.ref, next)))));
    };
    /** Whether Argo CD applies `dep` before `o` within one wave: it orders kinds, and a CRD's kind is served once it is applied. */
    const earlierInWave = (dep: Ref, o: SyncObject) => {
        if (dep.group === CONDITION_GROUP) return dep.kind === "KindServed";
        const d = index.get(dep);
        return !!d && argoOrder(d, o) < 0 && d.object.kind !== o.object.kind;
    };

    const catches = new Map(synced.map((o) => [o, failWebhooksFor(o.object, index).filter((w) => w.config.phases.includes("Sync"))]));
    for (let round = 0; ; round++) {
        let changed = false;
        memo = new Map();
        for (const o of synced) {
            let required = wave.get(o)!;
            for (const n of needs.get(o)!) {
                const r = ready(n.ref, new Set());
                if (r === Infinity) continue;
                required = Math.max(required, n.when === "apply" && !earlierInWave(n.ref, o) ? r + 1 : r);
            }
            // A Fail webhook must answer before anything it intercepts is applied: a wave after it can.
            for (const w of catches.get(o)!) required = Math.max(required, ready(w.serving, new Set()) + 1);
            if (required > wave.get(o)!) {
                wave.set(o, required);
                memo = new Map();
                changed = true;
            }
        }
        if (!changed) return wave;
        if (round > synced.length) throw new RenderError(`the objects' needs form a cycle, so no sync waves can order them: ${cycleOf(synced, wave)}; this is a bug in the program or in mara render, please report it`);
    }
}

/** The sync wave of every object of a render that Argo CD applies in its Sync phase. */
export function syncWaves(placed: readonly PlacedObject[]): Map<PlacedObject, number> {
    const objects = placed.map((p) => syncObjectOf(p.object, p.source));
    const planned = planWaves(new ObjectIndex(objects));
    const waves = new Map<PlacedObject, number>();
    placed.forEach((p, i) => {
        const wave = planned.get(objects[i]!);
        if (wave !== undefined) waves.set(p, wave);
    });
    return waves;
}

/** The objects whose waves kept growing, for the error. */
function cycleOf(synced: SyncObject[], wave: Map<SyncObject, number>): string {
    const top = Math.max(...synced.map((o) => wave.get(o)!));
    return synced.filter((o) => wave.get(o)! >= top - 2).slice(0, 6).map((o) => describeRef(o.ref)).join(", ");
}
