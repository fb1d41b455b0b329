/**
 * A first Argo CD sync of a render, replayed. Argo CD runs the phases in order (PreSync, Sync, PostSync) and, in
 * each, the waves in ascending order. Within a wave it applies the objects kind by kind in its fixed kind order
 * (Namespaces first, custom resources last, by name), without waiting for health; then it waits until every object
 * of the wave is healthy before it applies the next wave. A wave that never becomes healthy stalls the sync there:
 * nothing after it is ever applied.
 *
 * The replay applies each object as Argo CD would, checks what the API server needs at that moment (its Namespace,
 * its kind, every `Fail` admission webhook that intercepts it able to answer), lets controllers act (productions.ts)
 * until nothing changes, and then reports every object of the wave that is still not healthy, with what it waits
 * for and where that comes from. To find every problem in one run, an object found stalled is then taken as healthy.
 */
import { waitsForHealth } from "./health";
import { kindServed, Need, needsOf } from "./needs";
import { CONDITION_GROUP, describeRef, ObjectIndex, Phase, PHASES, Ref, refKey, SyncObject } from "./objects";
import { Production, productionsOf } from "./productions";
import { failWebhooksFor, isWebhookConfig, podOf, servingProductions } from "./webhooks";

/** What a check found, naming the rule and the file. */
export interface SyncProblem {
    rule: SyncRule;
    file: string;
    message: string;
}

/** The rules of the sync model; each has a negative test (test/render/syncModel.test.ts). */
export type SyncRule =
    | "apply-namespace"
    | "apply-kind"
    | "apply-order"
    | "webhook-refuses"
    | "webhook-unready"
    | "waits-later"
    | "waits-never"
    | "invalid-field"
    | "tracking";

/** What the cluster has before the first sync. */
export interface SyncEnvironment {
    /** Namespaces that exist (each with its default ServiceAccount). */
    namespaces: readonly string[];
    /** Custom kinds served, as `<group>/<Kind>`: the External Secrets Operator's, which must be installed first. */
    kinds: readonly string[];
    /** Other objects the user creates before the sync (the Secrets `--secrets=omit` leaves out). */
    objects?: readonly Ref[];
}

/** A cluster as the clouds and Kubernetes create it, with the External Secrets Operator installed. */
export const DEFAULT_ENVIRONMENT: SyncEnvironment = {
    namespaces: ["default", "kube-system", "kube-public", "kube-node-lease"],
    kinds: ["ExternalSecret", "SecretStore", "ClusterSecretStore", "ClusterExternalSecret", "PushSecret"].map((k) => `external-secrets.io/${k}`),
};

/** Argo CD's kind order within a wave (gitops-engine's sync tasks, after Helm's); other kinds come after these, by name. */
const KIND_ORDER = [
    "Namespace", "NetworkPolicy", "ResourceQuota", "LimitRange", "PodSecurityPolicy", "PodDisruptionBudget", "ServiceAccount", "Secret",
    "SecretList", "ConfigMap", "StorageClass", "PersistentVolume", "PersistentVolumeClaim", "CustomResourceDefinition", "ClusterRole",
    "ClusterRoleList", "ClusterRoleBinding", "ClusterRoleBindingList", "Role", "RoleList", "RoleBinding", "RoleBindingList", "Service",
    "DaemonSet", "Pod", "ReplicationController", "ReplicaSet", "Deployment", "HorizontalPodAutoscaler", "StatefulSet", "Job", "CronJob",
    "IngressClass", "Ingress", "APIService",
];
const kindRank = (kind: string) => {
    const i = KIND_ORDER.indexOf(kind);
    return i < 0 ? 0 : i - KIND_ORDER.length;
};

/** Argo CD's order of the objects of one wave. */
export function argoOrder(a: SyncObject, b: SyncObject): number {
    return kindRank(a.object.kind) - kindRank(b.object.kind) || (a.ref.name < b.ref.name ? -1 : a.ref.name > b.ref.name ? 1 : 0);
}

/** Where something came from in the replay. */
interface Arrival {
    phase: Phase;
    wave: number;
}

const at = (a: Arrival) => (a.phase === "Sync" ? `wave ${a.wave}` : `${a.phase} wave ${a.wave}`);
const step = (a: Arrival) => PHASES.indexOf(a.phase) * 1e6 + a.wave;

