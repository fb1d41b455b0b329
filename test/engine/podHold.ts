/**
 * A hold on the creation of pods, for tests that aim a fault (a kill, a Ctrl-C, an API server outage) at a window
 * while something waits for pods: the hold keeps the window open until the fault, whatever the machine's load.
 */
import { ApiEndpoint, ApiError, request, waitFor } from "./kubeApi";

/** What the hold's policy says when it refuses a pod. */
const HELD = "held by the test until its kill";

/**
 * Holds back the creation of pods in `namespace` (those `labels` select, owned by a `ownerKind`): an admission policy
 * named `name` refuses them, so whatever waits for them (the engine for a StatefulSet's replicas, `helm install
 * --wait` for a release's Deployment) stays under way for as long as the hold lasts. A kill aimed at such a window
 * then cannot miss it: at the pace pods start on this tier a StatefulSet or a small release is ready within a second
 * or two, and kill 1, aimed at that alone, once missed it on a loaded machine. A controller still does what comes
 * before each pod (the StatefulSet controller makes the pod's claim first). Returns the release of the hold, after
 * which the controller creates the pods at once (the `ownerKind` objects in `namespace` are nudged).
 */
export async function holdPods(cluster: ApiEndpoint, name: string, namespace: string, ownerKind: string, labels: Record<string, string> = {}): Promise<() => Promise<void>> {
    const admission = "/apis/admissionregistration.k8s.io/v1";
    await request(cluster, "POST", `${admission}/validatingadmissionpolicies`, {
        apiVersion: "admissionregistration.k8s.io/v1",
        kind: "ValidatingAdmissionPolicy",
        metadata: { name },
        spec: {
            failurePolicy: "Fail",
            matchConstraints: {
                namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": namespace } },
                objectSelector: { matchLabels: labels },
                resourceRules: [{ apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["pods"] }],
            },
            validations: [{ expression: `!has(object.metadata.ownerReferences) || !object.metadata.ownerReferences.exists(r, r.kind == '${ownerKind}')`, message: HELD }],
        },
    });
    await request(cluster, "POST", `${admission}/validatingadmissionpolicybindings`, {
        apiVersion: "admissionregistration.k8s.io/v1",
        kind: "ValidatingAdmissionPolicyBinding",
        metadata: { name },
        spec: { policyName: name, validationActions: ["Deny"] },
    });
    return async () => {
        await request(cluster, "DELETE", `${admission}/validatingadmissionpolicybindings/${name}`);
        await request(cluster, "DELETE", `${admission}/validatingadmissionpolicies/${name}`);
        // The API server enforces policies from a cache that catches up with a deletion a moment later: until a pod
        // the hold matched passes admission (a dry run, nothing is created), a controller's retry would still be
        // refused, and its next retry put off further.
        await waitFor(
            `the hold ${name} to be lifted`,
            async () => {
                const probe = {
                    apiVersion: "v1",
                    kind: "Pod",
                    metadata: { generateName: "hold-probe-", labels, ownerReferences: [{ apiVersion: "apps/v1", kind: ownerKind, name: "hold-probe", uid: "00000000-0000-0000-0000-000000000000" }] },
                    spec: { containers: [{ name: "probe", image: "probe" }] },
                };
                try {
                    await request(cluster, "POST", `/api/v1/namespaces/${namespace}/pods?dryRun=All`, probe);
                    return true;
                } catch (e) {
                    // Refused for another reason (the namespace's Pod Security level): the hold no longer speaks.
                    return e instanceof ApiError && !e.message.includes(HELD) ? true : undefined;
                }
            },
            60_000,
            250,
        );
        // Each refused pod was a failed sync, retried after a delay that doubles with each failure (the
        // controller-manager's default rate limiter, up to 1000 s): after a hold of minutes the next retry could be
        // minutes away. A change to the owner is an event the controller syncs at once; an annotation set and
        // removed leaves the object as it was.
        const owners = `/apis/apps/v1/namespaces/${namespace}/${ownerKind.toLowerCase()}s`;
        for (const owner of (await request<{ items: any[] }>(cluster, "GET", owners)).items) {
            for (const value of [String(Date.now()), null]) {
                await request(cluster, "PATCH", `${owners}/${owner.metadata.name}`, { metadata: { annotations: { "engine.test/hold-released": value } } }, "application/merge-patch+json");
            }
        }
    };
}
