/**
 * The log store's defaults and chart pin, as data. The chart catalogue (contracts/charts.ts) and the defaults table
 * (contracts/defaults.ts) take their logstore entries from here, so the pin is written once, in the unit, and every
 * reader of the catalogue still finds it there. Imports nothing: any module may read a unit's data
 * (test/package/layers.test.ts).
 */

/**
 * The ECK operator chart: where it comes from, the version pinned, and how long Helm may wait for it. `maraChart` is
 * the chart MARA's `logstore:chart_name` named (Bitnami's Elasticsearch), whose version keys are ignored.
 */
export const LOGSTORE_CHART = {
    title: "Elastic Cloud on Kubernetes operator (Elasticsearch and Kibana)",
    chart: "eck-operator",
    repositoryUrl: "https://helm.elastic.co",
    version: "3.5.0",
    timeoutSeconds: 900,
    maraChart: "elasticsearch",
} as const;

/** Defaults of {@link LogstoreArgs}'s arguments (the Elastic version is ECK 3.5's default stack version). */
export const LOGSTORE_DEFAULTS = {
    namespace: "logstore",
    version: "9.5.0",
    replicas: { master: 1, data: 1, ingest: 1, coordinating: 1 },
    storageSize: "10Gi",
    kibanaObjects: true,
} as const;
