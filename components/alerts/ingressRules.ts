/**
 * Alerts on the NGINX Ingress Controller, from the metrics it serves on its Prometheus port (nginx/kubernetes-ingress
 * v5.5.4, the release the pinned chart runs: internal/metrics/collectors/; test/fixtures/metrics/ lists them). Errors
 * and latency come from its latency metrics (`controller.enableLatencyMetrics`, on in ingressController/component.ts): one
 * histogram of upstream response times in milliseconds, labelled with the upstream's status `code` and its Kubernetes
 * `service` (renamed `exported_service` by Prometheus, because the scrape target has a `service` label of its own) and
 * `resource_namespace`. They count the responses of upstreams NGINX reached, in open source and NGINX Plus alike; a
 * request NGINX could not send to any upstream is not among them.
 */
import type { AlertRuleGroup } from "./rules";

/** Where the controller's metrics are scraped from. */
export interface IngressAlertTarget {
    /** Namespace of the controller and its metrics Service. */
    readonly namespace: string;
    /** The metrics Service's name: Prometheus's `job` label of its targets. */
    readonly job: string;
}

/** Requests per second below which an upstream's error ratio and latency are not judged (too few to mean anything). */
export const MIN_REQUEST_RATE = 0.1;

/** The controller's alerts. */
export function ingressRules(t: IngressAlertTarget): AlertRuleGroup {
    const sel = `namespace="${t.namespace}"`;
    const by = "namespace, resource_namespace, exported_service";
    const requests = `sum by (${by}) (rate(nginx_ingress_controller_upstream_server_response_latency_ms_count{${sel}}[5m]))`;
    const errors = `sum by (${by}) (rate(nginx_ingress_controller_upstream_server_response_latency_ms_count{${sel}, code=~"5.."}[5m]))`;
    const busy = `on (${by}) ${requests} > ${MIN_REQUEST_RATE}`;
    const p99 = `histogram_quantile(0.99, sum by (${by}, le) (rate(nginx_ingress_controller_upstream_server_response_latency_ms_bucket{${sel}}[5m])))`;
    const errorRatio = (threshold: number) => `(${errors} / ${requests}) > ${threshold} and ${busy}`;
    const latency = (ms: number) => `${p99} > ${ms} and ${busy}`;
    const upstream = "{{ $labels.resource_namespace }}/{{ $labels.exported_service }}";
    return {
        component: "ingress",
        name: "mara.ingress",
        rules: [
            {
                alert: "NginxIngressControllerDown",
                expr: `absent(up{${sel}, job="${t.job}"} == 1)`,
                for: "5m",
                severity: "critical",
                // absent() keeps no label of a filtered vector: the namespace routes and inhibits the controller's other alerts.
                labels: { namespace: t.namespace },
                summary: "No NGINX Ingress Controller answers Prometheus",
                description: `No pod of the ingress controller (job ${t.job} in ${t.namespace}) has served its metrics for 5 minutes: the controller is down, or cannot be scraped. Every Ingress of the cluster may be unreachable.`,
            },
            {
                alert: "NginxIngressReloadFailed",
                expr: `nginx_ingress_controller_nginx_last_reload_status{${sel}} == 0`,
                for: "10m",
                severity: "warning",
                summary: "NGINX in {{ $labels.pod }} failed to apply its last configuration",
                description: "The controller's last NGINX reload failed: it serves its previous configuration, and changes to Ingresses and VirtualServers since then are not in effect.",
            },
            {
                alert: "NginxIngressUpstreamErrors",
                expr: errorRatio(0.05),
                for: "10m",
                severity: "warning",
                summary: `More than 5% of the responses of ${upstream} are 5xx`,
                description: "{{ $value | humanizePercentage }} of the responses the service returned through the ingress controller in the last 5 minutes are server errors.",
            },
            {
                alert: "NginxIngressUpstreamErrors",
                expr: errorRatio(0.25),
                for: "5m",
                severity: "critical",
                summary: `More than 25% of the responses of ${upstream} are 5xx`,
                description: "{{ $value | humanizePercentage }} of the responses the service returned through the ingress controller in the last 5 minutes are server errors: users see it failing.",
            },
            {
                alert: "NginxIngressUpstreamLatency",
                expr: latency(1000),
                for: "10m",
                severity: "warning",
                summary: `The 99th percentile response time of ${upstream} is over 1 s`,
                description: "The slowest 1% of the service's responses through the ingress controller took more than {{ $value | humanize }} ms over the last 5 minutes.",
            },
            {
                alert: "NginxIngressUpstreamLatency",
                expr: latency(5000),
                for: "5m",
                severity: "critical",
                summary: `The 99th percentile response time of ${upstream} is over 5 s`,
                description: "The slowest 1% of the service's responses through the ingress controller took more than {{ $value | humanize }} ms over the last 5 minutes: requests are near NGINX's default 60 s proxy timeout.",
            },
        ],
    };
}
