/**
 * Prometheus's mapping from its validated settings onto the Platform's `prometheus` arguments: the one place where
 * its `mara:*` settings, and Alertmanager's (`MaraConfig.alerting`), become {@link PrometheusArgs}. Called by
 * program/platformArgs.ts, which maps the receivers (alertingArgsFromConfig).
 */
import type { MaraConfig } from "../../config/model";
import type { AlertingArgs } from "../alerts/receivers";
import type { PrometheusArgs } from "./component";
import type { PrometheusSettings } from "./settings";

/** The charts, the volume sizes, the receivers and where the runbooks are. */
export function prometheusArgsFromSettings(
    s: PrometheusSettings,
    alerting: AlertingArgs,
    runbookUrl: MaraConfig["alerting"]["runbookUrl"],
): Pick<PrometheusArgs, "chart" | "statsdChart" | "storageSize" | "dashboardStorageSize" | "alerting" | "alertRunbookUrl"> {
    return { chart: s.chart, statsdChart: s.statsdChart, storageSize: s.storageSize, dashboardStorageSize: s.dashboardStorageSize, alerting, alertRunbookUrl: runbookUrl };
}
