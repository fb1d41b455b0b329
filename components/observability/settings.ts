/**
 * Observability's section of the validated configuration (`MaraConfig.observability`). Read by config/validate.ts,
 * which resolves the keys (keys.ts) and hands this module the lookups; its one key has no rule beyond its type.
 */
import type { ChartSettings } from "../../contracts";
import type { Lookup } from "../../config/lookup";
import type { COLLECTOR_VARIANTS } from "./defaults";

/** Observability's validated settings (`MaraConfig.observability`). */
export interface ObservabilitySettings {
    /** The OpenTelemetry operator's chart: the catalogue's pin, or the version, mirror, timeout and archive the stack sets. */
    readonly otelOperatorChart: ChartSettings;
    /** The collector's configuration (`mara:otelCollectorVariant`). */
    readonly collectorVariant: (typeof COLLECTOR_VARIANTS)[number];
}

/** The section from the resolved keys and the chart the validation settled on (version, mirror, archive). */
export function observabilitySettings({ d }: Pick<Lookup, "d">, otelOperatorChart: ChartSettings): ObservabilitySettings {
    return { otelOperatorChart, collectorVariant: d("otelCollectorVariant") };
}
