/**
 * The Application's arguments, as given and with every default applied: one module that the component
 * (component.ts) and its builders (this folder) both import, so neither imports the other.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ChartSettings } from "../../contracts";

/** A database's name, user and password. */
export interface DatabaseArgs {
    /** Database name (MARA's `sirius:accounts_db` / `ledger_db`). Default `postgresdb`. */
    database?: string;
    /** Database user (MARA's `sirius:accounts_admin` / `ledger_admin`). Default `admin`. */
    user?: string;
    /** Password; secret, reaches pods only through a Kubernetes Secret. Required. */
    password: pulumi.Input<string>;
}

/** Arguments of {@link Application}. */
export interface ApplicationArgs {
    /** Namespace; the application can be deployed several times under different ones. Default `bos`. */
    namespace?: string;
    /** Public host name of the application (ingress host and certificate name). Required. */
    hostname: pulumi.Input<string>;
    /** cert-manager ClusterIssuer that signs the certificate, e.g. the CertManager's `selfSignedIssuer`. Required. */
    clusterIssuer: pulumi.Input<string>;
    /** IngressClass of the ingress controller (pass its output, so the routes wait for the controller). Default `nginx`. */
    ingressClassName?: pulumi.Input<string>;
    /** `ingress` (default): a standard Ingress. `virtualserver`: an NGINX VirtualServer (needs the controller's CRDs). */
    routing?: "ingress" | "virtualserver";
    /** Registry and path prefix of the bos-* images. Default `ghcr.io/nginxinc`. */
    imageRegistry?: string;
    /** Tag of the bos-* images. Default `v1.3.0`. */
    imageTag?: string;
    /** The accounts database (users and contacts). Required; pass the Secrets component's `accountsDbPassword`. */
    accountsDb: DatabaseArgs;
    /** The ledger database (transactions). Required; pass the Secrets component's `ledgerDbPassword`. */
    ledgerDb: DatabaseArgs;
    /** Demo login shown on the login page and given the configured password in the accounts database. Secret. */
    demoLogin: { username: pulumi.Input<string>; password: pulumi.Input<string> };
    /** Volume size of each database. Default `1Gi`. */
    dbStorageSize?: string;
    /** StorageClass of the database volumes. Default: the cluster's default class. */
    storageClassName?: pulumi.Input<string>;
    /** OTLP gRPC endpoint (`host:port`) of the OpenTelemetry collector; tracing is off when unset. */
    tracingEndpoint?: pulumi.Input<string>;
    /** Host of the statsd exporter the Python services report to. Default: the Prometheus component's in its default namespace, `statsd-prometheus-statsd-exporter.prometheus.svc.cluster.local`. */
    statsdHost?: string;
    /**
     * The Prometheus component (or whatever installs the ServiceMonitor CRD). When given, the Postgres
     * exporters and the Java services get ServiceMonitors, and the application and its databases their alert rules
     * (PrometheusRules `mara-application` and `mara-database`), created after it.
     */
    prometheus?: pulumi.Resource;
    /** Where each alert's `runbook_url` points: the address of docs/alerts.md, plus the alert's anchor. Default `docs/alerts.md`. */
    alertRunbookUrl?: string;
    /** prometheus-postgres-exporter chart coordinates. Default: the catalogue entry. */
    postgresExporterChart?: ChartSettings;
}

/** {@link ApplicationArgs} with every default applied. */
export type ResolvedApplicationArgs = Required<Pick<ApplicationArgs, "namespace" | "routing" | "imageRegistry" | "imageTag" | "dbStorageSize">> &
    Omit<ApplicationArgs, "accountsDb" | "ledgerDb"> & {
        accountsDb: Required<DatabaseArgs>;
        ledgerDb: Required<DatabaseArgs>;
        statsdHost: string;
        ingressClassName: pulumi.Input<string>;
    };
