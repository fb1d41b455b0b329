/**
 * Prometheus's defaults and chart pins, as data: the chart catalogue (contracts/charts.ts) and the defaults table
 * (contracts/defaults.ts) take their kube-prometheus-stack, statsd exporter and Prometheus entries from here. Imports
 * nothing (test/package/layers.test.ts).
 */

/** kube-prometheus-stack: Prometheus, Alertmanager, Grafana and the Prometheus operator with its CRDs. */
export const PROMETHEUS_CHART = {
    title: "kube-prometheus-stack",
    chart: "kube-prometheus-stack",
    repositoryUrl: "https://prometheus-community.github.io/helm-charts",
    version: "88.5.3",
    timeoutSeconds: 900,
} as const;

/** The statsd exporter Bank of Sirius reports to, installed beside kube-prometheus-stack. */
export const STATSD_CHART = {
    title: "Prometheus statsd exporter",
    chart: "prometheus-statsd-exporter",
    repositoryUrl: "https://prometheus-community.github.io/helm-charts",
    version: "1.0.0",
    timeoutSeconds: 600,
} as const;

/** Defaults of {@link PrometheusArgs}'s arguments. */
export const PROMETHEUS_DEFAULTS = {
    namespace: "prometheus",
    storageSize: "10Gi",
    dashboardStorageSize: "5Gi",
    scrapeInterval: "15s",
    // Where each alert's runbook_url points: docs/alerts.md, plus the alert's anchor.
    alertRunbookUrl: "docs/alerts.md",
    // The route tree's repeat intervals and the email receiver's TLS (components/alerts/receivers.ts, AlertingArgs).
    alerting: { criticalRepeatInterval: "1h", warningRepeatInterval: "12h", emailRequireTls: true },
} as const;
