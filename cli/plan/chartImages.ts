/**
 * The container images each pinned chart version runs with the platform's values, other than images the values
 * themselves set (the ingress controller's): its pods, its hook jobs, and the pods its operator starts for the
 * platform's custom resources (Prometheus and Alertmanager, the OpenTelemetry collector, cert-manager's HTTP-01
 * solver). Helm test pods (`helm.sh/hook: test`) are left out: `pulumi up` never runs `helm test`.
 *
 * A chart decides these by its version, so `mara plan` can list them without Helm; the render tier
 * (test/render/images.test.ts) renders every release with Helm and fails when this table misses an image the
 * chart renders, or names one it does not, printing the entry to write. Update it with the chart pin
 * (docs/upgrading.md).
 */
export const CHART_IMAGES: Readonly<Record<string, readonly string[]>> = {
    "cert-manager@v1.21.1": [
        "quay.io/jetstack/cert-manager-acmesolver:v1.21.1",
        "quay.io/jetstack/cert-manager-cainjector:v1.21.1",
        "quay.io/jetstack/cert-manager-controller:v1.21.1",
        "quay.io/jetstack/cert-manager-startupapicheck:v1.21.1",
        "quay.io/jetstack/cert-manager-webhook:v1.21.1",
    ],
    "eck-operator@3.5.0": ["docker.elastic.co/eck/eck-operator:3.5.0"],
    "fluent-bit@0.58.1": ["cr.fluentbit.io/fluent/fluent-bit:5.1.1"],
    "kube-prometheus-stack@88.5.3": [
        "docker.io/grafana/grafana:13.2.0",
        "docker.io/library/busybox:1.38.0",
        "ghcr.io/jkroepke/kube-webhook-certgen:1.8.7",
        "quay.io/kiwigrid/k8s-sidecar:2.10.1",
        "quay.io/prometheus-operator/prometheus-config-reloader:v0.93.1",
        "quay.io/prometheus-operator/prometheus-operator:v0.93.1",
        "quay.io/prometheus/alertmanager:v0.34.0",
        "quay.io/prometheus/node-exporter:v1.12.1-distroless",
        "quay.io/prometheus/prometheus:v3.14.0-distroless",
        "registry.k8s.io/kube-state-metrics/kube-state-metrics:v2.20.0",
    ],
    // frr-k8s's two images run only with BGP peers (components/metalLb/component.ts); the table lists what the chart can run.
    "metallb@0.16.1": ["quay.io/frrouting/frr:10.4.3", "quay.io/metallb/controller:v0.16.1", "quay.io/metallb/frr-k8s:v0.0.25", "quay.io/metallb/speaker:v0.16.1"],
    // The provisioner's image is set by the values (components/nfsStorage/component.ts, mara:nfsProvisionerImage).
    "nfs-subdir-external-provisioner@4.0.18": [],
    "nginx-ingress@2.6.4": [],
    "opentelemetry-operator@0.122.0": ["ghcr.io/open-telemetry/opentelemetry-operator/opentelemetry-operator:0.158.0"],
    "prometheus-postgres-exporter@8.2.0": ["quay.io/prometheuscommunity/postgres-exporter:v0.20.1"],
    "prometheus-statsd-exporter@1.0.0": ["prom/statsd-exporter:v0.28.0"],
};
