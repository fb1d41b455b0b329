/**
 * Prometheus on the Platform: its arguments (`PlatformArgs.prometheus`), its member and how it is created, scraping
 * and alerting on the add-ons it watches (the ingress controller, cert-manager, the log store).
 */
import { DEFAULTS } from "../../contracts";
import { certificateRules } from "../alerts/certificateRules";
import { ingressRules } from "../alerts/ingressRules";
import { logstoreRules } from "../alerts/logstoreRules";
import { CERT_MANAGER_METRICS_LABELS, CERT_MANAGER_METRICS_SERVICE } from "../certManager";
import { KIC_METRICS_LABELS, KIC_METRICS_SERVICE } from "../ingressController";
import { platformIngressControllerArgs } from "../ingressController/platformUnit";
import { ELASTICSEARCH_NAME } from "../logstore";
import type { PlatformUnit } from "../platformUnit";
import { Prometheus, PrometheusArgs } from "./component";

/**
 * Prometheus: kube-prometheus-stack and the statsd exporter, their volume sizes, and alerting: Alertmanager's receivers
 * and where the runbooks of the platform's alerts are (the rules themselves come with the add-ons they watch).
 */
export type PlatformPrometheusArgs = Pick<PrometheusArgs, "chart" | "statsdChart" | "storageSize" | "dashboardStorageSize" | "alerting" | "alertRunbookUrl">;

/** @deprecated Use {@link PlatformPrometheusArgs}, the same type under the add-on's one name. */
export type PlatformMetricsArgs = PlatformPrometheusArgs;

declare module "../platformUnit" {
    interface PlatformArgs {
        /** Prometheus, Grafana, Alertmanager and the statsd exporter. */
        prometheus?: PlatformPrometheusArgs;
        /**
         * @deprecated Use {@link PlatformArgs.prometheus}, the same arguments under the add-on's one name. Still read:
         * where both are given, `prometheus`'s members win.
         */
        metrics?: PlatformPrometheusArgs;
    }
    interface PlatformAddOns {
        /** kube-prometheus-stack, Grafana and the statsd exporter. */
        readonly prometheus: Prometheus;
    }
}

/** Prometheus on the Platform, a stateful add-on. */
export const PROMETHEUS_UNIT: PlatformUnit = {
    create: ({ name, args, facts, secrets, storageClassName, stateful }) => ({
        prometheus: new Prometheus(
            `${name}-prometheus`,
            {
                ...args.metrics,
                ...args.prometheus,
                grafanaAdminPassword: secrets.grafanaAdminPassword,
                storageClassName,
                controlPlaneMetrics: facts.controlPlaneMetrics,
                // A plain name: the ServiceMonitor only names where to look, it need not wait for the controller.
                ingressControllerMetrics: { namespace: DEFAULTS.ingressController.namespace, selector: { ...KIC_METRICS_LABELS }, port: "prometheus" },
                ingressControllerPlus: platformIngressControllerArgs(args).nginxPlus ?? DEFAULTS.ingressController.nginxPlus,
                // The certificates' own namespaces kept on cert-manager's metrics (certificateRules.ts).
                certManagerMetrics: { namespace: DEFAULTS.certManager.namespace, selector: { ...CERT_MANAGER_METRICS_LABELS }, port: "http-metrics", honorLabels: true },
                // The alerts on what the platform runs; the application ships its own (components/application/monitoring.ts).
                alertRules: [
                    ingressRules({ namespace: DEFAULTS.ingressController.namespace, job: KIC_METRICS_SERVICE }),
                    certificateRules({ namespace: DEFAULTS.certManager.namespace, job: CERT_MANAGER_METRICS_SERVICE }),
                    logstoreRules({ namespace: DEFAULTS.logstore.namespace, cluster: ELASTICSEARCH_NAME }),
                ],
            },
            stateful("prometheus"),
        ),
    }),
    namespaces: () => [DEFAULTS.prometheus.namespace],
};
