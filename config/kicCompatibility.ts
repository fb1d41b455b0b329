/**
 * Which NGINX Ingress Controller images a pinned nginx-ingress chart can run. The chart renders the controller's
 * command-line flags; a controller older than a flag exits with "flag provided but not defined" and the pod
 * crash-loops until the Helm release times out. So an image is supported by a chart version when it defines
 * every flag that chart's templates can render.
 *
 * How the data was derived (and how to refresh it when a chart pin moves):
 * - `CHART_FLAGS`: every `- -<flag>` the chart's templates contain (`templates/_helpers.tpl`, the controller's
 *   args; the debugger's `--listen` family belongs to dlv, not the controller), read from the vendored archive.
 *   A test compares this list with the vendored chart, so a refreshed chart with a new flag fails until it is added.
 * - `FLAG_SINCE`: the first controller release whose `cmd/nginx-ingress/*.go` (nginx/kubernetes-ingress, tags
 *   v1.4.0 to v5.5.4) defines the flag with `flag.Bool/String/Int/...`. No flag was removed in that range.
 * - The oldest supported image is the newest `FLAG_SINCE` among the chart's flags; the newest is the chart's
 *   appVersion line (same major.minor): later controllers are untested with this chart's templates and CRDs.
 */

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

/** A controller version as numbers, from an image tag such as `5.5.4`, `v5.5.4` or `5.5.4-ubi`. */
export function controllerVersion(tag: string): [number, number, number] | undefined {
    const m = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(tag);
    return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

const cmp = (a: readonly number[], b: readonly number[]) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;

/** The flags in `flags` that the controller at `version` does not define (unknown flags count as undefined). */
export function flagsUndefinedBy(version: string, flags: readonly string[]): string[] {
    const v = controllerVersion(version);
    return flags.filter((f) => {
        const since = FLAG_SINCE[f];
        return !v || since === undefined || cmp(v, controllerVersion(since)!) < 0;
    });
}

/** The range of controller versions a chart version runs: from the newest flag it renders to its appVersion line. */
export function supportedImageRange(chartVersion: string): { oldest: string; newest: string } | undefined {
    const facts = KIC_CHARTS[chartVersion];
    if (!facts) return undefined;
    const oldest = facts.flags
        .map((f) => FLAG_SINCE[f]!)
        .reduce((a, b) => (cmp(controllerVersion(a)!, controllerVersion(b)!) >= 0 ? a : b));
    const [major, minor] = controllerVersion(facts.appVersion)!;
    return { oldest, newest: `${major}.${minor}.x` };
}

/**
 * Whether the controller image tag `tag` can run with nginx-ingress chart `chartVersion`: a reason when it
 * cannot (or cannot be told), undefined when it can.
 */
export function kicImageProblem(chartVersion: string, tag: string): string | undefined {
    const range = supportedImageRange(chartVersion);
    if (!range) return `nginx-ingress chart ${chartVersion} has no recorded controller compatibility (config/kicCompatibility.ts knows ${Object.keys(KIC_CHARTS).join(", ")})`;
    const v = controllerVersion(tag);
    if (!v) return `image tag "${tag}" is not a controller version, so its compatibility with nginx-ingress chart ${chartVersion} (controller ${range.oldest} to ${range.newest}) cannot be checked`;
    const missing = flagsUndefinedBy(tag, KIC_CHARTS[chartVersion]!.flags);
    const [major, minor] = controllerVersion(KIC_CHARTS[chartVersion]!.appVersion)!;
    if (missing.length > 0 || v[0] !== major || v[1] > minor) {
        return `controller ${tag} is outside ${range.oldest} to ${range.newest}, the versions nginx-ingress chart ${chartVersion} runs` +
            (missing.length > 0 ? ` (it does not define ${missing.map((f) => `-${f}`).join(", ")})` : "");
    }
    return undefined;
}
