/**
 * Whether the kubeconfig's user may do everything the program does: one SelfSubjectAccessReview per verb, resource
 * and namespace (cluster-scoped ones without a namespace), asked of the API server itself, so whatever authorizes
 * there (RBAC, a webhook, Node) gives the answer. What is missing is listed, grouped, with the RBAC rule to add.
 */
import type { Finding } from "./findings";
import { inBatches, KubeClient } from "./kubeClient";
import type { DoctorPlan } from "./plan";
import { AccessRule, clusterRules, namespacedRules } from "./requiredAccess";

/** Questions in flight at once: fast on a real cluster, gentle on its API server. */
const PARALLEL = 16;

interface Question {
    readonly namespace?: string;
    readonly rule: AccessRule;
    readonly verb: string;
}

const resourceName = (rule: AccessRule) => (rule.group ? `${rule.resource}.${rule.group}` : rule.resource);

/** Asks about every rule and reports what is denied. */
export async function checkPermissions(client: KubeClient, plan: DoctorPlan): Promise<Finding[]> {
    const questions: Question[] = [
        ...clusterRules(plan).flatMap((rule) => rule.verbs.map((verb) => ({ rule, verb }))),
        ...namespacedRules(plan).flatMap(({ namespace, rules }) => rules.flatMap((rule) => rule.verbs.map((verb) => ({ namespace, rule, verb })))),
    ];
    const answers = await inBatches(questions, PARALLEL, async (q) => {
        const review = await client.post<{ status?: { allowed?: boolean } }>("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", {
            apiVersion: "authorization.k8s.io/v1",
            kind: "SelfSubjectAccessReview",
            spec: { resourceAttributes: { group: q.rule.group, resource: q.rule.resource, verb: q.verb, ...(q.namespace ? { namespace: q.namespace } : {}) } },
        });
        return review?.status?.allowed === true;
    });
    const denied = questions.filter((_, i) => !answers[i]);
    const title = "Permission for everything the program creates";
    if (!denied.length) {
        return [{ id: "permissions", group: "permissions", title, verdict: "pass", detail: `all ${questions.length} access reviews allowed (${clusterRules(plan).length} cluster-scoped resources, ${namespacedRules(plan).length} namespaces)` }];
    }
    // One line per resource and place, with its missing verbs.
    const lines = new Map<string, string[]>();
    for (const q of denied) {
        const key = `${resourceName(q.rule)} ${q.namespace ? `in namespace ${q.namespace}` : "(cluster-scoped)"}`;
        lines.set(key, [...(lines.get(key) ?? []), q.verb]);
    }
    const missing = [...lines.entries()].map(([what, verbs]) => `${verbs.join(", ")} ${what}`);
    return [
        {
            id: "permissions",
            group: "permissions",
            title,
            verdict: "fail",
            detail: `${denied.length} of ${questions.length} access reviews denied, on ${missing.length} resource${missing.length === 1 ? "" : "s"}`,
            items: missing,
            fix: "deploy with a kubeconfig whose user is a cluster administrator (the platform installs CRDs, ClusterRoles and webhooks), or grant the missing verbs with a ClusterRole and ClusterRoleBinding; check one with: kubectl auth can-i <verb> <resource> -n <namespace>",
        },
    ];
}
