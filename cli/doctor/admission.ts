/**
 * The admission policies against the cluster, where the stack installs them (`mara:admissionPolicies`):
 * - whether the API server serves `admissionregistration.k8s.io/v1` ValidatingAdmissionPolicy (Kubernetes 1.30 or
 *   later; an older one refuses the policies half-way through `up`);
 * - what they would refuse of other teams' objects. In deny mode a binding refuses every CREATE and UPDATE of an
 *   object that breaks a mandatory rule, so an existing object that breaks one cannot be changed any more, and its
 *   pods are refused when they are recreated. The platform's scope (`mara:admissionPolicyScope platform`, the default
 *   on an existing cluster) judges only the platform's namespaces; this check lists, capped, what the whole cluster's
 *   scope would refuse today, so choosing it is an informed choice. Objects a controller owns (a Deployment's
 *   ReplicaSets and pods) are left to their owner, which is listed.
 * Each rule is judged by its JavaScript side (policy/kubernetes), which test/engine/admission.test.ts holds equal to
 * the CEL the API server runs.
 */
import { ADMISSION_POLICY_MIN_MINOR, PLATFORM_PART_OF } from "../../contracts";
import { FLUENT_BIT_PATHS } from "../../policy/kubernetes/hostPath";
import { resolveRule } from "../../policy/config";
import { KUBERNETES_RULES } from "../../policy/kubernetes";
import type { KubeObject, KubernetesRule, KubernetesTarget } from "../../policy/rule";
import type { ServerVersion } from "./access";
import type { Finding } from "./findings";
import { inBatches, isKubeApiError, type KubeClient } from "./kubeClient";
import type { DoctorPlan } from "./plan";

/** Objects read per kind: a bound on the bytes and the time, whatever the cluster holds. */
export const LIST_LIMIT = 500;
/** Objects named in the finding; the rest are counted. */
export const SHOWN = 20;

/** The API version each group's kinds are read at. */
const GROUP_VERSIONS: Readonly<Record<string, string>> = { "": "v1", apps: "v1", batch: "v1", "networking.k8s.io": "v1", "storage.k8s.io": "v1" };

/** Runs both checks; none when the stack installs no admission policies. */
export async function checkAdmission(client: KubeClient, plan: DoctorPlan, version: ServerVersion): Promise<Finding[]> {
    if (!plan.admissionPolicies || !plan.admissionMode) return [];
    const served = await servesPolicies(client);
    const api: Finding = served
        ? { id: "admission-policies-api", group: "distribution", title: "ValidatingAdmissionPolicy served", verdict: "pass", detail: `the API server (${version.gitVersion}) serves admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy` }
        : {
              id: "admission-policies-api",
              group: "distribution",
              title: "ValidatingAdmissionPolicy served",
              verdict: "fail",
              detail: `the API server (${version.gitVersion}) does not serve admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy, which mara:admissionPolicies installs: it is served from Kubernetes ${ADMISSION_POLICY_MIN_MINOR} on, and the program would fail at the first policy`,
              fix: `upgrade the cluster to Kubernetes ${ADMISSION_POLICY_MIN_MINOR} or later, or pulumi config set mara:admissionPolicies none`,
          };
    return [api, await scopeFinding(client, plan)];
}

async function servesPolicies(client: KubeClient): Promise<boolean> {
    const group = await client.find<{ resources?: { name?: string }[] }>("/apis/admissionregistration.k8s.io/v1");
    return (group?.resources ?? []).some((r) => r.name === "validatingadmissionpolicies");
}

/** One object a deny-mode policy would refuse, for the finding's items. */
interface Refused {
    readonly where: string;
    readonly rule: string;
    readonly why: string;
}

/** What the whole cluster's scope would refuse of objects outside the platform, and what the chosen scope does. */
async function scopeFinding(client: KubeClient, plan: DoctorPlan): Promise<Finding> {
    const { refused, truncated, unreadable } = await refusedOutside(client, plan);
    const count = `${truncated.length > 0 ? "at least " : ""}${refused.length} object${refused.length === 1 ? "" : "s"}`;
    const items = [
        ...refused.slice(0, SHOWN).map((r) => `${r.where} [${r.rule}]: ${r.why}`),
        ...(refused.length > SHOWN ? [`... and ${refused.length - SHOWN} more`] : []),
        ...(truncated.length > 0 ? [`only the first ${LIST_LIMIT} of each of ${truncated.join(", ")} were read`] : []),
        ...(unreadable.length > 0 ? [`not readable with these credentials: ${unreadable.join(", ")}`] : []),
    ];
    const base = { id: "admission-policy-scope", group: "conflicts" as const, title: "What the admission policies would refuse of other teams' objects", ...(items.length > 0 ? { items } : {}) };
    const outside = "outside the platform's namespaces (and cluster-scoped objects without its label)";
    if (plan.admissionScope === "cluster" && plan.admissionMode === "deny" && refused.length > 0) {
        return {
            ...base,
            verdict: "warn",
            detail: `${count} ${outside} break a mandatory rule: with mara:admissionPolicyScope cluster in deny mode, the API server will refuse their next update, and their pods when they are recreated`,
            fix: "pulumi config set mara:admissionPolicyScope platform (the platform's namespaces only), or mara:admissionPolicies warn; or bring those objects into line with the rules (docs/policy.md)",
        };
    }
    if (plan.admissionScope === "cluster") {
        const effect = plan.admissionMode === "deny" ? "nothing to refuse today" : plan.admissionMode === "warn" ? "warned about at their next update, not refused" : "recorded in the audit log at their next update, not refused";
        return { ...base, verdict: "pass", detail: `${count} ${outside} break a mandatory rule: with mara:admissionPolicyScope cluster they are ${refused.length === 0 ? "none, so there is " : ""}${effect}` };
    }
    return {
        ...base,
        verdict: "pass",
        detail:
            refused.length === 0
                ? `no object ${outside} breaks a mandatory rule: a cluster-wide scope (mara:admissionPolicyScope cluster) in deny mode would refuse nothing today`
                : `the policies judge only the platform's namespaces; ${count} ${outside} break a mandatory rule, and a cluster-wide scope (mara:admissionPolicyScope cluster) in deny mode would refuse their next update`,
    };
}

