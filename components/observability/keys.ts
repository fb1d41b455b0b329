/**
 * Observability's configuration keys: the `Observability` group (the collector's configuration) and the OpenTelemetry
 * operator chart's keys. Declared with the key machinery (config/keySpec.ts) and spread into the key table
 * (config/keys.ts), so `mara validate`, Pulumi.yaml, docs/configuration.md and the prompts read them as every
 * other key.
 */
import { chartKeys, spec } from "../../config/keySpec";
import { oneOf } from "../../config/valueTypes";
import { COLLECTOR_VARIANTS, OBSERVABILITY_DEFAULTS } from "./defaults";

/** The `Observability` group. */
export const OBSERVABILITY_KEYS = {
    otelCollectorVariant: spec({
        key: "mara:otelCollectorVariant",
        type: oneOf(COLLECTOR_VARIANTS),
        default: OBSERVABILITY_DEFAULTS.collectorVariant,
        description: "OpenTelemetry collector configuration: basic (OTLP, batched, logged), debug (every span logged) or full (adds Zipkin/Jaeger receivers and span metrics for Prometheus).",
        group: "Observability",
    }),
} as const;

/** The OpenTelemetry operator chart's version, repository and timeout keys (MARA had none). */
export const OBSERVABILITY_CHART_KEYS = chartKeys("otelOperator", "Observability", {});
