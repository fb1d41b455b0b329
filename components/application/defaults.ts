/**
 * The application's (Bank of Sirius's) defaults and the pin of the Postgres exporter chart it installs beside each
 * database, as data. The chart catalogue (contracts/charts.ts) and the defaults table (contracts/defaults.ts) take
 * their entries from here, so the pin is written once, in the unit. Imports nothing (test/package/layers.test.ts).
 */

/** The prometheus-postgres-exporter chart (the Prometheus community's), one release per database. */
export const POSTGRES_EXPORTER_CHART = {
    title: "Prometheus Postgres exporter",
    chart: "prometheus-postgres-exporter",
    repositoryUrl: "https://prometheus-community.github.io/helm-charts",
    version: "8.2.0",
    timeoutSeconds: 600,
} as const;

/** Defaults of {@link ApplicationArgs}'s arguments (a database's name and user are each database's). */
export const APPLICATION_DEFAULTS = {
    namespace: "bos",
    routing: "ingress",
    imageRegistry: "ghcr.io/nginxinc",
    imageTag: "v1.3.0",
    dbStorageSize: "1Gi",
    database: "postgresdb",
    user: "admin",
} as const;
