/**
 * Whether the platform fits: the sum of its pods' CPU and memory requests against what the schedulable nodes have
 * left (allocatable minus the requests of the pods already running), and whether its largest pod fits on any one
 * node. On a small cluster the scheduler leaves pods Pending and Helm's wait runs out (MARA's Elasticsearch did
 * exactly that); this says so before the deploy, naming the largest consumers.
 */
import type { NodeInfo } from "./distribution";
import type { Finding } from "./findings";
import type { KubeClient } from "./kubeClient";
import type { Consumer, DoctorPlan } from "./plan";

/** Above this share of what is free, the platform fits but leaves little for the nodes' own daemons and growth. */
export const TIGHT_SHARE = 0.85;

/** A Kubernetes CPU quantity in millicores. */
export function cpuMillis(q: string | undefined): number {
    if (!q) return 0;
    if (q.endsWith("m")) return Number(q.slice(0, -1));
    return Math.round(Number(q) * 1000);
}

const UNITS: Record<string, number> = { Ki: 1 / 1024, Mi: 1, Gi: 1024, Ti: 1024 * 1024, k: 1000 / 1048576, M: 1e6 / 1048576, G: 1e9 / 1048576, T: 1e12 / 1048576 };

/** A Kubernetes memory quantity in MiB. */
export function memoryMi(q: string | undefined): number {
    if (!q) return 0;
    const m = /^(\d+(?:\.\d+)?)([KMGT]i?|k)?$/.exec(q);
    if (!m) return 0;
    return m[2] ? Number(m[1]) * UNITS[m[2]]! : Number(m[1]) / 1048576;
}

interface PodInfo {
    metadata: { namespace: string };
    spec?: { nodeName?: string; containers?: { resources?: { requests?: Record<string, string> } }[] };
    status?: { phase?: string };
}

const fmtCpu = (m: number) => `${(m / 1000).toFixed(m % 1000 === 0 ? 0 : 2)} CPU`;
const fmtMem = (mi: number) => (mi >= 1024 ? `${(mi / 1024).toFixed(1)} GiB` : `${Math.round(mi)} MiB`);

/** Schedulable for the platform: not cordoned, and not tainted NoSchedule/NoExecute (control-plane nodes usually are). */
function schedulable(n: NodeInfo): boolean {
    return !n.spec?.unschedulable && !(n.spec?.taints ?? []).some((t) => t.effect === "NoSchedule" || t.effect === "NoExecute");
}

/** Runs the capacity check. */
export async function checkCapacity(client: KubeClient, nodes: readonly NodeInfo[], plan: DoctorPlan): Promise<Finding> {
    const pods = await client.get<{ items: PodInfo[] }>("/api/v1/pods?fieldSelector=status.phase%21%3DSucceeded%2Cstatus.phase%21%3DFailed");
    const ours = new Set(plan.namespaces);
    const usable = nodes.filter(schedulable);
    // Free per node: allocatable minus what others' pods request there (the platform's own pods are counted in the plan).
    const free = usable.map((n) => {
        const on = pods.items.filter((p) => p.spec?.nodeName === n.metadata.name && !ours.has(p.metadata.namespace));
        const used = on.flatMap((p) => p.spec?.containers ?? []).map((c) => c.resources?.requests ?? {});
        return {
            name: n.metadata.name,
            cpu: cpuMillis(n.status?.allocatable?.cpu) - used.reduce((s, r) => s + cpuMillis(r.cpu), 0),
            memory: memoryMi(n.status?.allocatable?.memory) - used.reduce((s, r) => s + memoryMi(r.memory), 0),
        };
    });
    const total = { cpu: free.reduce((s, n) => s + Math.max(0, n.cpu), 0), memory: free.reduce((s, n) => s + Math.max(0, n.memory), 0) };
    const need = {
        cpu: plan.consumers.reduce((s, c) => s + c.pods * c.cpuMillis, 0),
        memory: plan.consumers.reduce((s, c) => s + c.pods * c.memoryMi, 0),
    };
    const largest = [...plan.consumers].sort((a, b) => b.pods * b.memoryMi - a.pods * a.memoryMi || b.pods * b.cpuMillis - a.pods * a.cpuMillis).slice(0, 5);
    const items = largest.map((c: Consumer) => `${c.what}${c.pods > 1 ? ` ×${c.pods}` : ""}: ${fmtCpu(c.cpuMillis * c.pods)}, ${fmtMem(c.memoryMi * c.pods)}`);
    const title = "Room for the platform's requests";
    const summary = `the platform requests ${fmtCpu(need.cpu)} and ${fmtMem(need.memory)}; ${usable.length} schedulable node${usable.length === 1 ? "" : "s"} have ${fmtCpu(total.cpu)} and ${fmtMem(total.memory)} free`;
    const fix = "add nodes or larger ones, or run fewer Elasticsearch nodes: pulumi config set mara:logstoreIngestReplicas 0; pulumi config set mara:logstoreCoordinatingReplicas 0 (the master and data nodes then do their work)";
    const result = (verdict: Finding["verdict"], detail: string, withFix = true): Finding => ({ id: "capacity", group: "capacity", title, verdict, detail, items, ...(withFix ? { fix } : {}) });
    if (!usable.length) return result("fail", `no node accepts ordinary pods (all are cordoned or tainted NoSchedule); ${summary}`);
    const short = [need.cpu > total.cpu ? `CPU short by ${fmtCpu(need.cpu - total.cpu)}` : "", need.memory > total.memory ? `memory short by ${fmtMem(need.memory - total.memory)}` : ""].filter(Boolean);
    if (short.length) return result("fail", `${summary}: ${short.join(", ")}; pods would stay Pending and Helm's wait run out`);
    const biggest = [...plan.consumers].sort((a, b) => b.memoryMi - a.memoryMi)[0];
    if (biggest && !free.some((n) => n.memory >= biggest.memoryMi && n.cpu >= biggest.cpuMillis)) {
        return result("fail", `${summary}, but no single node has ${fmtMem(biggest.memoryMi)} and ${fmtCpu(biggest.cpuMillis)} free for one ${biggest.what} pod`);
    }
    if (need.cpu > total.cpu * TIGHT_SHARE || need.memory > total.memory * TIGHT_SHARE) return result("warn", `${summary}: it fits, with little to spare`);
    return result("pass", summary, false);
}
