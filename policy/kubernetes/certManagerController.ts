/**
 * Two cert-manager controllers fight over the same Certificates and webhooks: each renews what the other just
 * issued, and upgrades of either break the other's CRDs. The platform runs one, in its namespace; a controller
 * image anywhere else is a second one. (The pack also counts cert-manager releases across the stack.)
 */
import { DEFAULTS } from "../../contracts";
import { celString } from "../celLiteral";
import type { KubernetesRule } from "../rule";
import { container, deployment, GOOD_CONTAINER } from "./examples";
import { containersOf, WORKLOAD_VARIABLES, WORKLOADS } from "./workloads";
import { namespaceOf } from "./loadBalancer";

/** The image name of cert-manager's controller (any registry, tag or digest). */
export const CERT_MANAGER_CONTROLLER = "/cert-manager-controller[:@]";

export const certManagerController: KubernetesRule<{ certManagerNamespace: string }> = {
    kind: "kubernetes",
    id: "single-cert-manager",
    description: "cert-manager's controller runs only in the platform's cert-manager namespace.",
    level: "mandatory",
    settings: {
        // Not "namespace": settings become CEL variables in the admission policy, and CEL reserves that word.
        certManagerNamespace: {
            description: "The namespace of the platform's cert-manager.",
            schema: { type: "string" },
            default: DEFAULTS.certManager.namespace,
        },
    },
    targets: WORKLOADS,
    check: (o, s) => {
        if (namespaceOf(o) === s.certManagerNamespace) return [];
        return containersOf(o)
            .filter((c) => new RegExp(CERT_MANAGER_CONTROLLER).test(c.image ?? ""))
            .map((c) => `"${o.metadata?.name}" runs cert-manager's controller (${c.image}) in namespace "${namespaceOf(o)}"; the platform's runs in "${s.certManagerNamespace}" and a second one would fight it`);
    },
    admission: {
        variables: WORKLOAD_VARIABLES,
        validations: [
            {
                expression: `request.namespace == variables.certManagerNamespace || variables.containers.all(c, !has(c.image) || !c.image.matches(${celString(CERT_MANAGER_CONTROLLER)}))`,
                message: "cert-manager's controller may run only in the platform's cert-manager namespace",
            },
        ],
    },
    examples: {
        pass: [
            deployment({ containers: [container({ image: "quay.io/jetstack/cert-manager-controller:v1.21.1" })] }, DEFAULTS.certManager.namespace),
            deployment({ containers: [GOOD_CONTAINER, container({ name: "cainjector", image: "quay.io/jetstack/cert-manager-cainjector:v1.21.1" })] }),
        ],
        fail: [deployment({ containers: [container({ image: "quay.io/jetstack/cert-manager-controller:v1.19.0" })] }, "team-a")],
    },
};
