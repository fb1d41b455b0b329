import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import * as tls from "@pulumi/tls";
import { CHARTS } from "../config/catalogue";
import { ChartSettings, helmRelease, platformNamespace } from "./helmRelease";
import { secretsReadBy, secretsRevision, withCredentialsContainer } from "./passwordRotation";
import { EnvSource, ProbeSpec, SIRIUS_CONFIG as C, siriusWorkloads, WorkloadSpec } from "./siriusWorkloads";

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
    /** Host of the statsd exporter the Python services report to. Default: the Prometheus component's, `statsd-prometheus-statsd-exporter.prometheus.svc.cluster.local`. */
    statsdHost?: string;
    /**
     * The Prometheus component (or whatever installs the ServiceMonitor CRD). When given, the Postgres
     * exporters and the Java services get ServiceMonitors, created after it.
     */
    prometheus?: pulumi.Resource;
    /** prometheus-postgres-exporter chart coordinates. Default: the catalogue entry. */
    postgresExporterChart?: ChartSettings;
}

/** Where the Prometheus component runs the statsd exporter. */
export const DEFAULT_STATSD_HOST = "statsd-prometheus-statsd-exporter.prometheus.svc.cluster.local";

/** Name of the TLS Secret cert-manager fills for the application's host (MARA's). */
export const SIRIUS_TLS_SECRET = "sirius-secret";

