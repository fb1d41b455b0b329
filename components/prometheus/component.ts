import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { CHARTS, ChartSettings, ControlPlaneMetrics, CrdManifest, DEFAULTS, PATTERNS, requireMatch, UNREACHABLE_CONTROL_PLANE } from "../../contracts";
import { chartCrdResources } from "../chartCrds";
import { grafanaAdminInitContainer } from "./grafanaAdmin";
import { DASHBOARD_FOLDER_ANNOTATION, DASHBOARD_LABEL, grafanaDashboard } from "../grafanaDashboards";
import { secretsRevision } from "../passwordRotation";
import { helmRelease, platformNamespace } from "../helmRelease";
import { guardedOptions } from "../ownership/guard";
import { alertmanagerConfig } from "../alerts/alertmanagerConfig";
import { AlertingArgs, alertingProblems, RECEIVERS_SECRET, receiverSecretData } from "../alerts/receivers";
import { AlertRuleGroup, alertRules } from "../alerts/rules";

/** A Service whose metrics Prometheus should scrape. */
export interface ScrapeTarget {
    /** Namespace of the Service. */
    namespace: pulumi.Input<string>;
    /** Labels selecting the Service. */
    selector: Record<string, string>;
    /** Name of the Service port serving `/metrics`. */
    port: string;
    /** Scrape interval. Default `15s`. */
    interval?: string;
    /**
     * Keep the labels the target serves where they collide with the target's own (`namespace`, `service`), instead of
     * renaming them `exported_*`: for an exporter whose `namespace` label names what it reports on. Default false.
     */
    honorLabels?: boolean;
}

/** Arguments of {@link Prometheus}. */
export interface PrometheusArgs {
    /** kube-prometheus-stack chart coordinates. Default: the catalogue entry. */
    chart?: ChartSettings;
    /** prometheus-statsd-exporter chart coordinates. Default: the catalogue entry. */
    statsdChart?: ChartSettings;
    /** Namespace. Default `prometheus`. */
    namespace?: string;
    /**
     * Grafana administrator password (from the Secrets component). Secret; required, never a literal default. A
     * changed password restarts Grafana, whose init container applies it to the existing database (grafanaAdmin.ts).
     */
    grafanaAdminPassword: pulumi.Input<string>;
    /** Prometheus volume size. Default `10Gi`. */
    storageSize?: string;
    /** Grafana and Alertmanager volume size. Default `5Gi`. */
    dashboardStorageSize?: string;
    /**
     * StorageClass of the volumes. Pass the class resource's `metadata.name` (an Output) when the class is created
     * in the same stack, so the release, and the claims it makes, wait for the class. Default: the cluster's default class.
     */
    storageClassName?: pulumi.Input<string>;
    /**
     * The ingress controller's metrics Service, scraped through a ServiceMonitor when given; Grafana then gets
     * the controller's dashboard.
     */
    ingressControllerMetrics?: ScrapeTarget;
    /** The ingress controller runs NGINX Plus: its dashboard is NGINX's Plus dashboard instead of the open-source one. Default false. */
    ingressControllerPlus?: boolean;
    /** cert-manager's metrics Service, scraped through a ServiceMonitor when given (the certificate alerts read it). */
    certManagerMetrics?: ScrapeTarget;
    /**
     * Alertmanager's receivers (Slack, PagerDuty, email, a webhook) and repeat intervals (docs/alerts.md). The
     * credentials go into the Secret `alertmanager-receivers`, which Alertmanager reads as files. Default: no receiver
     * (alerts are routed, and dropped).
     */
    alerting?: AlertingArgs;
    /** Alert rules to install as PrometheusRules (`mara-<component>`), after the release that installs their CRD. Default none. */
    alertRules?: readonly AlertRuleGroup[];
    /** Where each alert's `runbook_url` points: the address of docs/alerts.md, plus the alert's anchor. Default `docs/alerts.md`. */
    alertRunbookUrl?: string;
    /**
     * Which control-plane components to scrape (and alert on): only those the cluster exposes, or their "target
     * down" alerts fire from the first day. The cluster facts say which (`PlatformFacts.controlPlaneMetrics`).
     * Default: none of them, as on managed clusters (EKS, DOKS, LKE).
     */
    controlPlaneMetrics?: ControlPlaneMetrics;
    /**
     * Apply the CRDs of the chart's `crds/` directory (the Prometheus operator's) with server-side apply before
     * the release, and again on every chart bump; they are never deleted. Default true. False leaves them to
     * Helm, which installs them once and never upgrades them (for a cluster whose operator CRDs another team owns).
     */
    applyCrds?: boolean;
    /**
     * The CRDs to apply. Default: those the package ships for `chart`'s version (its pinned version); for
     * another version, pass that version's CRDs or Helm installs them once (with a warning).
     */
    crds?: readonly CrdManifest[];
}

