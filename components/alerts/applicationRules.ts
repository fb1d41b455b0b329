/**
 * Alerts on Bank of Sirius and its PostgreSQL databases. The services are watched through kube-state-metrics (v2.20.0,
 * kube-prometheus-stack's subchart: a Deployment with no available replica, a pod not ready, containers restarting);
 * the databases through their postgres_exporter (v0.20.1, the prometheus-postgres-exporter chart's: `pg_up`,
 * `pg_stat_database_numbackends`, `pg_settings_max_connections`; test/fixtures/metrics/postgres-exporter.txt), one per
 * database, whose Service name is Prometheus's `job` label.
 */
import type { AlertRuleGroup } from "./rules";

/** One database and the exporter that watches it. */
export interface DatabaseAlertTarget {
    /** The database's StatefulSet. */
    readonly statefulset: string;
    /** The exporter's Service name: Prometheus's `job` label of its metrics. */
    readonly exporterJob: string;
}

/** Where the application runs. */
export interface ApplicationAlertTarget {
    /** Namespace of the application. */
    readonly namespace: string;
    /** The Deployments that serve users (a service down is critical). */
    readonly services: readonly string[];
    /** The databases. */
    readonly databases: readonly DatabaseAlertTarget[];
}

/** Share of `max_connections` in use above which the database is a warning. */
export const CONNECTION_WARNING_RATIO = 0.8;

const alternatives = (names: readonly string[]) => names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\\\$&")).join("|");

/** The application's alerts: its services and pods. */
export function applicationRules(t: ApplicationAlertTarget): AlertRuleGroup {
    const ns = `namespace="${t.namespace}"`;
    const services = `${ns}, deployment=~"${alternatives(t.services)}"`;
    return {
        component: "application",
        name: "mara.application",
        rules: [
            {
                alert: "BankOfSiriusServiceDown",
                expr: `kube_deployment_status_replicas_available{${services}} == 0 and on (namespace, deployment) kube_deployment_spec_replicas{${services}} > 0`,
                for: "5m",
                severity: "critical",
                summary: "Bank of Sirius service {{ $labels.deployment }} has no available pod",
                description: "The Deployment has had no available replica for 5 minutes: every request that needs the service fails.",
            },
            {
                alert: "BankOfSiriusPodNotReady",
                expr: `max by (namespace, pod) (kube_pod_status_ready{${ns}, condition="false"}) == 1 unless on (namespace, pod) kube_pod_status_phase{${ns}, phase="Succeeded"} == 1`,
                for: "10m",
                severity: "warning",
                summary: "Pod {{ $labels.namespace }}/{{ $labels.pod }} is not ready",
                description: "The pod has not passed its readiness probe for 10 minutes, so its Service sends it no traffic.",
            },
            {
                alert: "BankOfSiriusPodRestarting",
                expr: `increase(kube_pod_container_status_restarts_total{${ns}}[30m]) >= 3`,
                for: "0m",
                severity: "warning",
                summary: "Container {{ $labels.container }} of {{ $labels.namespace }}/{{ $labels.pod }} restarted {{ $value | humanize }} times in 30 minutes",
                description: "A container keeps restarting: its probes fail, it runs out of memory, or it exits (a database it cannot reach).",
            },
        ],
    };
}

/** The databases' alerts. */
export function databaseRules(t: ApplicationAlertTarget): AlertRuleGroup {
    const exporters = `namespace="${t.namespace}", job=~"${alternatives(t.databases.map((d) => d.exporterJob))}"`;
    return {
        component: "database",
        name: "mara.database",
        rules: [
            {
                alert: "PostgresDown",
                expr: `pg_up{${exporters}} == 0`,
                for: "2m",
                severity: "critical",
                summary: "PostgreSQL behind {{ $labels.job }} does not answer",
                description: "The exporter cannot connect to its database for 2 minutes: the database is down or refuses connections, and the services that use it fail.",
            },
            {
                alert: "PostgresExporterDown",
                expr: `up{${exporters}} == 0`,
                for: "10m",
                severity: "warning",
                summary: "The PostgreSQL exporter {{ $labels.job }} does not answer Prometheus",
                description: "The database's metrics are missing, so PostgresDown cannot fire for it.",
            },
            {
                alert: "PostgresConnectionsHigh",
                expr:
                    `sum by (namespace, job) (pg_stat_database_numbackends{${exporters}}) / on (namespace, job) max by (namespace, job) (pg_settings_max_connections{${exporters}})` +
                    ` > ${CONNECTION_WARNING_RATIO}`,
                for: "10m",
                severity: "warning",
                summary: "PostgreSQL behind {{ $labels.job }} uses {{ $value | humanizePercentage }} of its connections",
                description: `More than ${CONNECTION_WARNING_RATIO * 100}% of max_connections are in use: new connections will soon be refused.`,
            },
        ],
    };
}
