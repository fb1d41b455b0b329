/**
 * Monitoring of the application: a Postgres exporter per database (its password from the database's
 * Secret) and, when Prometheus is there, ServiceMonitors for the exporters and the Java services, Grafana
 * dashboards for the services and the databases, and their alert rules (components/alerts/applicationRules.ts).
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { CHARTS } from "../../contracts";
import { applicationRules, databaseRules } from "../alerts/applicationRules";
import { alertRules } from "../alerts/rules";
import type { DatabaseArgs, ResolvedApplicationArgs } from "./componentArgs";
import { grafanaDashboard } from "../grafanaDashboards";
import { helmRelease } from "../helmRelease";
import { secretsRevision } from "../passwordRotation";
import { metadata, SiriusScope } from "./scope";
import type { SiriusSettings } from "./settingsObjects";
import { LOAD_GENERATOR, SIRIUS_CONFIG as C, siriusWorkloads } from "./workloadSpecs";

/** What the exporters report. */
export interface SiriusMonitoring {
    /** Status of the accounts database exporter release. */
    readonly accountsDbMonitorStatus: pulumi.Output<string>;
    /** Status of the ledger database exporter release. */
    readonly ledgerDbMonitorStatus: pulumi.Output<string>;
}

/**
 * The exporter of each database, by the database's StatefulSet: its Helm release, and the name of its Service
 * (`fullnameOverride`), which is Prometheus's `job` label of its metrics.
 */
export const EXPORTERS = { "accounts-db": "accountsdbmon", "ledger-db": "ledgerdbmon" } as const;

/** Creates the exporters (after the Secrets that hold their passwords, rolling when those change) and the ServiceMonitors. */
export function siriusMonitoring(scope: SiriusScope, a: ResolvedApplicationArgs, settings: SiriusSettings): SiriusMonitoring {
    const monitored = a.prometheus !== undefined;
    const prometheus = a.prometheus ? [a.prometheus] : [];
    const exporter = (release: string, host: string, db: Required<DatabaseArgs>, credentials: string) =>
        helmRelease(
            `${scope.name}-${release}`,
            {
                release,
                namespace: scope.namespace,
                chart: a.postgresExporterChart ?? CHARTS.postgresExporter,
                values: pulumi
                    .all(secretsRevision([credentials], settings.secretsByName))
                    .apply((annotations) => ({ ...postgresExporterValues(release, host, db, credentials, monitored), annotations })),
            },
            { parent: scope.parent, dependsOn: [...settings.secrets, ...prometheus] },
        );
    const accounts = exporter(EXPORTERS["accounts-db"], "accounts-db", a.accountsDb, C.accountsDbSecret);
    const ledger = exporter(EXPORTERS["ledger-db"], "ledger-db", a.ledgerDb, C.ledgerDbSecret);
    if (monitored) {
        new k8s.apiextensions.CustomResource(
            `${scope.name}-java-metrics`,
            {
                apiVersion: "monitoring.coreos.com/v1",
                kind: "ServiceMonitor",
                metadata: metadata(scope, "bos-java-services"),
                spec: {
                    selector: { matchLabels: { "metrics.mara/prometheus": "true" } },
                    endpoints: [{ port: "http", path: "/z/prometheus", interval: "30s" }],
                },
            },
            { parent: scope.parent, dependsOn: prometheus },
        );
        // Request rate, errors and latency of the services, and the two databases; Grafana's sidecar loads them from any namespace.
        grafanaDashboard(`${scope.name}-dashboard`, "bank-of-sirius", scope.namespace, { parent: scope.parent });
        grafanaDashboard(`${scope.name}-dashboard-databases`, "postgres", scope.namespace, { parent: scope.parent });
        const target = {
            namespace: a.namespace,
            // The services users reach; the load generator only makes demo traffic.
            services: siriusWorkloads(a.statsdHost).filter((w) => w.kind === "Deployment" && w.name !== LOAD_GENERATOR).map((w) => w.name),
            databases: Object.entries(EXPORTERS).map(([statefulset, exporterJob]) => ({ statefulset, exporterJob })),
        };
        for (const group of [applicationRules(target), databaseRules(target)]) {
            alertRules(`${scope.name}-alerts-${group.component}`, group, scope.namespace, a.alertRunbookUrl, { parent: scope.parent, dependsOn: prometheus });
        }
    }
    return { accountsDbMonitorStatus: accounts.status.status, ledgerDbMonitorStatus: ledger.status.status };
}

/**
 * What one exporter needs: it holds one connection and a few hundred series. Declared because the exporter runs in
 * the application's namespace, where the guardrails require requests and a memory limit (docs/policy.md).
 */
export const POSTGRES_EXPORTER_RESOURCES = { requests: { cpu: "10m", memory: "32Mi" }, limits: { memory: "128Mi" } };

/** prometheus-postgres-exporter values: connection settings, password from the database's Secret. */
export function postgresExporterValues(release: string, host: string, db: Required<DatabaseArgs>, credentialsSecret: string, serviceMonitor: boolean) {
    return {
        fullnameOverride: release,
        podLabels: { [`${host}-client`]: "true", "app.kubernetes.io/component": "postgres-exporter" },
        config: {
            datasource: {
                host,
                user: db.user,
                database: db.database,
                port: "5432",
                sslmode: "disable",
                passwordSecret: { name: credentialsSecret, key: "POSTGRES_PASSWORD" },
            },
        },
        serviceMonitor: { enabled: serviceMonitor },
        resources: POSTGRES_EXPORTER_RESOURCES,
    };
}
