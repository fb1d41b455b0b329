/**
 * The stack installs cert-manager once. The cluster side is the single-cert-manager rule: there, cert-manager's
 * controller may run only in the platform's namespace.
 */
import { CERT_MANAGER_CONTROLLER } from "../kubernetes/certManagerController";
import { containersOf } from "../kubernetes/workloads";
import type { KubeObject, PulumiResource, StackRule } from "../rule";
import { chartName, HELM_TYPES, release } from "./releases";

/** Whether a resource installs a cert-manager: its chart, or a workload running its controller. */
function installsCertManager(r: PulumiResource): boolean {
    if (HELM_TYPES.includes(r.type)) return chartName(r) === "cert-manager";
    if (!r.type.startsWith("kubernetes:")) return false;
    return containersOf(r.props as KubeObject).some((c) => new RegExp(CERT_MANAGER_CONTROLLER).test(c.image ?? ""));
}

const controller: PulumiResource = {
    type: "kubernetes:apps/v1:Deployment",
    name: "hand-made-cert-manager",
    props: { kind: "Deployment", spec: { template: { spec: { containers: [{ name: "c", image: "quay.io/jetstack/cert-manager-controller:v1.19.0" }] } } } },
};

export const oneCertManager: StackRule = {
    kind: "stack",
    id: "one-cert-manager",
    description: "The stack installs cert-manager once.",
    level: "mandatory",
    settings: {},
    check: (resources) => {
        const found = resources.filter(installsCertManager);
        if (found.length <= 1) return [];
        return found.slice(1).map((r) => ({ resource: r.name, message: `"${r.name}" installs a second cert-manager (besides "${found[0]!.name}"); two controllers fight over the same certificates` }));
    },
    examples: {
        pass: [[release("cert-manager", "cert-manager"), release("kic", "nginx-ingress")]],
        fail: [[release("cert-manager", "cert-manager"), release("cm2", "oci://quay.io/jetstack/charts/cert-manager")], [release("cert-manager", "cert-manager"), controller]],
    },
};
