/**
 * A pod in the node's network, process or IPC namespace sees every other pod's traffic or processes on that node
 * and bypasses NetworkPolicies.
 */
import type { KubernetesRule } from "../rule";
import { deployment, GOOD_CONTAINER, pod } from "./examples";
import { podSpecOf, WORKLOAD_VARIABLES, WORKLOADS } from "./workloads";
import { KUBE_SYSTEM, NODE_EXPORTER } from "./exemptions";

const FIELDS = ["hostNetwork", "hostPID", "hostIPC"] as const;

export const hostNamespaces: KubernetesRule = {
    kind: "kubernetes",
    id: "no-host-namespaces",
    description: "No pod shares the node's network, process or IPC namespace (hostNetwork, hostPID, hostIPC).",
    level: "mandatory",
    settings: {},
    targets: WORKLOADS,
    check: (o) => {
        const spec = podSpecOf(o);
        return FIELDS.filter((f) => spec?.[f] === true).map((f) => `the pod sets ${f}: true`);
    },
    admission: {
        variables: WORKLOAD_VARIABLES,
        validations: [
            {
                expression: FIELDS.map((f) => `(!has(variables.podSpec.${f}) || !variables.podSpec.${f})`).join(" && "),
                message: "pods may not set hostNetwork, hostPID or hostIPC",
            },
        ],
    },
    exemptions: [KUBE_SYSTEM, NODE_EXPORTER],
    examples: {
        pass: [deployment({ containers: [GOOD_CONTAINER], hostNetwork: false }), pod({ containers: [GOOD_CONTAINER] })],
        fail: [deployment({ containers: [GOOD_CONTAINER], hostNetwork: true }), pod({ containers: [GOOD_CONTAINER], hostPID: true }), pod({ containers: [GOOD_CONTAINER], hostIPC: true })],
    },
};