/**
 * Bank of Sirius, the nine-service banking demo, as typed Kubernetes objects: non-secret settings in
 * ConfigMaps, passwords and the demo login in Secrets read through `secretKeyRef`, a JWT key pair from a
 * `tls.PrivateKey` (stable across runs, unlike MARA's), Postgres as StatefulSets on persistent volumes,
 * NetworkPolicies that admit only each database's clients, Postgres exporters, and HTTPS through
 * cert-manager on an Ingress or an NGINX VirtualServer.
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
        super("mara:app:Application", name, {}, opts);
        const a = validateApplicationArgs(args);
        const child = { parent: this };
        const ns = platformNamespace(`${name}-ns`, a.namespace, { "app.kubernetes.io/name": "bank-of-sirius" }, { parent: this, dependsOn: opts?.dependsOn });
        const namespace = ns.metadata.name;
        const meta = (objectName: string, labels?: Record<string, string>) => ({ name: objectName, namespace, ...(labels ? { labels } : {}) });

        // ---- Settings and secrets ----------------------------------------------------------------
        const configMap = (id: string, objectName: string, data: pulumi.Input<Record<string, pulumi.Input<string>>>) =>
            new k8s.core.v1.ConfigMap(`${name}-${id}`, { metadata: meta(objectName), data }, child);
        const secretByName: Record<string, k8s.core.v1.Secret> = {};
        const secret = (id: string, objectName: string, stringData: Record<string, pulumi.Input<string>>) =>
            (secretByName[objectName] = new k8s.core.v1.Secret(
                `${name}-${id}`,
                { metadata: meta(objectName), type: "Opaque", stringData: pulumi.secret(pulumi.output(stringData)) },
                child,
            ));

        const config = [
            configMap("environment", C.environment, { LOCAL_ROUTING_NUM: "883745000", PUB_KEY_PATH: "/root/.ssh/publickey" }),
            configMap("service-api", C.serviceApi, {
                TRANSACTIONS_API_ADDR: "ledgerwriter:8080",
                BALANCES_API_ADDR: "balancereader:8080",
                HISTORY_API_ADDR: "transactionhistory:8080",
                CONTACTS_API_ADDR: "contacts:8080",
                USERSERVICE_API_ADDR: "userservice:8080",
            }),
            configMap("tracing", C.tracing, tracingConfig(a.tracingEndpoint)),
            configMap("demo-data", C.demoData, { USE_DEMO_DATA: "True" }),
            configMap("accounts-db", C.accountsDb, { POSTGRES_DB: a.accountsDb.database, POSTGRES_USER: a.accountsDb.user }),
            configMap("ledger-db", C.ledgerDb, {
                POSTGRES_DB: a.ledgerDb.database,
                POSTGRES_USER: a.ledgerDb.user,
                SPRING_DATASOURCE_URL: `jdbc:postgresql://ledger-db:5432/${a.ledgerDb.database}`,
                SPRING_DATASOURCE_USERNAME: a.ledgerDb.user,
            }),
            configMap("accounts-db-init", C.accountsDbInit, { "2-demo-login.sh": DEMO_LOGIN_SCRIPT }),
        ];
        const jwtKey = new tls.PrivateKey(`${name}-jwt`, { algorithm: "RSA", rsaBits: 2048 }, child);
        const secrets = [
            secret("accounts-db-credentials", C.accountsDbSecret, {
                POSTGRES_PASSWORD: a.accountsDb.password,
                ACCOUNTS_DB_URI: pulumi.interpolate`postgresql://${a.accountsDb.user}:${a.accountsDb.password}@accounts-db:5432/${a.accountsDb.database}`,
            }),
            secret("ledger-db-credentials", C.ledgerDbSecret, {
                POSTGRES_PASSWORD: a.ledgerDb.password,
                SPRING_DATASOURCE_PASSWORD: a.ledgerDb.password,
            }),
            secret("demo-login", C.demoLoginSecret, { DEMO_LOGIN_USERNAME: a.demoLogin.username, DEMO_LOGIN_PASSWORD: a.demoLogin.password }),
            secret("jwt-key", C.jwtSecret, { "jwtRS256.key": jwtKey.privateKeyPem, "jwtRS256.key.pub": jwtKey.publicKeyPem }),
        ];

        // ---- Workloads -----------------------------------------------------------------------------
        const workloads = siriusWorkloads(a.statsdHost);
        const after = { parent: this, dependsOn: [...config, ...secrets] };
        const image = (w: WorkloadSpec) => `${a.imageRegistry}/${w.image}:${a.imageTag}`;
        for (const w of workloads) {
            const labels = workloadLabels(w);
            // Databases re-apply their passwords on every start; every pod restarts when a Secret it reads changes.
            const podSpec = w.kind === "StatefulSet" ? withCredentialsContainer(podSpecFor(w, image(w)), w) : podSpecFor(w, image(w));
            const podMeta = { labels, annotations: secretsRevision(secretsReadBy(w), secretByName) };
            if (w.kind === "StatefulSet") {
                new k8s.apps.v1.StatefulSet(
                    `${name}-${w.name}`,
                    {
                        metadata: meta(w.name, labels),
                        spec: {
                            serviceName: w.name,
                            replicas: 1,
                            selector: { matchLabels: { app: w.name } },
                            template: { metadata: podMeta, spec: podSpec },
                            volumeClaimTemplates: [databaseClaim(a.dbStorageSize, a.storageClassName)],
                        },
                    },
                    after,
                );
            } else {
                new k8s.apps.v1.Deployment(
                    `${name}-${w.name}`,
                    {
                        metadata: meta(w.name, labels),
                        spec: { replicas: 1, selector: { matchLabels: { app: w.name } }, template: { metadata: podMeta, spec: podSpec } },
                    },
                    after,
                );
            }
            new k8s.core.v1.Service(
                `${name}-${w.name}-service`,
                {
                    metadata: meta(w.name, labels),
                    spec: {
                        type: "ClusterIP",
                        selector: { app: w.name },
                        ports: [{ name: w.service.name, port: w.service.port, targetPort: w.containerPort, protocol: "TCP" }],
                    },
                },
                child,
            );
        }

        // ---- Database access -----------------------------------------------------------------------
        for (const db of ["accounts-db", "ledger-db"] as const) {
            new k8s.networking.v1.NetworkPolicy(
                `${name}-${db}-policy`,
                { metadata: meta(`${db}-clients`), spec: databasePolicySpec(db, workloads) },
                child,
            );
        }

        // ---- Routing -------------------------------------------------------------------------------
        const hostname = pulumi.output(a.hostname);
        if (a.routing === "virtualserver") {
            new k8s.apiextensions.CustomResource(
                `${name}-virtualserver`,
                {
                    apiVersion: "k8s.nginx.org/v1",
                    kind: "VirtualServer",
                    metadata: meta("bosingress"),
                    spec: pulumi.all([hostname, a.clusterIssuer, a.ingressClassName]).apply(([host, issuer, className]) => ({
                        host,
                        ingressClassName: className,
                        tls: { secret: SIRIUS_TLS_SECRET, "cert-manager": { "cluster-issuer": issuer } },
                        upstreams: [{ name: "frontend", service: "frontend", port: 80 }],
                        routes: [{ path: "/", action: { pass: "frontend" } }],
                    })),
                },
                child,
            );
        } else {
            new k8s.networking.v1.Ingress(
                `${name}-ingress`,
                {
                    metadata: { ...meta("bosingress"), annotations: { "cert-manager.io/cluster-issuer": a.clusterIssuer } },
                    spec: {
                        ingressClassName: a.ingressClassName,
                        tls: [{ hosts: [hostname], secretName: SIRIUS_TLS_SECRET }],
                        rules: [
                            {
                                host: hostname,
                                http: { paths: [{ path: "/", pathType: "Prefix", backend: { service: { name: "frontend", port: { number: 80 } } } }] },
                            },
                        ],
                    },
                },
                child,
            );
        }

        // ---- Monitoring ------------------------------------------------------------------------------
        const monitored = !!args.prometheus;
        const exporter = (release: string, host: string, db: Required<DatabaseArgs>, credentials: string) =>
            helmRelease(
                `${name}-${release}`,
                {
                    release,
                    namespace,
                    chart: args.postgresExporterChart ?? CHARTS.postgresExporter,
                    values: pulumi
                        .all(secretsRevision([credentials], secretByName))
                        .apply((annotations) => ({ ...postgresExporterValues(release, host, db, credentials, monitored), annotations })),
                },
                { parent: this, dependsOn: [...secrets, ...(args.prometheus ? [args.prometheus] : [])] },
            );
        const accountsMon = exporter("accountsdbmon", "accounts-db", a.accountsDb, C.accountsDbSecret);
        const ledgerMon = exporter("ledgerdbmon", "ledger-db", a.ledgerDb, C.ledgerDbSecret);
        if (args.prometheus) {
            new k8s.apiextensions.CustomResource(
                `${name}-java-metrics`,
                {
                    apiVersion: "monitoring.coreos.com/v1",
                    kind: "ServiceMonitor",
                    metadata: meta("bos-java-services"),
                    spec: {
                        selector: { matchLabels: { "metrics.mara/prometheus": "true" } },
                        endpoints: [{ port: "http", path: "/z/prometheus", interval: "30s" }],
                    },
                },
                { parent: this, dependsOn: [args.prometheus] },
            );
        }

        this.namespace = namespace;
        this.hostname = hostname;
        this.url = pulumi.interpolate`https://${hostname}`;
        this.accountsDbMonitorStatus = accountsMon.status.status;
        this.ledgerDbMonitorStatus = ledgerMon.status.status;
        this.registerOutputs({
            namespace: this.namespace,
            hostname: this.hostname,
            url: this.url,
            accountsDbMonitorStatus: this.accountsDbMonitorStatus,
            ledgerDbMonitorStatus: this.ledgerDbMonitorStatus,
        });
    }
}

/** Arguments with defaults applied. */
type Resolved = Required<Pick<ApplicationArgs, "namespace" | "routing" | "imageRegistry" | "imageTag" | "dbStorageSize">> &
    Omit<ApplicationArgs, "accountsDb" | "ledgerDb"> & {
        accountsDb: Required<DatabaseArgs>;
        ledgerDb: Required<DatabaseArgs>;
        statsdHost: string;
        ingressClassName: pulumi.Input<string>;
    };