/** The Secret with Grafana's administrator user and password (keys `admin-user`, `admin-password`). */
export const GRAFANA_ADMIN_SECRET = "grafana-admin";

/** Helm release name; the chart names Services `prometheus-kube-prometheus-…` and `prometheus-grafana` from it. */
export const PROMETHEUS_RELEASE = "prometheus";
/** Helm release name of the statsd exporter; its Service is `statsd-prometheus-statsd-exporter`. */
export const STATSD_RELEASE = "statsd";

/** In-cluster host of the statsd exporter when the component runs in `namespace` (what {@link Prometheus.statsdHost} reports). */
export function statsdHostIn(namespace: string): string {
    return `${STATSD_RELEASE}-prometheus-statsd-exporter.${namespace}.svc.cluster.local`;
}

/**
 * kube-prometheus-stack (Prometheus, Alertmanager, Grafana, the Prometheus operator and its CRDs) with
 * persistent volumes, every ServiceMonitor in the cluster selected, Grafana's admin password taken from a
 * Kubernetes Secret, a ServiceMonitor for the ingress controller, and the statsd exporter Bank of Sirius
 * reports to. ServiceMonitors are created after the release that installs their CRD.
 */
export class Prometheus extends pulumi.ComponentResource {
    /** Namespace of the monitoring stack. */
    public readonly namespace: pulumi.Output<string>;
    /** In-cluster address of Prometheus (`host:port`). MARA's `prom_hostname` named a Service that did not exist. */
    public readonly prometheusAddress: pulumi.Output<string>;
    /** In-cluster address of Grafana (`host:port`). */
    public readonly grafanaAddress: pulumi.Output<string>;
    /** In-cluster address of Alertmanager (`host:port`). */
    public readonly alertmanagerAddress: pulumi.Output<string>;
    /** In-cluster host of the statsd exporter (UDP and TCP 9125). */
    public readonly statsdHost: pulumi.Output<string>;
    /** Status of the kube-prometheus-stack release. */
    public readonly status: pulumi.Output<string>;
    /** Status of the statsd exporter's release. */
    public readonly statsdStatus: pulumi.Output<string>;

