/**
 * With two default IngressClasses the API server refuses every Ingress that names no class, so whichever
 * controller is installed second breaks the applications that relied on the default. The platform's class is
 * the default; no other may claim to be. (The pack also counts defaults across the stack: stack/defaultIngressClass.ts.)
 */
import { DEFAULTS } from "../../contracts";
import { celString } from "../celLiteral";
import type { KubeObject, KubernetesRule } from "../rule";

/** The annotation that makes an IngressClass the cluster default. */
export const DEFAULT_CLASS_ANNOTATION = "ingressclass.kubernetes.io/is-default-class";

const ingressClass = (name: string, isDefault?: string): KubeObject => ({
    apiVersion: "networking.k8s.io/v1",
    kind: "IngressClass",
    metadata: { name, ...(isDefault !== undefined ? { annotations: { [DEFAULT_CLASS_ANNOTATION]: isDefault } } : {}) },
    spec: { controller: "example.com/ingress-controller" },
});

export const defaultIngressClass: KubernetesRule<{ ingressClassName: string }> = {
    kind: "kubernetes",
    id: "default-ingress-class",
    description: "Only the platform's IngressClass is marked as the cluster default.",
    level: "mandatory",
    settings: {
        ingressClassName: {
            description: "The platform's IngressClass, the only one that may be the default.",
            schema: { type: "string" },
            default: DEFAULTS.ingressController.ingressClassName,
        },
    },
    targets: [{ group: "networking.k8s.io", kind: "IngressClass", resource: "ingressclasses", clusterScoped: true }],
    check: (o, s) => {
        const isDefault = o.metadata?.annotations?.[DEFAULT_CLASS_ANNOTATION] === "true";
        if (!isDefault || o.metadata?.name === s.ingressClassName) return [];
        return [`IngressClass "${o.metadata?.name}" is marked as the cluster default, which is the platform's "${s.ingressClassName}"`];
    },
    admission: {
        validations: [
            {
                expression: `!has(object.metadata.annotations) || !(${celString(DEFAULT_CLASS_ANNOTATION)} in object.metadata.annotations) || object.metadata.annotations[${celString(DEFAULT_CLASS_ANNOTATION)}] != 'true' || object.metadata.name == variables.ingressClassName`,
                message: "only the platform's IngressClass may be marked as the cluster default",
            },
        ],
    },
    examples: {
        pass: [ingressClass(DEFAULTS.ingressController.ingressClassName, "true"), ingressClass("internal"), ingressClass("internal", "false")],
        fail: [ingressClass("traefik", "true")],
    },
};
