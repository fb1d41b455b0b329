/**
 * Alerts on the log store (Elasticsearch, run by ECK), from kube-state-metrics (v2.20.0, kube-prometheus-stack's
 * subchart): the platform runs no Elasticsearch exporter, so the cluster's health (green, yellow, red) is not a metric
 * here, and these rules watch what Kubernetes knows of its nodes. ECK runs each node set as a StatefulSet named
 * `<cluster>-es-<node set>` (its pods `<cluster>-es-<node set>-<n>`).
 */
import type { AlertRuleGroup } from "./rules";

/** Where the Elasticsearch cluster runs. */
export interface LogstoreAlertTarget {
    /** Namespace of the Elasticsearch cluster. */
    readonly namespace: string;
    /** Name of the Elasticsearch resource. */
    readonly cluster: string;
}

/** The log store's alerts. */
export function logstoreRules(t: LogstoreAlertTarget): AlertRuleGroup {
    const sets = `namespace="${t.namespace}", statefulset=~"${t.cluster}-es-.+"`;
    const pods = `namespace="${t.namespace}", pod=~"${t.cluster}-es-.+"`;
    return {
        component: "logstore",
        name: "mara.logstore",
        rules: [
            {
                alert: "ElasticsearchNodeSetDown",
                expr: `kube_statefulset_status_replicas_ready{${sets}} == 0 and on (namespace, statefulset) kube_statefulset_replicas{${sets}} > 0`,
                for: "5m",
                severity: "critical",
                summary: "No node of Elasticsearch node set {{ $labels.statefulset }} is ready",
                description: "A whole node set of the log store has had no ready pod for 5 minutes: the cluster has lost that role (its masters, or its only data nodes), and the log agent's writes fail or wait.",
            },
            {
                alert: "ElasticsearchPodNotReady",
                expr: `max by (namespace, pod) (kube_pod_status_ready{${pods}, condition="false"}) == 1`,
                for: "10m",
                severity: "warning",
                summary: "Elasticsearch pod {{ $labels.namespace }}/{{ $labels.pod }} is not ready",
                description: "The pod has not passed its readiness check for 10 minutes: the node has not joined the cluster, or is recovering its shards.",
            },
            {
                alert: "ElasticsearchPodRestarting",
                expr: `increase(kube_pod_container_status_restarts_total{${pods}}[30m]) >= 3`,
                for: "0m",
                severity: "warning",
                summary: "Elasticsearch pod {{ $labels.namespace }}/{{ $labels.pod }} restarted {{ $value | humanize }} times in 30 minutes",
                description: "A container of the pod keeps restarting (out of memory, a failed bootstrap check, a full disk): its last state's reason and the pod's log say which.",
            },
        ],
    };
}
