/**
 * Observability's defaults and chart pin, as data: the chart catalogue (contracts/charts.ts) and the defaults table
 * (contracts/defaults.ts) take their OpenTelemetry operator and Observability entries from here. Imports nothing
 * (test/package/layers.test.ts).
 */

/** Collector configurations to choose from (MARA's `otel-objects` variants): the component's and `mara:otelCollectorVariant`'s. */
export const COLLECTOR_VARIANTS = ["basic", "debug", "full"] as const;

/** The OpenTelemetry operator's chart; the operator runs the collector the component declares. */
export const OTEL_OPERATOR_CHART = {
    title: "OpenTelemetry operator",
    chart: "opentelemetry-operator",
    repositoryUrl: "https://open-telemetry.github.io/opentelemetry-helm-charts",
    version: "0.122.0",
    timeoutSeconds: 600,
} as const;

/** Defaults of {@link ObservabilityArgs}'s arguments. */
export const OBSERVABILITY_DEFAULTS = { namespace: "observability", collectorVariant: "basic", grpcPort: 9978, httpPort: 9979 } as const;