    constructor(name: string, args: PrometheusArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:observability:Prometheus", name, {}, guardedOptions(name, opts));
        for (const [key, size] of [["storageSize", args.storageSize], ["dashboardStorageSize", args.dashboardStorageSize]] as const) {
            if (size !== undefined) requireMatch("Prometheus", key, size, PATTERNS.volumeSize);
        }
        const problems = args.alerting ? alertingProblems(args.alerting) : [];
        if (problems.length > 0) throw new Error(`Prometheus: ${problems.join(" ")}`);
        // Privileged: the node exporter reads the host's /proc, /sys and / with its network and PID namespaces (docs/policy.md).
        const ns = platformNamespace(`${name}-ns`, args.namespace ?? DEFAULTS.prometheus.namespace, "privileged", {}, { parent: this, dependsOn: opts?.dependsOn });
        const admin = new k8s.core.v1.Secret(
            `${name}-grafana-admin`,
            {
                metadata: { name: GRAFANA_ADMIN_SECRET, namespace: ns.metadata.name },
                stringData: { "admin-user": "admin", "admin-password": pulumi.secret(args.grafanaAdminPassword) },
            },
            { parent: this },
        );
        // The receivers' credentials, which Alertmanager reads as files from this Secret (components/alerts/receivers.ts).
        const credentials = Object.entries(args.alerting ? receiverSecretData(args.alerting) : {});
        const receivers =
            credentials.length > 0
                ? new k8s.core.v1.Secret(
                      `${name}-alertmanager-receivers`,
                      { metadata: { name: RECEIVERS_SECRET, namespace: ns.metadata.name }, stringData: Object.fromEntries(credentials.map(([k, v]) => [k, pulumi.secret(v)])) },
                      { parent: this },
                  )
                : undefined;
        const chart = args.chart ?? CHARTS.prometheus;
        const crds = chartCrdResources(name, chart, { apply: args.applyCrds, crds: args.crds, component: "Prometheus" }, { parent: this, dependsOn: opts?.dependsOn });
        const release = helmRelease(
            `${name}-release`,
            {
                release: PROMETHEUS_RELEASE,
                namespace: ns.metadata.name,
                chart,
                skipCrds: crds.skipCrds,
                // The Secret's resource version rolls Grafana when its password changes (grafanaAdmin.ts).
                values: pulumi.all([admin.metadata.name, args.storageClassName, pulumi.all(secretsRevision([GRAFANA_ADMIN_SECRET], { [GRAFANA_ADMIN_SECRET]: admin }))]).apply(([secret, storageClassName, revision]) =>
                    prometheusValues({
                        grafanaAdminSecret: secret,
                        grafanaPodAnnotations: revision,
                        storageSize: args.storageSize ?? DEFAULTS.prometheus.storageSize,
                        dashboardStorageSize: args.dashboardStorageSize ?? DEFAULTS.prometheus.dashboardStorageSize,
                        storageClassName,
                        controlPlaneMetrics: args.controlPlaneMetrics,
                        alertmanagerConfig: alertmanagerConfig(args.alerting),
                        alertmanagerSecrets: receivers ? [RECEIVERS_SECRET] : [],
                    }),
                ),
            },
            // The Alertmanager pods mount the receivers' Secret: it exists before the operator starts them.
            { parent: this, dependsOn: [...crds.resources, ...(receivers ? [receivers] : [])] },
        );

        if (args.ingressControllerMetrics) {
            serviceMonitor(`${name}-nginx-ingress`, "nginx-ingress", ns.metadata.name, args.ingressControllerMetrics, { parent: this, dependsOn: [release] });
            grafanaDashboard(`${name}-dashboard-nginx`, args.ingressControllerPlus ? "nginx-plus-ingress-controller" : "nginx-ingress-controller", ns.metadata.name, { parent: this });
        }
        if (args.certManagerMetrics) serviceMonitor(`${name}-cert-manager`, "cert-manager", ns.metadata.name, args.certManagerMetrics, { parent: this, dependsOn: [release] });
        for (const group of args.alertRules ?? []) {
            alertRules(`${name}-alerts-${group.component}`, group, ns.metadata.name, args.alertRunbookUrl, { parent: this, dependsOn: [release] });
        }
        const statsd = helmRelease(
            `${name}-statsd`,
            {
                release: STATSD_RELEASE,
                namespace: ns.metadata.name,
                chart: args.statsdChart ?? CHARTS.statsd,
                values: ns.metadata.name.apply((namespace) => ({
                    serviceMonitor: { enabled: true, namespace },
                    serviceAccount: { create: true },
                    statsd: { mappingConfig: GUNICORN_STATSD_MAPPING },
                })),
            },
            { parent: this, dependsOn: [release] },
        );

        const svc = (service: string, port: number) => pulumi.interpolate`${service}.${ns.metadata.name}.svc.cluster.local:${port}`;
        this.namespace = ns.metadata.name;
        this.prometheusAddress = svc(`${PROMETHEUS_RELEASE}-kube-prometheus-prometheus`, 9090);
        this.alertmanagerAddress = svc(`${PROMETHEUS_RELEASE}-kube-prometheus-alertmanager`, 9093);
        this.grafanaAddress = svc(`${PROMETHEUS_RELEASE}-grafana`, 80);
        this.statsdHost = pulumi.interpolate`${statsd.status.name}-prometheus-statsd-exporter.${ns.metadata.name}.svc.cluster.local`;
        this.status = release.status.status;
        this.statsdStatus = statsd.status.status;
        this.registerOutputs({
            namespace: this.namespace,
            prometheusAddress: this.prometheusAddress,
            grafanaAddress: this.grafanaAddress,
            alertmanagerAddress: this.alertmanagerAddress,
            statsdHost: this.statsdHost,
            status: this.status,
            statsdStatus: this.statsdStatus,
        });
    }
}

