/**
 * Every LoadBalancer Service is a cloud load balancer with a public address and a bill. The platform has one, in
 * front of the ingress controller; applications reach the outside through an Ingress, not a Service of their own.
 */
import { DEFAULTS } from "../../contracts";
import type { KubeObject, KubernetesRule } from "../rule";

/** The namespace an object lands in: the one it names, else `default` (what the API server and Pulumi's provider use). */
export const namespaceOf = (o: KubeObject) => o.metadata?.namespace ?? "default";

const service = (name: string, namespace: string | undefined, type?: string): KubeObject => ({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, ...(namespace ? { namespace } : {}) },
    spec: { ...(type ? { type } : {}), selector: { app: name }, ports: [{ port: 80, targetPort: 8080 }] },
});

export const loadBalancerNamespace: KubernetesRule<{ namespaces: string[] }> = {
    kind: "kubernetes",
    id: "load-balancer-namespace",
    description: "Services of type LoadBalancer only in the ingress controller's namespace.",
    level: "mandatory",
    settings: {
        namespaces: {
            description: "Namespaces where a Service may be of type LoadBalancer. Default: the ingress controller's.",
            schema: { type: "array", items: { type: "string" } },
            default: [DEFAULTS.ingressController.namespace],
        },
    },
    targets: [{ group: "", kind: "Service", resource: "services" }],
    check: (o, s) => {
        const spec = o.spec as { type?: string } | undefined;
        if (spec?.type !== "LoadBalancer" || s.namespaces.includes(namespaceOf(o))) return [];
        return [`Service "${o.metadata?.name}" is of type LoadBalancer in namespace "${namespaceOf(o)}"; only ${s.namespaces.join(", ")} may have one (route through an Ingress instead)`];
    },
    admission: {
        validations: [
            {
                // The request's namespace, not the object's: a create may leave metadata.namespace to the URL.
                expression: "!has(object.spec.type) || object.spec.type != 'LoadBalancer' || request.namespace in variables.namespaces",
                message: "Services of type LoadBalancer are allowed only in the ingress controller's namespace; route through an Ingress",
            },
        ],
    },
    examples: {
        pass: [service("kic", DEFAULTS.ingressController.namespace, "LoadBalancer"), service("web", "team-a", "ClusterIP"), service("web", "team-a")],
        fail: [service("web", "team-a", "LoadBalancer"), service("web", undefined, "LoadBalancer")],
    },
};