/** Replays a first sync of the render's objects on a cluster like `env`. */
export function replaySync(index: ObjectIndex, env: SyncEnvironment = DEFAULT_ENVIRONMENT): SyncProblem[] {
    const problems: SyncProblem[] = [];
    const needs = new Map(index.objects.map((o) => [o, needsOf(o, index)]));
    const productions: Production[] = [...productionsOf(index), ...servingProductions(index, (o) => needs.get(o)!)];
    const byMade = new Map<string, Production[]>();
    for (const p of productions) byMade.set(refKey(p.makes), [...(byMade.get(refKey(p.makes)) ?? []), p]);

    const present = new Map<string, Arrival | "cluster">();
    for (const ns of env.namespaces) {
        present.set(refKey({ group: "", kind: "Namespace", name: ns }), "cluster");
        present.set(refKey({ group: "", kind: "ServiceAccount", namespace: ns, name: "default" }), "cluster");
    }
    for (const k of env.kinds) present.set(refKey(kindServed(k.split("/")[0]!, k.split("/")[1]!)), "cluster");
    for (const ref of env.objects ?? []) present.set(refKey(ref), "cluster");
    const healthy = new Set<SyncObject>();
    const applied = new Set<SyncObject>();
    const arrivals = new Map<SyncObject, Arrival>();
    const renderObject = (ref: Ref) => (ref.group === CONDITION_GROUP ? undefined : index.get(ref));
    // A need on an object Argo CD assesses is met once that object is healthy, on anything else once it exists.
    const satisfied = (ref: Ref) => {
        if (!present.has(refKey(ref))) return false;
        const o = renderObject(ref);
        return !o || !applied.has(o) || healthy.has(o) || !waitsForHealth(o);
    };
    // Which Fail webhooks catch each object, and each workload's pods, whether or not they are applied yet.
    const catches = new Map(index.objects.map((o) => [o, failWebhooksFor(o.object, index)]));
    const catchesPods = new Map(index.objects.map((o) => {
        const pod = podOf(o);
        return [o, pod ? failWebhooksFor(pod, index) : []];
    }));
    const podsAdmitted = (o: SyncObject) => catchesPods.get(o)!.every((w) => !applied.has(w.config) || present.has(refKey(w.serving)));

    const settle = () => {
        for (let changed = true; changed; ) {
            changed = false;
            for (const p of productions) {
                if (present.has(refKey(p.makes)) || !applied.has(p.from)) continue;
                if (p.controller && !healthy.has(p.controller)) continue;
                if (!p.needs.every((n) => satisfied(n.ref))) continue;
                present.set(refKey(p.makes), arrivals.get(p.from)!);
                changed = true;
            }
            for (const o of applied) {
                if (healthy.has(o)) continue;
                const ready = !waitsForHealth(o) || (needs.get(o)!.every((n) => n.when !== "run" || satisfied(n.ref)) && podsAdmitted(o));
                if (ready) {
                    healthy.add(o);
                    changed = true;
                }
            }
        }
    };
    /** Where a need would come from, for a message: the first wave its object or its production's source is in. */
    const origin = (ref: Ref, seen = new Set<string>()): string => {
        const key = refKey(ref);
        if (seen.has(key)) return "(a cycle)";
        seen.add(key);
        const o = renderObject(ref);
        if (o) return o.phases.length ? `${describeRef(ref)}, which comes in ${at({ phase: o.phases[0]!, wave: o.wave })}` : `${describeRef(ref)}, which no sync applies`;
        const made = byMade.get(key) ?? [];
        if (made.length === 0) return `${describeRef(ref)}, which nothing in the render or on the cluster provides`;
        const p = [...made].sort((a, b) => step(first(a.from)) - step(first(b.from)))[0]!;
        const blocker = p.controller && !healthy.has(p.controller) ? ` once ${describeRef(p.controller.ref)} is healthy` : "";
        const pending = p.needs.find((n) => !satisfied(n.ref));
        return `${describeRef(ref)}, which ${p.by} makes from ${describeRef(p.from.ref)} (${at(first(p.from))})${blocker}${pending ? `, after ${origin(pending.ref, seen)}` : ""}`;
    };
    const first = (o: SyncObject): Arrival => arrivals.get(o) ?? { phase: o.phases[0] ?? "PostSync", wave: o.wave };
    const ruleFor = (ref: Ref, now: Arrival): SyncRule => {
        const o = renderObject(ref);
        const sources = o ? [o] : (byMade.get(refKey(ref)) ?? []).map((p) => p.from);
        return sources.some((s) => s.phases.length > 0 && step(first(s)) > step(now)) ? "waits-later" : "waits-never";
    };

    for (const phase of PHASES) {
        const inPhase = index.objects.filter((o) => o.phases.includes(phase));
        for (const wave of [...new Set(inPhase.map((o) => o.wave))].sort((a, b) => a - b)) {
            const now: Arrival = { phase, wave };
            const tasks = inPhase.filter((o) => o.wave === wave).sort(argoOrder);
            for (const o of tasks) arrivals.set(o, now);
            // Argo CD applies one kind at a time; the objects of one kind go in parallel.
            for (let i = 0; i < tasks.length; ) {
                const kind = tasks[i]!.object.kind;
                const group: SyncObject[] = [];
                while (i < tasks.length && tasks[i]!.object.kind === kind) group.push(tasks[i++]!);
                for (const o of group) {
                    for (const n of needs.get(o)!.filter((x) => x.when === "apply")) {
                        if (!present.has(refKey(n.ref))) problems.push({ rule: applyRule(n), file: o.file, message: `${describeRef(o.ref)} (${at(now)}) is refused by the API server: ${n.why} is not there yet; it is ${origin(n.ref)}` });
                    }
                    for (const w of catches.get(o)!) {
                        if (applied.has(w.config) && !present.has(refKey(w.serving))) {
                            problems.push({ rule: "webhook-refuses", file: o.file, message: `${describeRef(o.ref)} (${at(now)}) is refused: webhook ${w.name} of ${describeRef(w.config.ref)} (failurePolicy Fail) intercepts it and cannot answer yet; it needs ${origin(w.serving)}` });
                        }
                    }
                }
                for (const o of group) {
                    applied.add(o);
                    present.set(refKey(o.ref), now);
                    for (const p of productions) if (p.atApply && p.from === o) present.set(refKey(p.makes), now);
                }
            }
            settle();
            for (const o of tasks) {
                if (healthy.has(o)) continue;
                const unmet = needs.get(o)!.filter((n) => n.when === "run" && !satisfied(n.ref));
                const pods = podsAdmitted(o) ? [] : ["its pods are refused by a Fail webhook that cannot answer yet"];
                const rule = unmet.length ? (unmet.some((n) => ruleFor(n.ref, now) === "waits-never") ? "waits-never" : "waits-later") : "webhook-refuses";
                const reasons = [...unmet.map((n) => `${n.why} needs ${origin(n.ref)}`), ...pods];
                problems.push({ rule, file: o.file, message: `${describeRef(o.ref)} (${at(now)}) never becomes healthy, so the sync stops there: ${reasons.join("; ")}` });
                // Taken as healthy from here on, so that one stall does not hide the problems after it.
                healthy.add(o);
            }
            settle();
            for (const o of tasks.filter(isWebhookConfig)) {
                for (const w of servingOf(o, productions)) {
                    if (!present.has(refKey(w.serving))) {
                        problems.push({ rule: "webhook-unready", file: o.file, message: `${describeRef(o.ref)} (${at(now)}): webhook ${w.name} (failurePolicy Fail) cannot answer by the end of its wave, so it refuses what it intercepts until ${origin(w.serving)}` });
                    }
                }
            }
        }
    }
    return problems;
}

/** The `Fail` webhooks of one configuration, with the condition that each answers. */
function servingOf(config: SyncObject, productions: readonly Production[]) {
    return productions.filter((p) => p.from === config && p.makes.kind === "WebhookServing").map((p) => ({ config, name: p.makes.name.split("/").at(-1)!, serving: p.makes }));
}

function applyRule(n: Need): SyncRule {
    if (n.ref.group === "" && n.ref.kind === "Namespace") return "apply-namespace";
    if (n.ref.group === CONDITION_GROUP && n.ref.kind === "KindServed") return "apply-kind";
    return "apply-order";
}