/** A ServiceMonitor in the monitoring namespace that scrapes `t`'s Service over HTTP. */
function serviceMonitor(name: string, monitor: string, namespace: pulumi.Input<string>, t: ScrapeTarget, opts: pulumi.CustomResourceOptions): k8s.apiextensions.CustomResource {
    return new k8s.apiextensions.CustomResource(
        name,
        {
            apiVersion: "monitoring.coreos.com/v1",
            kind: "ServiceMonitor",
            metadata: { name: monitor, namespace },
            spec: {
                namespaceSelector: { matchNames: [t.namespace] },
                selector: { matchLabels: t.selector },
                endpoints: [{ port: t.port, interval: t.interval ?? DEFAULTS.prometheus.scrapeInterval, scheme: "http", ...(t.honorLabels ? { honorLabels: true } : {}) }],
            },
        },
        opts,
    );
}

/**
 * Statsd mapping of gunicorn's metrics (what Bank of Sirius's Python services send, with the prefix
 * `<application>.<workload>`) to labelled Prometheus metrics: without it each HTTP status would be a metric of
 * its own (`bos_frontend_gunicorn_request_status_200`) and the request duration a summary without buckets.
 * The labels are `application` and `workload`, not `service`, which the ServiceMonitor sets to the exporter's
 * Service. Gunicorn sends durations in milliseconds; the exporter turns them into seconds.
 */
export const GUNICORN_STATSD_MAPPING = `mappings:
  - match: "*.*.gunicorn.request.duration"
    name: gunicorn_request_duration_seconds
    observer_type: histogram
    histogram_options:
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    labels: { application: "$1", workload: "$2" }
  - match: "*.*.gunicorn.requests"
    name: gunicorn_requests_total
    labels: { application: "$1", workload: "$2" }
  - match: "*.*.gunicorn.request.status.*"
    name: gunicorn_responses_total
    labels: { application: "$1", workload: "$2", status: "$3" }
  - match: "*.*.gunicorn.workers"
    name: gunicorn_workers
    labels: { application: "$1", workload: "$2" }
  - match: "*.*.gunicorn.log.*"
    name: gunicorn_log_messages_total
    labels: { application: "$1", workload: "$2", level: "$3" }
`;

/** What {@link prometheusValues} needs. */
export interface PrometheusValuesInput {
    /** Secret with Grafana's `admin-user` and `admin-password` keys. */
    grafanaAdminSecret: string;
    /**
     * Annotations of Grafana's pod template: the admin Secret's revision, which rolls Grafana when its password
     * changes (passwordRotation.ts). Never a value derived from the password. Default none.
     */
    grafanaPodAnnotations?: Record<string, string>;
    /** Prometheus volume size, e.g. `10Gi`. */
    storageSize: string;
    /** Grafana and Alertmanager volume size. */
    dashboardStorageSize: string;
    /** StorageClass of all three volumes; the cluster default when undefined. */
    storageClassName?: string;
    /** Which control-plane components to scrape; none when undefined. */
    controlPlaneMetrics?: ControlPlaneMetrics;
    /** Alertmanager's configuration (alerts/alertmanagerConfig.ts): file paths of credentials, never a credential. Default: the chart's. */
    alertmanagerConfig?: Record<string, unknown>;
    /** Secrets in the monitoring namespace that the Alertmanager pods mount under /etc/alertmanager/secrets/. Default none. */
    alertmanagerSecrets?: readonly string[];
}

