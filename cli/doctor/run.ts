/**
 * `mara doctor`'s checks in order: access first (nothing else can be asked of a cluster that does not answer or
 * refuses the credentials), then the distribution and what follows from it, conflicts, permissions and capacity,
 * which are independent and asked at the same time. Every check only reads: GETs, and the two review APIs, which
 * store nothing.
 */
import { checkAccess } from "./access";
import { checkAdmission } from "./admission";
import { checkCapacity } from "./capacity";
import { checkConflicts } from "./conflicts";
import { checkDistribution, Distribution } from "./distribution";
import type { Finding } from "./findings";
import type { KubeClient } from "./kubeClient";
import { checkPermissions } from "./permissions";
import type { DoctorPlan } from "./plan";

/** What one run found. */
export interface DoctorResult {
    readonly server: string;
    readonly context: string;
    readonly reachable: boolean;
    readonly distribution?: Distribution;
    readonly version?: string;
    readonly findings: readonly Finding[];
    readonly seconds: number;
}

/** A check that threw (an API error other than the ones it expects) becomes a `warn` naming what could not be read. */
async function guarded(group: Finding["group"], id: string, title: string, run: () => Promise<Finding[]>): Promise<Finding[]> {
    try {
        return await run();
    } catch (e) {
        return [{ id, group, title, verdict: "warn", detail: `could not be checked: ${(e as Error).message}`, fix: "check that the kubeconfig's user may read this (kubectl auth can-i list <resource> -A), then run mara doctor again" }];
    }
}

/**
 * Runs every check against the cluster `client` reaches.
 *
 * @param today - the day the Kubernetes support calendar is read for; credentials expire by the real clock.
 */
export async function runDoctor(client: KubeClient, plan: DoctorPlan, today: Date = new Date()): Promise<DoctorResult> {
    const started = Date.now();
    const access = await checkAccess(client, new Date(), today);
    const base = { server: client.server, context: client.context };
    if (!access.reachable || !access.version) {
        const skipped: Finding[] = (["distribution", "conflicts", "permissions", "capacity"] as const).map((group) => ({
            id: group,
            group,
            title: group[0]!.toUpperCase() + group.slice(1),
            verdict: "skip",
            detail: "not checked: the cluster could not be reached with these credentials",
        }));
        return { ...base, reachable: false, findings: [...access.findings, ...skipped], seconds: (Date.now() - started) / 1000 };
    }
    const version = access.version;
    let distribution: Distribution | undefined;
    const [dist, conflicts, permissions, admission] = await Promise.all([
        (async () => {
            try {
                const d = await checkDistribution(client, version, plan);
                distribution = d.distribution;
                const capacity = await guarded("capacity", "capacity", "Room for the platform's requests", async () => [await checkCapacity(client, d.nodes, plan)]);
                return [...d.findings, ...capacity];
            } catch (e) {
                return [{ id: "distribution", group: "distribution" as const, title: "Distribution", verdict: "warn" as const, detail: `could not be checked: ${(e as Error).message}`, fix: "check that the kubeconfig's user may list nodes, StorageClasses and Services" }];
            }
        })(),
        guarded("conflicts", "conflicts", "No conflicting installations", () => checkConflicts(client, plan)),
        guarded("permissions", "permissions", "Permission for everything the program creates", () => checkPermissions(client, plan)),
        guarded("conflicts", "admission-policies", "The admission policies on this cluster", () => checkAdmission(client, plan, version)),
    ]);
    const findings = [...access.findings, ...dist.filter((x) => x.group !== "capacity"), ...admission.filter((x) => x.group === "distribution"), ...conflicts, ...admission.filter((x) => x.group !== "distribution"), ...permissions, ...dist.filter((x) => x.group === "capacity")];
    return { ...base, reachable: true, distribution, version: version.gitVersion, findings, seconds: (Date.now() - started) / 1000 };
}
