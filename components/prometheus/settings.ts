/**
 * Prometheus's section of the validated configuration (`MaraConfig.prometheus`). Read by config/validate.ts, which
 * resolves the keys (keys.ts) and hands this module the lookups. Its keys have no rule across them; Alertmanager's
 * receivers are the `Alerts` group's, checked and built by config/alerting.ts into `MaraConfig.alerting`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ChartSettings } from "../../contracts";
import type { Lookup } from "../../config/lookup";
import { secretOutput } from "../../config/resolve";

/** Prometheus's validated settings (`MaraConfig.prometheus`). */
export interface PrometheusSettings {
    /** The kube-prometheus-stack chart: the catalogue's pin, or the version, mirror, timeout and archive the stack sets. */
    readonly chart: ChartSettings;
    /** The statsd exporter's chart, the same way. */
    readonly statsdChart: ChartSettings;
    /** Prometheus's volume size. */
    readonly storageSize: string;
    /** Grafana's and Alertmanager's volume size. */
    readonly dashboardStorageSize: string;
    /** Grafana admin password (secret), when configured; generated otherwise. */
    readonly grafanaAdminPassword?: pulumi.Output<string>;
}

/** The section from the resolved keys and the charts the validation settled on (version, mirror, archive). */
export function prometheusSettings({ r, d }: Pick<Lookup, "r" | "d">, charts: { chart: ChartSettings; statsdChart: ChartSettings }): PrometheusSettings {
    return {
        chart: charts.chart,
        statsdChart: charts.statsdChart,
        storageSize: d("prometheusStorageSize"),
        dashboardStorageSize: d("dashboardStorageSize"),
        grafanaAdminPassword: secretOutput(r("grafanaAdminPassword")),
    };
}
