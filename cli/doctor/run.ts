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
import { isKubeApiError, KubeClient } from "./kubeClient";
import { checkPermissions } from "./permissions";
import type { DoctorPlan } from "./plan";

/**
 * The most one run may take, whatever the cluster does: every request and the credential plugin end by then, and
 * the checks still waiting report that the bound ran out.
 */
export const DOCTOR_BOUND_MS = 60_000;

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

/**
 * Why a check could not finish, in words: the API error's own message (which names the request and what failed), or,
 * for an answer the check could not read (a field of the wrong type deep in an object), that — never JavaScript's
 * own error text.
 */
function notChecked(e: unknown, fix: string): { verdict: "warn" | "fail"; detail: string; fix: string } {
    if (isKubeApiError(e)) {
        // A cluster that stops answering, or answers garbage, halfway through would fail `pulumi up` the same way: a
        // failure. Being forbidden to read something only leaves the check undone: a warning.
        const broken = e.kind !== "http" || e.status >= 500;
        return { verdict: broken ? "fail" : "warn", detail: `could not be checked: ${e.message}`, fix: e.fix ?? (e.status === 403 || e.status === 401 ? fix : "run mara doctor again; if it fails the same way, check the API server's health: kubectl get --raw '/readyz?verbose'") };
    }
    return { verdict: "warn", detail: "could not be checked: an answer of the API server is not shaped as this check expects Kubernetes objects to be", fix: "check that the kubeconfig points at a Kubernetes API server (kubectl get --raw /version), then run mara doctor again" };
}

/** A check that threw becomes a warning naming what could not be read, or a failure when the cluster broke down meanwhile. */
async function guarded(group: Finding["group"], id: string, title: string, run: () => Promise<Finding[]>): Promise<Finding[]> {
    try {
        return await run();
    } catch (e) {
        return [{ id, group, title, ...notChecked(e, "check that the kubeconfig's user may read this (kubectl auth can-i list <resource> -A), then run mara doctor again") }];
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
                return [{ id: "distribution", group: "distribution" as const, title: "Distribution", ...notChecked(e, "check that the kubeconfig's user may list nodes, StorageClasses and Services") }];
            }
        })(),
        guarded("conflicts", "conflicts", "No conflicting installations", () => checkConflicts(client, plan)),
        guarded("permissions", "permissions", "Permission for everything the program creates", () => checkPermissions(client, plan)),
        guarded("conflicts", "admission-policies", "The admission policies on this cluster", () => checkAdmission(client, plan, version)),
    ]);
    const findings = [...access.findings, ...dist.filter((x) => x.group !== "capacity"), ...admission.filter((x) => x.group === "distribution"), ...conflicts, ...admission.filter((x) => x.group !== "distribution"), ...permissions, ...dist.filter((x) => x.group === "capacity")];
    return { ...base, reachable: true, distribution, version: version.gitVersion, findings, seconds: (Date.now() - started) / 1000 };
}
