/**
 * The namespaces the cluster's admission bindings leave out, rule by rule, and why. The pack has no exemptions: it
 * sees only what Pulumi declares, and the platform's own declarations follow every rule. These are for what others
 * put on the cluster that the platform cannot change: the cloud's system agents and the pods the platform's charts
 * and operators render with their own defaults. test/render/admission.test.ts renders every chart and fails when an
 * object breaks a rule outside these namespaces, or when an exemption is no longer needed.
 */
import { DEFAULTS } from "../../contracts";
import type { NamespaceExemption } from "../rule";

/** The cloud's own agents (CNI, kube-proxy, CSI node plugins, CoreDNS), managed by EKS, DOKS, LKE or the cluster's owner. */
export const KUBE_SYSTEM: NamespaceExemption = {
    namespace: "kube-system",
    why: "the cloud's own agents (the CNI, kube-proxy, the CSI node plugins, CoreDNS) run privileged on the host's network with host paths; the cloud manages them, and a refusal there stops new nodes from joining",
};

/** Prometheus' node exporter reads the node's /proc and /sys on the node's network and process namespaces. */
export const NODE_EXPORTER: NamespaceExemption = {
    namespace: DEFAULTS.prometheus.namespace,
    why: "kube-prometheus-stack's node exporter reads the node's /proc, /sys and root file system in the node's network and process namespaces: that is how it measures the node",
};