/**
 * kube-prometheus-stack values. No secret appears here: Grafana reads its admin password from a Secret, and its init
 * container from the same Secret (grafanaAdmin.ts); Alertmanager reads its receivers' credentials as files of a
 * mounted Secret (alerts/receivers.ts).
 */
export function prometheusValues(v: PrometheusValuesInput): Record<string, unknown> {
    const claim = (size: string) => ({
        volumeClaimTemplate: {
            spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: size } }, ...(v.storageClassName ? { storageClassName: v.storageClassName } : {}) },
        },
    });
    const reach = v.controlPlaneMetrics ?? UNREACHABLE_CONTROL_PLANE;
    return {
        crds: { enabled: true },
        // Each switch also removes the component's recording and alerting rules and dashboards.
        kubeControllerManager: { enabled: reach.controllerManager },
        kubeScheduler: { enabled: reach.scheduler },
        kubeEtcd: { enabled: reach.etcd },
        kubeProxy: { enabled: reach.kubeProxy },
        prometheus: {
            prometheusSpec: {
                // Select every ServiceMonitor, PodMonitor, rule and probe in the cluster, not only this release's.
                serviceMonitorSelectorNilUsesHelmValues: false,
                podMonitorSelectorNilUsesHelmValues: false,
                ruleSelectorNilUsesHelmValues: false,
                probeSelectorNilUsesHelmValues: false,
                serviceMonitorSelector: {},
                serviceMonitorNamespaceSelector: {},
                storageSpec: claim(v.storageSize),
            },
        },
        alertmanager: {
            ...(v.alertmanagerConfig ? { config: v.alertmanagerConfig } : {}),
            alertmanagerSpec: { storage: claim(v.dashboardStorageSize), ...(v.alertmanagerSecrets?.length ? { secrets: [...v.alertmanagerSecrets] } : {}) },
        },
        grafana: {
            admin: { existingSecret: v.grafanaAdminSecret, userKey: "admin-user", passwordKey: "admin-password" },
            // Grafana reads the admin password only when it creates its database: the init container applies the
            // Secret's on every start, and a changed Secret rolls the pod (grafanaAdmin.ts).
            extraInitContainers: [grafanaAdminInitContainer({ name: v.grafanaAdminSecret, key: "admin-password" })],
            ...(v.grafanaPodAnnotations && Object.keys(v.grafanaPodAnnotations).length > 0 ? { podAnnotations: v.grafanaPodAnnotations } : {}),
            // Replaced, not rolled: two Grafanas must not share the SQLite database, nor a ReadWriteOnce volume.
            deploymentStrategy: { type: "Recreate" },
            // The dashboards the platform provisions are ConfigMaps with this label in any namespace, in the folder their annotation names.
            sidecar: {
                dashboards: {
                    enabled: true,
                    label: Object.keys(DASHBOARD_LABEL)[0],
                    labelValue: Object.values(DASHBOARD_LABEL)[0],
                    searchNamespace: "ALL",
                    folderAnnotation: DASHBOARD_FOLDER_ANNOTATION,
                    provider: { foldersFromFilesStructure: true },
                },
            },
            persistence: {
                enabled: true,
                type: "pvc",
                accessModes: ["ReadWriteOnce"],
                size: v.dashboardStorageSize,
                ...(v.storageClassName ? { storageClassName: v.storageClassName } : {}),
            },
        },
    };
}