/** Lists each kind the rules judge (at most {@link LIST_LIMIT} each) and judges what is outside the platform. */
async function refusedOutside(client: KubeClient, plan: DoctorPlan): Promise<{ refused: Refused[]; truncated: string[]; unreadable: string[] }> {
    // The settings the platform's policies get: each rule's defaults, the host-path rule allowing Fluent Bit's paths
    // and the log path the stack sets (components/platform.ts allows exactly this cluster's; this list adds Docker's,
    // so it may list a little less, never more), at the levels deny mode refuses. Loading the log agent's component
    // for its exact paths would load the Kubernetes SDK into the doctor.
    const config = { "host-path-allow-list": { allowedPaths: [...new Set([...FLUENT_BIT_PATHS, ...(plan.containerLogPath ? [plan.containerLogPath] : [])])] } };
    const rules = KUBERNETES_RULES.map((rule) => ({ rule, ...resolveRule<Record<string, unknown>>(rule, config) })).filter((r) => r.level === "mandatory");
    const targets = [...new Map(rules.flatMap((r) => r.rule.targets).map((t) => [`${t.group}/${t.resource}`, t])).values()];
    const platform = new Set(plan.namespaces);
    const refused: Refused[] = [];
    const truncated: string[] = [];
    const unreadable: string[] = [];
    await inBatches(targets, 4, async (t) => {
        const list = await listKind(client, t);
        if (list === "forbidden") return void unreadable.push(t.resource);
        if (list.truncated) truncated.push(t.resource);
        for (const item of list.items) {
            const o: KubeObject = { ...item, apiVersion: t.group ? `${t.group}/${GROUP_VERSIONS[t.group]}` : "v1", kind: t.kind };
            if (isPlatforms(o, t, platform) || ownedByController(o)) continue;
            for (const { rule, settings } of rules) {
                if (!judges(rule, t, o)) continue;
                const why = rule.check(o, settings)[0];
                if (why) refused.push({ where: `${t.clusterScoped ? "" : `${o.metadata?.namespace}/`}${t.kind} ${o.metadata?.name}`, rule: rule.id, why });
            }
        }
    });
    refused.sort((a, b) => a.where.localeCompare(b.where) || a.rule.localeCompare(b.rule));
    return { refused, truncated: truncated.sort(), unreadable: unreadable.sort() };
}

async function listKind(client: KubeClient, t: KubernetesTarget): Promise<{ items: KubeObject[]; truncated: boolean } | "forbidden"> {
    const path = `${t.group ? `/apis/${t.group}/${GROUP_VERSIONS[t.group]}` : "/api/v1"}/${t.resource}?limit=${LIST_LIMIT}`;
    try {
        const list = await client.find<{ items?: KubeObject[]; metadata?: { continue?: string } }>(path);
        return { items: list?.items ?? [], truncated: Boolean(list?.metadata?.continue) };
    } catch (e) {
        if (isKubeApiError(e) && (e.status === 403 || e.status === 401)) return "forbidden";
        throw e;
    }
}

/** The platform's own: in one of its namespaces, or cluster-scoped with its label (what the platform scope judges). */
function isPlatforms(o: KubeObject, t: KubernetesTarget, platform: ReadonlySet<string>): boolean {
    if (t.clusterScoped) return o.metadata?.labels?.[PLATFORM_PART_OF.key] === PLATFORM_PART_OF.value;
    return platform.has(o.metadata?.namespace ?? "default");
}

const ownedByController = (o: KubeObject) => ((o.metadata as { ownerReferences?: { controller?: boolean }[] } | undefined)?.ownerReferences ?? []).some((r) => r.controller === true);

/** Whether `rule` judges `o` of kind `t`: it targets the kind, and its binding does not leave the namespace out. */
function judges(rule: KubernetesRule<unknown>, t: KubernetesTarget, o: KubeObject): boolean {
    if (!rule.targets.some((x) => x.group === t.group && x.resource === t.resource)) return false;
    return t.clusterScoped || !(rule.exemptions ?? []).some((e) => e.namespace === o.metadata?.namespace);
}
