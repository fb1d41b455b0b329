/**
 * The application's namespace must be its own. The Application creates its namespace and deletes it (with
 * everything in it) on destroy, so it may not be one of the platform's namespaces (the two would share
 * Secrets, NetworkPolicies and a lifetime), nor a namespace Kubernetes itself owns (which cannot be created,
 * and must never be deleted).
 */
import { DEFAULTS } from "../contracts";
import { configSetCommand } from "./problems";
import type { Findings } from "./resolve";

/** The platform's own namespaces and what runs in each. */
export const PLATFORM_NAMESPACES: Readonly<Record<string, string>> = {
    [DEFAULTS.ingressController.namespace]: "the NGINX Ingress Controller",
    [DEFAULTS.certManager.namespace]: "cert-manager",
    [DEFAULTS.logstore.namespace]: "Elasticsearch and Kibana",
    [DEFAULTS.logAgent.namespace]: "the log agent",
    [DEFAULTS.prometheus.namespace]: "Prometheus and Grafana",
    [DEFAULTS.observability.namespace]: "the OpenTelemetry operator and collector",
};

/** Namespaces Kubernetes creates and owns in every cluster. */
export const SYSTEM_NAMESPACES = ["default", "kube-system", "kube-public", "kube-node-lease"] as const;

/** Why `namespace` cannot be the application's own, or undefined when it can. */
export function applicationNamespaceProblem(namespace: string): string | undefined {
    const platform = PLATFORM_NAMESPACES[namespace];
    if (platform) return `is the namespace of the platform's ${platform}; the application creates its own namespace and deletes it on destroy, which would take ${platform} with it`;
    if ((SYSTEM_NAMESPACES as readonly string[]).includes(namespace) || namespace.startsWith("kube-")) {
        return "is a namespace Kubernetes owns; the application creates its own namespace and deletes it on destroy, and this one already exists and must never be deleted";
    }
    return undefined;
}

/** Records a problem when the application's namespace is not its own. */
export function checkApplicationNamespace(namespace: string, key: string, findings: Findings): void {
    const why = applicationNamespaceProblem(namespace);
    if (!why) return;
    findings.problem({
        key,
        value: namespace,
        problem: why,
        allowed: `a namespace of the application's own: not ${[...Object.keys(PLATFORM_NAMESPACES), ...SYSTEM_NAMESPACES].join(", ")}, nor any kube-* name`,
        fix: `${configSetCommand(key, DEFAULTS.application.namespace)} (the default)`,
    });
}
