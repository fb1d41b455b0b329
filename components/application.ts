import * as pulumi from "@pulumi/pulumi";
import { ChartSettings, DEFAULTS, PATTERNS, requireMatch } from "../contracts";
import { platformNamespace } from "./helmRelease";
import { statsdHostIn } from "./prometheus";
import { siriusMonitoring } from "./sirius/monitoring";
import { siriusRoute } from "./sirius/routing";
import type { SiriusScope } from "./sirius/scope";
import { siriusSettings } from "./sirius/settings";
import { siriusWorkloadResources } from "./sirius/workloads";
import { guardedOptions } from "./ownership/guard";

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

/**
 * Bank of Sirius, the nine-service banking demo, as typed Kubernetes objects: non-secret settings in
 * ConfigMaps, passwords and the demo login in Secrets read through `secretKeyRef`, a JWT key pair from a
 * `tls.PrivateKey` (stable across runs, unlike MARA's), Postgres as StatefulSets on persistent volumes,
 * NetworkPolicies that admit only each database's clients, Postgres exporters, and HTTPS through
 * cert-manager on an Ingress or an NGINX VirtualServer. Each concern is one builder in `./sirius/`.
 */
export class Application extends pulumi.ComponentResource {
    /** Namespace of the application. */
    public readonly namespace: pulumi.Output<string>;
    /** Host name the application is served on. */
    public readonly hostname: pulumi.Output<string>;
    /** `https://<hostname>`. */
    public readonly url: pulumi.Output<string>;
    /** Status of the accounts database exporter release (MARA swapped the two names). */
    public readonly accountsDbMonitorStatus: pulumi.Output<string>;
    /** Status of the ledger database exporter release. */
    public readonly ledgerDbMonitorStatus: pulumi.Output<string>;

    constructor(name: string, args: ApplicationArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:app:Application", name, {}, guardedOptions(name, opts));
        const a = validateApplicationArgs(args);
        // Baseline, not restricted: the Bank of Sirius images set no securityContext (docs/policy.md).
        const ns = platformNamespace(`${name}-ns`, a.namespace, "baseline", { "app.kubernetes.io/name": "bank-of-sirius" }, { parent: this, dependsOn: opts?.dependsOn });
        const scope: SiriusScope = { name, parent: this, namespace: ns.metadata.name };

        const settings = siriusSettings(scope, a);
        siriusWorkloadResources(scope, a, settings);
        const hostname = pulumi.output(a.hostname);
        siriusRoute(scope, a, hostname);
        const monitoring = siriusMonitoring(scope, a, settings);

        this.namespace = scope.namespace;
        this.hostname = hostname;
        this.url = pulumi.interpolate`https://${hostname}`;
        this.accountsDbMonitorStatus = monitoring.accountsDbMonitorStatus;
        this.ledgerDbMonitorStatus = monitoring.ledgerDbMonitorStatus;
        this.registerOutputs({
            namespace: this.namespace,
            hostname: this.hostname,
            url: this.url,
            accountsDbMonitorStatus: this.accountsDbMonitorStatus,
            ledgerDbMonitorStatus: this.ledgerDbMonitorStatus,
        });
    }
}

/** {@link ApplicationArgs} with every default applied. */
export type ResolvedApplicationArgs = Required<Pick<ApplicationArgs, "namespace" | "routing" | "imageRegistry" | "imageTag" | "dbStorageSize">> &
    Omit<ApplicationArgs, "accountsDb" | "ledgerDb"> & {
        accountsDb: Required<DatabaseArgs>;
        ledgerDb: Required<DatabaseArgs>;
        statsdHost: string;
        ingressClassName: pulumi.Input<string>;
    };

/** Applies defaults and checks the arguments that shape the application; throws naming the argument. */
export function validateApplicationArgs(args: ApplicationArgs): ResolvedApplicationArgs {
    const d = DEFAULTS.application;
    const db = (given: DatabaseArgs, which: string): Required<DatabaseArgs> => {
        const r = { database: given.database ?? d.database, user: given.user ?? d.user, password: given.password };
        for (const k of ["database", "user"] as const) requireMatch("Application", `${which}.${k}`, r[k], PATTERNS.postgresIdentifier);
        return r;
    };
    const resolved: ResolvedApplicationArgs = {
        ...args,
        namespace: args.namespace ?? d.namespace,
        routing: args.routing ?? d.routing,
        imageRegistry: args.imageRegistry ?? d.imageRegistry,
        imageTag: args.imageTag ?? d.imageTag,
        dbStorageSize: args.dbStorageSize ?? d.dbStorageSize,
        ingressClassName: args.ingressClassName ?? DEFAULTS.ingressController.ingressClassName,
        statsdHost: args.statsdHost ?? statsdHostIn(DEFAULTS.prometheus.namespace),
        accountsDb: db(args.accountsDb, "accountsDb"),
        ledgerDb: db(args.ledgerDb, "ledgerDb"),
    };
    requireMatch("Application", "namespace", resolved.namespace, PATTERNS.dnsLabel);
    requireMatch("Application", "routing", resolved.routing, { pattern: /^(ingress|virtualserver)$/, allowed: '"ingress" or "virtualserver"' });
    requireMatch("Application", "dbStorageSize", resolved.dbStorageSize, PATTERNS.volumeSize);
    return resolved;
}
