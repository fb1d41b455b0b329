/**
 * Requests let the scheduler place a pod where it fits; a memory limit keeps one pod's leak from taking the
 * node's memory from its neighbours. A CPU limit is not required: it throttles a pod even on an idle node.
 */
import type { KubernetesRule } from "../rule";
import { container, cronJob, deployment, GOOD_CONTAINER, pod } from "./examples";
import { Container, containerName, containersOf, WORKLOAD_VARIABLES, WORKLOADS } from "./workloads";
import { CHARTS_WITHOUT_RESOURCES, KUBE_SYSTEM } from "./exemptions";

const declared = (c: Container) =>
    c.resources?.requests?.cpu !== undefined && c.resources?.requests?.memory !== undefined && c.resources?.limits?.memory !== undefined;

export const containerResources: KubernetesRule = {
    kind: "kubernetes",
    id: "container-resources",
    description: "Every container and init container declares CPU and memory requests and a memory limit.",
    level: "mandatory",
    settings: {},
    targets: WORKLOADS,
    check: (o) =>
        containersOf(o)
            .filter((c) => !declared(c))
            .map((c) => `container ${containerName(c)} lacks ${missing(c).join(", ")}`),
    admission: {
        variables: WORKLOAD_VARIABLES,
        validations: [
            {
                expression:
                    "variables.containers.all(c, has(c.resources) && has(c.resources.requests) && 'cpu' in c.resources.requests && 'memory' in c.resources.requests && has(c.resources.limits) && 'memory' in c.resources.limits)",
                message: "every container and init container must declare resources.requests.cpu, resources.requests.memory and resources.limits.memory",
            },
        ],
    },
    exemptions: [KUBE_SYSTEM, ...CHARTS_WITHOUT_RESOURCES],
    examples: {
        pass: [
            deployment({ containers: [GOOD_CONTAINER], initContainers: [container({ name: "migrate" })] }),
            cronJob({ containers: [container({ resources: { requests: { cpu: "1", memory: "1Gi" }, limits: { memory: "1Gi", cpu: "2" } } })] }),
        ],
        fail: [
            deployment({ containers: [container({ resources: undefined })] }),
            pod({ containers: [container({ resources: { requests: { cpu: "100m", memory: "64Mi" } } })] }),
            deployment({ containers: [GOOD_CONTAINER], initContainers: [container({ name: "migrate", resources: { limits: { memory: "64Mi" } } })] }),
        ],
    },
};

function missing(c: Container): string[] {
    return [
        c.resources?.requests?.cpu === undefined ? "a CPU request" : undefined,
        c.resources?.requests?.memory === undefined ? "a memory request" : undefined,
        c.resources?.limits?.memory === undefined ? "a memory limit" : undefined,
    ].filter((m): m is string => m !== undefined);
}