/** Applies defaults and checks the arguments that shape the application; throws naming the argument. */
export function validateApplicationArgs(args: ApplicationArgs): Resolved {
    const db = (d: DatabaseArgs, which: string): Required<DatabaseArgs> => {
        const r = { database: d.database ?? "postgresdb", user: d.user ?? "admin", password: d.password };
        for (const [k, v] of [["database", r.database], ["user", r.user]] as const) {
            if (!/^[a-z_][a-z0-9_]{0,62}$/.test(v)) throw new Error(`Application: ${which}.${k} "${v}" is not a PostgreSQL identifier (lower-case letters, digits, '_').`);
        }
        return r;
    };
    const resolved: Resolved = {
        ...args,
        namespace: args.namespace ?? "bos",
        routing: args.routing ?? "ingress",
        imageRegistry: args.imageRegistry ?? "ghcr.io/nginxinc",
        imageTag: args.imageTag ?? "v1.3.0",
        dbStorageSize: args.dbStorageSize ?? "1Gi",
        ingressClassName: args.ingressClassName ?? "nginx",
        statsdHost: args.statsdHost ?? DEFAULT_STATSD_HOST,
        accountsDb: db(args.accountsDb, "accountsDb"),
        ledgerDb: db(args.ledgerDb, "ledgerDb"),
    };
    if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(resolved.namespace)) throw new Error(`Application: namespace "${resolved.namespace}" is not a valid namespace name.`);
    if (!["ingress", "virtualserver"].includes(resolved.routing)) throw new Error(`Application: routing "${resolved.routing}" is not "ingress" or "virtualserver".`);
    if (!/^\d+(\.\d+)?(Mi|Gi|Ti)$/.test(resolved.dbStorageSize)) throw new Error(`Application: dbStorageSize "${resolved.dbStorageSize}" is not a volume size such as 1Gi.`);
    return resolved;
}

