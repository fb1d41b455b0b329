/**
 * An Ingress reaches users only through a controller that serves its class, and only the platform's controller is
 * monitored, logged and fronted by the platform's load balancer. TLS on every host it serves, so no application
 * is reachable in plain text by its name.
 */
import { DEFAULTS } from "../../contracts";
import type { KubeObject, KubernetesRule } from "../rule";

interface IngressSpec {
    ingressClassName?: string;
    rules?: { host?: string }[];
    tls?: { hosts?: string[]; secretName?: string }[];
}

const specOf = (o: KubeObject) => (o.spec ?? {}) as IngressSpec;
const INGRESS = [{ group: "networking.k8s.io", kind: "Ingress", resource: "ingresses" }];

const ingress = (spec: IngressSpec): KubeObject => ({
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name: "web", namespace: "team-a" },
    spec: {
        ...spec,
        rules: (spec.rules ?? []).map((r) => ({ ...r, http: { paths: [{ path: "/", pathType: "Prefix", backend: { service: { name: "web", port: { number: 80 } } } }] } })),
    },
});

export const ingressClass: KubernetesRule<{ ingressClassName: string }> = {
    kind: "kubernetes",
    id: "ingress-class",
    description: "Ingresses name the platform's IngressClass in spec.ingressClassName.",
    level: "mandatory",
    settings: {
        ingressClassName: {
            description: "The platform's IngressClass. Default: the ingress controller's.",
            schema: { type: "string" },
            default: DEFAULTS.ingressController.ingressClassName,
        },
    },
    targets: INGRESS,
    check: (o, s) => {
        const cls = specOf(o).ingressClassName;
        if (cls === s.ingressClassName) return [];
        return [`Ingress "${o.metadata?.name}" ${cls === undefined ? "names no IngressClass" : `names IngressClass "${cls}"`}; set spec.ingressClassName: ${s.ingressClassName}`];
    },
    admission: {
        validations: [
            {
                expression: "has(object.spec.ingressClassName) && object.spec.ingressClassName == variables.ingressClassName",
                message: "Ingresses must set spec.ingressClassName to the platform's IngressClass",
            },
        ],
    },
    examples: {
        pass: [ingress({ ingressClassName: "nginx", rules: [{ host: "a.example.com" }], tls: [{ hosts: ["a.example.com"], secretName: "a-tls" }] })],
        fail: [ingress({ rules: [{ host: "a.example.com" }] }), ingress({ ingressClassName: "traefik", rules: [{ host: "a.example.com" }] })],
    },
};

/** Whether a TLS host name covers `host`: the same name, or a `*.` wildcard one label above it. */
export function tlsCovers(tlsHost: string, host: string): boolean {
    if (tlsHost === host) return true;
    return tlsHost.startsWith("*.") && host.endsWith(tlsHost.slice(1)) && !host.slice(0, -tlsHost.length + 1).includes(".");
}

export const ingressTls: KubernetesRule = {
    kind: "kubernetes",
    id: "ingress-tls",
    description: "Ingresses carry TLS, and every host they serve is in one of their TLS entries.",
    level: "mandatory",
    settings: {},
    targets: INGRESS,
    check: (o) => {
        const spec = specOf(o);
        const tls = spec.tls ?? [];
        if (tls.length === 0) return [`Ingress "${o.metadata?.name}" has no spec.tls: its hosts would be served in plain text`];
        return (spec.rules ?? [])
            .filter((r) => r.host !== undefined && !tls.some((t) => (t.hosts ?? []).some((h) => tlsCovers(h, r.host!))))
            .map((r) => `Ingress "${o.metadata?.name}" serves ${r.host} without TLS: add it to spec.tls[].hosts`);
    },
    admission: {
        validations: [
            {
                expression:
                    "has(object.spec.tls) && size(object.spec.tls) > 0 && (!has(object.spec.rules) || object.spec.rules.all(r, !has(r.host) || " +
                    "object.spec.tls.exists(t, has(t.hosts) && t.hosts.exists(h, h == r.host || (h.startsWith('*.') && r.host.endsWith(h.substring(1)) && " +
                    "!r.host.substring(0, size(r.host) - size(h) + 1).contains('.'))))))",
                message: "Ingresses must carry TLS for every host they serve (spec.tls[].hosts)",
            },
        ],
    },
    examples: {
        pass: [
            ingress({ ingressClassName: "nginx", rules: [{ host: "a.example.com" }], tls: [{ hosts: ["a.example.com"], secretName: "a-tls" }] }),
            ingress({ ingressClassName: "nginx", rules: [{ host: "a.example.com" }, { host: "b.example.com" }], tls: [{ hosts: ["*.example.com"], secretName: "wild" }] }),
        ],
        fail: [
            ingress({ ingressClassName: "nginx", rules: [{ host: "a.example.com" }] }),
            ingress({ ingressClassName: "nginx", rules: [{ host: "a.example.com" }, { host: "b.example.org" }], tls: [{ hosts: ["a.example.com"], secretName: "a-tls" }] }),
            ingress({ ingressClassName: "nginx", rules: [{ host: "x.a.example.com" }], tls: [{ hosts: ["*.example.com"], secretName: "wild" }] }),
        ],
    },
};
