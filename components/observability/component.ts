import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { CHARTS, ChartSettings, DEFAULTS } from "../../contracts";
import { helmRelease, platformNamespace } from "../helmRelease";
import { guardedOptions } from "../ownership/guard";
import { COLLECTOR_VARIANTS } from "./defaults";

export { COLLECTOR_VARIANTS } from "./defaults";
/** One of {@link COLLECTOR_VARIANTS}; see {@link ObservabilityArgs.collectorVariant}. */
export type CollectorVariant = (typeof COLLECTOR_VARIANTS)[number];

/** Arguments of {@link Observability}. */
export interface ObservabilityArgs {
    /** opentelemetry-operator chart coordinates. Default: the catalogue entry. */
    chart?: ChartSettings;
    /** Namespace of the operator and the collector. Default `observability`. */
    namespace?: string;
    /**
     * `basic` (default): OTLP in, batched, summarised to the collector's log. `debug`: the same with every
     * span logged in detail. `full`: adds Zipkin and Jaeger receivers and exposes span metrics to Prometheus.
     */
    collectorVariant?: CollectorVariant;
    /** OTLP gRPC port. Default 9978 (MARA's; Bank of Sirius and the ingress controller send here). */
    grpcPort?: number;
    /** OTLP HTTP port. Default 9979. */
    httpPort?: number;
}

/** Collector image for the `full` variant, matching the operator chart's collector version. */
export const CONTRIB_COLLECTOR_IMAGE = "ghcr.io/open-telemetry/opentelemetry-collector-releases/opentelemetry-collector-contrib:0.158.0";

/** Name of the collector; the operator names its Service `<name>-collector`. */
export const COLLECTOR_NAME = "simplest";

/**
 * The OpenTelemetry operator from its Helm chart and one `OpenTelemetryCollector` ("simplest", as in
 * MARA) as a typed custom resource. The operator's webhook certificate comes from cert-manager, so pass
 * the CertManager in `opts.dependsOn`; the collector is created after the operator release, whose
 * readiness wait covers the webhook.
 */
export class Observability extends pulumi.ComponentResource {
    /** Namespace of the collector. */
    public readonly namespace: pulumi.Output<string>;
    /** OTLP gRPC endpoint (`host:port`) for traces. */
    public readonly otlpGrpcEndpoint: pulumi.Output<string>;
    /** OTLP HTTP endpoint (`http://host:port`). */
    public readonly otlpHttpEndpoint: pulumi.Output<string>;
    /** Status of the operator's Helm release. */
    public readonly status: pulumi.Output<string>;