/** Settings of the tracing ConfigMap. Python services trace whenever ENABLE_TRACING is non-empty and an endpoint is set. */
function tracingConfig(endpoint: pulumi.Input<string> | undefined): pulumi.Input<Record<string, pulumi.Input<string>>> {
    if (endpoint === undefined) return { ENABLE_TRACING: "false", ENABLE_METRICS: "true" };
    return { OTEL_EXPORTER_OTLP_ENDPOINT: pulumi.interpolate`http://${endpoint}`, ENABLE_TRACING: "true", ENABLE_METRICS: "true" };
}

/** Labels of a workload's pods: `app`, the database it may reach, and whether Prometheus scrapes it. */
export function workloadLabels(w: WorkloadSpec): Record<string, string> {
    return {
        app: w.name,
        "app.kubernetes.io/part-of": "bank-of-sirius",
        ...(w.databaseClient ? { [`${w.databaseClient}-client`]: "true" } : {}),
        ...(w.prometheusMetrics ? { "metrics.mara/prometheus": "true" } : {}),
    };
}

/** One container environment variable from its source: a literal, a pod field, a Secret key or a ConfigMap key. */
function envVar(name: string, source: EnvSource): k8s.types.input.core.v1.EnvVar {
    if ("value" in source) return { name, value: source.value };
    if ("field" in source) return { name, valueFrom: { fieldRef: { fieldPath: source.field } } };
    if ("secret" in source) return { name, valueFrom: { secretKeyRef: { name: source.secret, key: source.key } } };
    return { name, valueFrom: { configMapKeyRef: { name: source.configMap, key: source.key, ...(source.optional ? { optional: true } : {}) } } };
}

/** Readiness and liveness probes: HTTP `/z/health/*` on the service port, or `pg_isready` for a database; none when unset. */
function probes(p: ProbeSpec | undefined, port: number): Pick<k8s.types.input.core.v1.Container, "readinessProbe" | "livenessProbe"> {
    if (!p) return {};
    if ("postgres" in p) {
        const exec = { command: ["sh", "-c", 'pg_isready -U "$POSTGRES_USER" -d "$POSTGRES_DB" -h 127.0.0.1'] };
        return {
            readinessProbe: { exec, initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 5 },
            livenessProbe: { exec, initialDelaySeconds: 30, periodSeconds: 15, timeoutSeconds: 5 },
        };
    }
    return {
        readinessProbe: { httpGet: { path: "/z/health/readiness", port }, initialDelaySeconds: p.readinessDelay, periodSeconds: p.period, timeoutSeconds: p.timeout },
        livenessProbe: { httpGet: { path: "/z/health/liveness", port }, initialDelaySeconds: p.livenessDelay, periodSeconds: p.period, timeoutSeconds: p.timeout },
    };
}

