/** How traffic reaches the frontend: a standard Ingress, or an NGINX VirtualServer, with HTTPS from cert-manager. */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import type { ResolvedApplicationArgs } from "./componentArgs";
import { metadata, SiriusScope } from "./scope";

/** Name of the TLS Secret cert-manager fills for the application's host (MARA's). */
export const SIRIUS_TLS_SECRET = "sirius-secret";

/** Name of the Ingress or VirtualServer (MARA's). */
const ROUTE_NAME = "bosingress";

/** Creates the route to the frontend on `hostname`, with a certificate from the configured issuer. */
export function siriusRoute(scope: SiriusScope, a: ResolvedApplicationArgs, hostname: pulumi.Output<string>): void {
    const child = { parent: scope.parent };
    if (a.routing === "virtualserver") {
        new k8s.apiextensions.CustomResource(
            `${scope.name}-virtualserver`,
            {
                apiVersion: "k8s.nginx.org/v1",
                kind: "VirtualServer",
                metadata: metadata(scope, ROUTE_NAME),
                spec: pulumi.all([hostname, a.clusterIssuer, a.ingressClassName]).apply(([host, issuer, className]) => ({
                    host,
                    ingressClassName: className,
                    tls: { secret: SIRIUS_TLS_SECRET, "cert-manager": { "cluster-issuer": issuer } },
                    upstreams: [{ name: "frontend", service: "frontend", port: 80 }],
                    routes: [{ path: "/", action: { pass: "frontend" } }],
                })),
            },
            child,
        );
        return;
    }
    new k8s.networking.v1.Ingress(
        `${scope.name}-ingress`,
        {
            metadata: { ...metadata(scope, ROUTE_NAME), annotations: { "cert-manager.io/cluster-issuer": a.clusterIssuer } },
            spec: {
                ingressClassName: a.ingressClassName,
                tls: [{ hosts: [hostname], secretName: SIRIUS_TLS_SECRET }],
                rules: [
                    {
                        host: hostname,
                        http: { paths: [{ path: "/", pathType: "Prefix", backend: { service: { name: "frontend", port: { number: 80 } } } }] },
                    },
                ],
            },
        },
        child,
    );
}