    constructor(name: string, args: ObservabilityArgs = {}, opts?: pulumi.ComponentResourceOptions) {
        super("mara:observability:Observability", name, {}, guardedOptions(name, opts));
        const variant = args.collectorVariant ?? DEFAULTS.observability.collectorVariant;
        if (!COLLECTOR_VARIANTS.includes(variant)) {
            throw new Error(`Observability: collectorVariant "${variant}" is not one of ${COLLECTOR_VARIANTS.join(", ")}.`);
        }
        const grpcPort = args.grpcPort ?? DEFAULTS.observability.grpcPort;
        const httpPort = args.httpPort ?? DEFAULTS.observability.httpPort;
        for (const [key, port] of [["grpcPort", grpcPort], ["httpPort", httpPort]] as const) {
            if (!Number.isInteger(port) || port < 1024 || port > 65535) throw new Error(`Observability: ${key} must be a port from 1024 to 65535; got ${port}.`);
            const taken = reservedPorts(variant)[port];
            if (taken) throw new Error(`Observability: ${key} ${port} is the collector's ${taken} port; choose another.`);
        }
        if (grpcPort === httpPort) throw new Error(`Observability: grpcPort and httpPort must differ; both are ${grpcPort}.`);
        // Baseline: the operator starts the collector's pods with no securityContext (docs/policy.md).
        const ns = platformNamespace(`${name}-ns`, args.namespace ?? DEFAULTS.observability.namespace, "baseline", {}, { parent: this, dependsOn: opts?.dependsOn });
        const operator = helmRelease(
            `${name}-operator`,
            {
                release: "opentelemetry-operator",
                namespace: ns.metadata.name,
                chart: args.chart ?? CHARTS.otelOperator,
                values: { admissionWebhooks: { certManager: { enabled: true } } },
            },
            { parent: this },
        );
        const collector = new k8s.apiextensions.CustomResource(
            `${name}-collector`,
            {
                apiVersion: "opentelemetry.io/v1beta1",
                kind: "OpenTelemetryCollector",
                metadata: { name: COLLECTOR_NAME, namespace: ns.metadata.name },
                spec: {
                    mode: "deployment",
                    // The Zipkin and Jaeger receivers and the span-metrics connector are only in the contrib distribution.
                    ...(variant === "full" ? { image: CONTRIB_COLLECTOR_IMAGE } : {}),
                    config: collectorConfig(variant, grpcPort, httpPort),
                },
            },
            { parent: this, dependsOn: [operator] },
        );
        const host = pulumi.interpolate`${collector.metadata.name}-collector.${ns.metadata.name}.svc.cluster.local`;
        this.namespace = ns.metadata.name;
        this.otlpGrpcEndpoint = pulumi.interpolate`${host}:${grpcPort}`;
        this.otlpHttpEndpoint = pulumi.interpolate`http://${host}:${httpPort}`;
        this.status = operator.status.status;
        this.registerOutputs({ namespace: this.namespace, otlpGrpcEndpoint: this.otlpGrpcEndpoint, otlpHttpEndpoint: this.otlpHttpEndpoint, status: this.status });
    }
}

/** Ports the collector listens on besides OTLP, by variant; an OTLP port on one of them could not bind. */
function reservedPorts(variant: CollectorVariant): Record<number, string> {
    const always: Record<number, string> = { 8888: "own metrics" };
    return variant === "full" ? { ...always, 9411: "Zipkin", 14250: "Jaeger gRPC", 14268: "Jaeger HTTP", 8889: "Prometheus exporter", 13133: "health check" } : always;
}

/**
 * The collector's OTLP gRPC address, known before anything is deployed. Clients that only need to send
 * to it take this plain string rather than the component's output, so they do not wait for the operator
 * and collector to be installed (spans sent earlier are simply dropped).
 */
export function collectorGrpcEndpoint(namespace: string = DEFAULTS.observability.namespace, grpcPort: number = DEFAULTS.observability.grpcPort): string {
    return `${COLLECTOR_NAME}-collector.${namespace}.svc.cluster.local:${grpcPort}`;
}

/** The collector pipeline for a variant (OpenTelemetryCollector v1beta1 `spec.config`). */
export function collectorConfig(variant: CollectorVariant, grpcPort: number, httpPort: number): Record<string, unknown> {
    const otlp = { protocols: { grpc: { endpoint: `0.0.0.0:${grpcPort}` }, http: { endpoint: `0.0.0.0:${httpPort}` } } };
    const debug = { verbosity: variant === "debug" ? "detailed" : "basic" };
    if (variant !== "full") {
        return {
            receivers: { otlp },
            processors: { batch: {} },
            exporters: { debug },
            service: { pipelines: { traces: { receivers: ["otlp"], processors: ["batch"], exporters: ["debug"] } } },
        };
    }
    return {
        receivers: { otlp, zipkin: { endpoint: "0.0.0.0:9411" }, jaeger: { protocols: { grpc: { endpoint: "0.0.0.0:14250" }, thrift_http: { endpoint: "0.0.0.0:14268" } } } },
        processors: { batch: {} },
        connectors: { spanmetrics: {} },
        exporters: { debug, prometheus: { endpoint: "0.0.0.0:8889" } },
        extensions: { health_check: { endpoint: "0.0.0.0:13133" } },
        service: {
            extensions: ["health_check"],
            pipelines: {
                traces: { receivers: ["otlp", "zipkin", "jaeger"], processors: ["batch"], exporters: ["debug", "spanmetrics"] },
                metrics: { receivers: ["spanmetrics"], processors: ["batch"], exporters: ["prometheus"] },
            },
        },
    };
}