/** The pod spec of one workload. */
export function podSpecFor(w: WorkloadSpec, image: string): k8s.types.input.core.v1.PodSpec {
    const mounts: k8s.types.input.core.v1.VolumeMount[] = [];
    const volumes: k8s.types.input.core.v1.Volume[] = [];
    if (w.jwt) {
        const items = [{ key: "jwtRS256.key.pub", path: "publickey" }, ...(w.jwt === "both" ? [{ key: "jwtRS256.key", path: "privatekey" }] : [])];
        volumes.push({ name: "jwt", secret: { secretName: C.jwtSecret, items } });
        mounts.push({ name: "jwt", mountPath: "/root/.ssh", readOnly: true });
    }
    if (w.kind === "StatefulSet") {
        mounts.push({ name: "data", mountPath: "/var/lib/postgresql/data", subPath: "postgres" });
    }
    if (w.name === "accounts-db") {
        // Runs after the image's own schema and demo-data scripts, when the volume is first initialised.
        volumes.push({ name: "demo-login", configMap: { name: C.accountsDbInit, defaultMode: 0o755 } });
        mounts.push({ name: "demo-login", mountPath: "/docker-entrypoint-initdb.d/2-demo-login.sh", subPath: "2-demo-login.sh", readOnly: true });
    }
    return {
        terminationGracePeriodSeconds: w.kind === "StatefulSet" ? 30 : 5,
        containers: [
            {
                name: w.container,
                image,
                imagePullPolicy: "IfNotPresent",
                ...(w.command ? { command: [...w.command] } : {}),
                ports: [{ name: w.service.name, containerPort: w.containerPort, protocol: "TCP" }],
                env: Object.entries(w.env).map(([k, v]) => envVar(k, v)),
                envFrom: w.envFrom.map((name) => ({ configMapRef: { name } })),
                resources: { requests: { cpu: w.resources.cpu[0], memory: w.resources.memory[0] }, limits: { cpu: w.resources.cpu[1], memory: w.resources.memory[1] } },
                volumeMounts: mounts,
                ...probes(w.probes, w.containerPort),
            },
        ],
        volumes,
    };
}

/** The persistent volume claim template of a database. */
function databaseClaim(size: string, storageClassName?: pulumi.Input<string>): k8s.types.input.core.v1.PersistentVolumeClaim {
    return {
        metadata: { name: "data" },
        spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: size } }, ...(storageClassName ? { storageClassName } : {}) },
    };
}

/** NetworkPolicy admitting to a database only its client services and its metrics exporter, on 5432. */
export function databasePolicySpec(db: "accounts-db" | "ledger-db", workloads: WorkloadSpec[]): k8s.types.input.networking.v1.NetworkPolicySpec {
    const clients = workloads.filter((w) => w.databaseClient === db).map((w) => w.name);
    return {
        podSelector: { matchLabels: { app: db } },
        policyTypes: ["Ingress"],
        ingress: [
            {
                from: [
                    ...clients.map((app) => ({ podSelector: { matchLabels: { app, [`${db}-client`]: "true" } } })),
                    { podSelector: { matchLabels: { [`${db}-client`]: "true", "app.kubernetes.io/component": "postgres-exporter" } } },
                ],
                ports: [{ port: 5432, protocol: "TCP" }],
            },
        ],
    };
}

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
    };
}

/**
 * Init script for the accounts database. The image's demo data gives every demo user the password
 * "password"; this gives the configured demo login its configured password (creating the user from the
 * demo user `testuser` when it is another name). Runs once, when the database volume is initialised.
 */
export const DEMO_LOGIN_SCRIPT = `#!/bin/bash
set -euo pipefail
if [ "\${USE_DEMO_DATA:-}" != "True" ]; then exit 0; fi
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \\
  -v login="$DEMO_LOGIN_USERNAME" -v password="$DEMO_LOGIN_PASSWORD" <<'SQL'
CREATE EXTENSION IF NOT EXISTS pgcrypto;
INSERT INTO users (accountid, username, passhash, firstname, lastname, birthday, timezone, address, state, zip, ssn)
  SELECT '10' || lpad((floor(random() * 100000000))::bigint::text, 8, '0'), :'login', ''::bytea,
         firstname, lastname, birthday, timezone, address, state, zip, ssn
  FROM users WHERE username = 'testuser' AND NOT EXISTS (SELECT 1 FROM users WHERE username = :'login');
UPDATE users SET passhash = convert_to(crypt(:'password', gen_salt('bf', 12)), 'UTF8') WHERE username = :'login';
SQL
`;
