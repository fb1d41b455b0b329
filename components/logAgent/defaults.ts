/**
 * The log agent's defaults and chart pin, as data. The chart catalogue (contracts/charts.ts) and the defaults table
 * (contracts/defaults.ts) take their log agent entries from here, so the pin is written once, in the unit, and every
 * reader of the catalogue still finds it there. Imports nothing: any module may read a unit's data
 * (test/package/layers.test.ts).
 */

/**
 * The Fluent Bit chart: where it comes from, the version pinned, and how long Helm may wait for it. `maraChart` is
 * the chart MARA's `logagent:chart_name` named (Elastic's Filebeat), whose version keys are ignored.
 */
export const LOG_AGENT_CHART = {
    title: "Fluent Bit log agent",
    chart: "fluent-bit",
    repositoryUrl: "https://fluent.github.io/helm-charts",
    version: "0.58.1",
    timeoutSeconds: 600,
    maraChart: "filebeat",
} as const;

/** Defaults of {@link LogAgentArgs}'s arguments. */
export const LOG_AGENT_DEFAULTS = { namespace: "logagent", elasticsearchPort: 9200 } as const;
