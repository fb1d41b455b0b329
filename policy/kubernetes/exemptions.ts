/**
 * The namespaces the cluster's admission bindings leave out, rule by rule, and why. The pack has no exemptions: it
 * sees only what Pulumi declares, and the platform's own declarations follow every rule. These are for what others
 * put on the cluster that the platform cannot change: the cloud's system daemons and the pods the platform's charts
 * and operators render with their own defaults. test/render/admission.test.ts renders every chart and fails when an
 * object breaks a rule outside these namespaces, or when an exemption is no longer needed.
 */
import { DEFAULTS } from "../../contracts";
import type { NamespaceExemption } from "../rule";

/** The cloud's own daemons (CNI, kube-proxy, CSI node plugins, CoreDNS), managed by EKS, DOKS, LKE or the cluster's owner. */
export const KUBE_SYSTEM: NamespaceExemption = {
    namespace: "kube-system",
    why: "the cloud's own daemons (the CNI, kube-proxy, the CSI node plugins, CoreDNS) run privileged on the host's network with host paths; the cloud manages them, and a refusal there stops new nodes from joining",
};

/** Prometheus' node exporter reads the node's /proc and /sys on the node's network and process namespaces. */
export const NODE_EXPORTER: NamespaceExemption = {
    namespace: DEFAULTS.prometheus.namespace,
    why: "kube-prometheus-stack's node exporter reads the node's /proc, /sys and root file system in the node's network and process namespaces: that is how it measures the node",
};

/** The platform's add-ons whose charts give some pods no requests or memory limit, each namespace with what runs there. */
export const CHARTS_WITHOUT_RESOURCES: readonly NamespaceExemption[] = [
    { namespace: DEFAULTS.certManager.namespace, why: "cert-manager's chart gives its controller, webhook, CA injector and start-up check no requests" },
    { namespace: DEFAULTS.ingressController.namespace, why: "the nginx-ingress chart requests CPU and memory for the controller but sets no memory limit" },
    { namespace: DEFAULTS.logAgent.namespace, why: "the fluent-bit chart gives its DaemonSet no requests" },
    { namespace: DEFAULTS.observability.namespace, why: "the OpenTelemetry operator's chart, and the collector the operator starts, declare no requests" },
    {
        namespace: DEFAULTS.prometheus.namespace,
        why: "kube-prometheus-stack (operator, kube-state-metrics, node exporter, Grafana's sidecars, admission Jobs) and the statsd exporter chart declare no requests",
    },
];

/** ECK's operator, whose environment names the Secret of its webhook certificate. */
export const ECK_OPERATOR: NamespaceExemption = {
    namespace: DEFAULTS.logstore.namespace,
    why: "ECK's operator sets WEBHOOK_SECRET to the name of the Secret holding its webhook certificate: a name, not a credential, that the name test cannot tell apart",
};
