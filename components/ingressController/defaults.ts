/**
 * The NGINX Ingress Controller's defaults, its image's defaults, its chart pin and the controller flags each recorded
 * chart version renders, as data. The chart catalogue (contracts/charts.ts) and the defaults table
 * (contracts/defaults.ts) take their entries from here, so the pin is written once, in the unit; the rules that read
 * the flags are settings.ts's. Imports nothing (test/package/layers.test.ts).
 */

/** The nginx-ingress chart (NGINX Inc's). A new pin needs its controller flags recorded (KIC_CHARTS below). */
export const INGRESS_CONTROLLER_CHART = {
    title: "NGINX Ingress Controller",
    chart: "nginx-ingress",
    repositoryUrl: "https://helm.nginx.com/stable",
    version: "2.6.4",
    timeoutSeconds: 600,
} as const;

/** Defaults of {@link IngressControllerArgs}'s arguments. */
export const INGRESS_CONTROLLER_DEFAULTS = {
    namespace: "nginx-ingress",
    nginxPlus: false,
    replicas: 1,
    serviceType: "LoadBalancer",
    loadBalancerAddress: "hostname",
    ingressClassName: "nginx",
} as const;

/** Defaults of {@link IngressControllerImageArgs}'s arguments: the image the controller runs, and how it is pulled or built. */
export const INGRESS_CONTROLLER_IMAGE_DEFAULTS = {
    origin: "registry",
    // The controller release matching the pinned nginx-ingress chart (its appVersion).
    imageName: "nginx/nginx-ingress:5.5.4",
    makeTarget: "debian-image",
    // The git repository at the release of the default image (KIC_VERSION in contracts/defaults.ts; a test keeps them equal).
    source: "https://github.com/nginx/kubernetes-ingress.git#v5.5.4",
    version: "source",
    alwaysRebuild: false,
    platform: "linux/amd64",
} as const;

// ---- Which controller images the pinned chart runs ------------------------------------------------
// Which NGINX Ingress Controller images a pinned nginx-ingress chart can run. The chart renders the controller's
// command-line flags; a controller older than a flag exits with "flag provided but not defined" and the pod
// crash-loops until the Helm release times out. So an image is supported by a chart version when it defines
// every flag that chart's templates can render.
//
// How the data was derived (and how to refresh it when a chart pin moves):
// - `CHART_FLAGS`: every `- -<flag>` the chart's templates contain (`templates/_helpers.tpl`, the controller's
//   args; the debugger's `--listen` family belongs to dlv, not the controller), read from the vendored archive.
//   A test compares this list with the vendored chart, so a refreshed chart with a new flag fails until it is added.
// - `FLAG_SINCE`: the first controller release whose `cmd/nginx-ingress/*.go` (nginx/kubernetes-ingress, tags
//   v1.4.0 to v5.5.4) defines the flag with `flag.Bool/String/Int/...`. No flag was removed in that range.
// - The oldest supported image is the newest `FLAG_SINCE` among the chart's flags; the newest is the chart's
//   appVersion line (same major.minor): later controllers are untested with this chart's templates and CRDs.

/** The controller version that first defined each flag the nginx-ingress chart can render. */
export const FLAG_SINCE: Readonly<Record<string, string>> = {
    "agent": "3.5.0",
    "agent-instance-group": "3.5.0",
    "allow-empty-ingress-host": "5.5.0",
    "app-protect-dos-debug": "2.1.0",
    "app-protect-dos-max-daemons": "2.1.0",
    "app-protect-dos-max-workers": "2.1.0",
    "app-protect-dos-memory": "2.1.0",
    "app-protect-enforcer-address": "3.6.0",
    "app-protect-log-level": "2.2.0",
    "default-http-listener-port": "3.4.0",
    "default-https-listener-port": "3.4.0",
    "default-server-tls-secret": "1.4.0",
    "disable-ipv6": "2.4.0",
    "enable-app-protect": "1.8.0",
    "enable-app-protect-dos": "2.1.0",
    "enable-app-protect-ip-intelligence": "5.5.0",
    "enable-cert-manager": "2.2.0",
    "enable-config-safety": "5.4.0",
    "enable-custom-resources": "1.5.0",
    "enable-directive-autoadjust": "5.2.0",
    "enable-external-dns": "2.3.0",
    "enable-latency-metrics": "1.9.0",
    "enable-leader-election": "1.4.0",
    "enable-oidc": "2.2.0",
    "enable-prometheus-metrics": "1.5.0",
    "enable-service-insight": "3.0.0",
    "enable-snippets": "1.8.0",
    "enable-telemetry-reporting": "3.5.0",
    "enable-tls-passthrough": "1.7.0",
    "external-service": "1.4.0",
    "global-configuration": "1.7.0",
    "health-status": "1.4.0",
    "health-status-uri": "1.6.0",
    "ingress-class": "1.4.0",
    "ingresslink": "1.10.0",
    "leader-election-lock-name": "1.5.0",
    "log-format": "4.0.0",
    "log-level": "4.0.0",
    "mgmt-configmap": "4.0.0",
    "nginx-configmaps": "1.4.0",
    "nginx-debug": "1.4.0",
    "nginx-plus": "1.4.0",
    "nginx-reload-timeout": "1.8.0",
    "nginx-status": "1.4.0",
    "nginx-status-allow-cidrs": "1.4.0",
    "nginx-status-port": "1.4.0",
    "prometheus-metrics-listen-port": "1.5.0",
    "prometheus-tls-secret": "1.12.0",
    "ready-status": "1.8.0",
    "ready-status-port": "1.8.0",
    "report-ingress-status": "1.4.0",
    "service-insight-listen-port": "3.0.0",
    "service-insight-tls-secret": "3.0.0",
    "ssl-dynamic-reload": "3.4.0",
    "tls-passthrough-port": "3.3.0",
    "watch-namespace": "1.4.0",
    "watch-namespace-label": "3.0.0",
    "watch-secret-namespace": "3.0.0",
    "weight-changes-dynamic-reload": "3.5.0",
    "wildcard-tls-secret": "1.5.0",
};

/** What a pinned nginx-ingress chart version renders and runs. */
export interface KicChartFacts {
    /** The chart's appVersion: the controller version it is released with. */
    readonly appVersion: string;
    /** Every controller flag the chart's templates can render, whatever the values. */
    readonly flags: readonly string[];
}

/** Facts per pinned nginx-ingress chart version (see the module comment for how they were derived). */
export const KIC_CHARTS: Readonly<Record<string, KicChartFacts>> = {
    "2.6.4": {
        appVersion: "5.5.4",
        flags: Object.keys(FLAG_SINCE),
    },
};

/** The type token of the IngressControllerImage component (components/ingressController/image.ts). */
export const INGRESS_CONTROLLER_IMAGE_TYPE = "mara:registry:IngressControllerImage";
/** Its type token until 0.2.0 (`KicImage`), which stacks deployed before hold: aliases name it. */
export const KIC_IMAGE_TYPE = "mara:registry:KicImage";
