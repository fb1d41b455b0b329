/**
 * The log agent's section of the validated configuration. Read by config/validate.ts, which resolves its chart keys
 * (keys.ts); the section is `MaraConfig.logAgent`. The agent's keys have no rule across them.
 */
import type { ChartSettings } from "../../contracts";

/** The log agent's validated settings (`MaraConfig.logAgent`). */
export interface LogAgentSettings {
    /** The Fluent Bit chart: the catalogue's pin, or the version, mirror, timeout and archive the stack sets. */
    readonly chart: ChartSettings;
}

/** The section from the chart the validation settled on (version, mirror, archive). */
export function logAgentSettings(chart: ChartSettings): LogAgentSettings {
    return { chart };
}
