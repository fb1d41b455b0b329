/** A privileged container is root on the node: it sees every device and can load kernel modules. */
import type { KubernetesRule } from "../rule";
import { container, deployment, GOOD_CONTAINER, pod } from "./examples";
import { containerName, containersOf, WORKLOAD_VARIABLES, WORKLOADS } from "./workloads";
import { KUBE_SYSTEM } from "./exemptions";

export const privilegedContainers: KubernetesRule = {
    kind: "kubernetes",
    id: "no-privileged-containers",
    description: "No container or init container runs privileged.",
    level: "mandatory",
    settings: {},
    targets: WORKLOADS,
    check: (o) => containersOf(o).filter((c) => c.securityContext?.privileged === true).map((c) => `container ${containerName(c)} runs privileged`),
    admission: {
        variables: WORKLOAD_VARIABLES,
        validations: [
            {
                expression: "variables.containers.all(c, !has(c.securityContext) || !has(c.securityContext.privileged) || !c.securityContext.privileged)",
                message: "no container may run privileged (securityContext.privileged)",
            },
        ],
    },
    exemptions: [KUBE_SYSTEM],
    examples: {
        pass: [
            deployment({ containers: [container({ securityContext: { privileged: false, allowPrivilegeEscalation: false } })] }),
            pod({ containers: [GOOD_CONTAINER] }),
        ],
        fail: [
            deployment({ containers: [container({ securityContext: { privileged: true } })] }),
            pod({ containers: [GOOD_CONTAINER], initContainers: [container({ name: "sysctl", securityContext: { privileged: true } })] }),
        ],
    },
};
