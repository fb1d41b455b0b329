/**
 * Observability's mapping from its validated settings onto the Platform's `observability` arguments: the one place
 * where its `mara:*` settings become {@link ObservabilityArgs}. Called by program/platformArgs.ts.
 */
import type { ObservabilityArgs } from "./component";
import type { ObservabilitySettings } from "./settings";

/** The operator's chart and the collector's configuration. */
export function observabilityArgsFromSettings(s: ObservabilitySettings): Pick<ObservabilityArgs, "chart" | "collectorVariant"> {
    return { chart: s.otelOperatorChart, collectorVariant: s.collectorVariant };
}
