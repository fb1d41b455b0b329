/**
 * The nine Bank of Sirius workloads as data: images, ports, settings, probes and resources of the
 * upstream manifests (nginxinc/bank-of-sirius `kubernetes-manifests/`, images v1.3.0), with MARA's
 * defects fixed: passwords come from Secrets, databases get probes and persistent volumes, duplicated
 * and unused environment entries are gone, and every container has requests and limits (upstream's
 * development manifests' values).
 */

/** Where one environment variable's value comes from. */
export type EnvSource =
    | { value: string }
    | { configMap: string; key: string; optional?: boolean }
    | { secret: string; key: string }
    | { field: string };

/** Readiness and liveness through the services' `/z/health` endpoints, or `pg_isready` for databases. */
export type ProbeSpec = { http: true; readinessDelay: number; livenessDelay: number; period: number; timeout: number } | { postgres: true };

/** One workload and its Service. */
export interface WorkloadSpec {
    /** Object names and the `app` label. */
    readonly name: string;
    /** StatefulSet for the databases (they get a volume), Deployment otherwise. */
    readonly kind: "Deployment" | "StatefulSet";
    /** Container name, as in the upstream manifests. */
    readonly container: string;
    /** Image name without registry and tag, e.g. `bos-frontend`. */
    readonly image: string;
    /** Port the container listens on. */
    readonly containerPort: number;
    /** Service port name and number (the target is `containerPort`). */
    readonly service: { readonly name: string; readonly port: number };
    /** Environment variables by name; secrets only ever come from `{ secret, key }` sources. */
    readonly env: Readonly<Record<string, EnvSource>>;
    /** ConfigMaps whose keys all become environment variables. */
    readonly envFrom: readonly string[];
    /** JWT key files mounted at /root/.ssh. */
    readonly jwt?: "public" | "both";
    /** Readiness and liveness probes; none for the load generator. */
    readonly probes?: ProbeSpec;
    /** `[request, limit]` for CPU and memory. */
    readonly resources: { readonly cpu: [string, string]; readonly memory: [string, string] };
    /** The database this workload talks to; its NetworkPolicy admits it. */
    readonly databaseClient?: "accounts-db" | "ledger-db";
    /** Java services serve Prometheus metrics at /z/prometheus. */
    readonly prometheusMetrics?: boolean;
    /** Overrides the image's entry point (the load generator runs `locust`). */
    readonly command?: readonly string[];
}

/** Names of the ConfigMaps and Secrets the workloads read. */
export const SIRIUS_CONFIG = {
    environment: "environment-config",
    serviceApi: "service-api-config",
    tracing: "tracing-config",
    demoData: "demo-data-config",
    accountsDb: "accounts-db-config",
    ledgerDb: "ledger-db-config",
    accountsDbSecret: "accounts-db-credentials",
    ledgerDbSecret: "ledger-db-credentials",
    demoLoginSecret: "demo-login",
    jwtSecret: "jwt-key",
    accountsDbInit: "accounts-db-demo-login",
} as const;

const C = SIRIUS_CONFIG;
const STATSD_PORT = 9125;

/** Tracing settings every service reads from the tracing ConfigMap (the endpoint is absent when tracing is off). */
const tracingEnv: Record<string, EnvSource> = {
    OTEL_EXPORTER_OTLP_ENDPOINT: { configMap: C.tracing, key: "OTEL_EXPORTER_OTLP_ENDPOINT", optional: true },
    ENABLE_TRACING: { configMap: C.tracing, key: "ENABLE_TRACING" },
    ENABLE_METRICS: { configMap: C.tracing, key: "ENABLE_METRICS" },
};

/** Python services report request metrics to the statsd exporter. */
const statsdEnv = (name: string, statsdHost: string): Record<string, EnvSource> => ({
    STATSD_HOST: { value: `${statsdHost}:${STATSD_PORT}` },
    STATSD_PREFIX: { value: `bos.${name}` },
});

/** HTTP probe settings: initial delays of the readiness and liveness probes, period and timeout in seconds. */
const httpProbes = (readinessDelay: number, livenessDelay: number, period = 5, timeout = 10): ProbeSpec => ({
    http: true,
    readinessDelay,
    livenessDelay,
    period,
    timeout,
});
const small = { cpu: ["100m", "500m"] as [string, string], memory: ["64Mi", "256Mi"] as [string, string] };
const jvm = { cpu: ["100m", "500m"] as [string, string], memory: ["512Mi", "1Gi"] as [string, string] };

/** The environment every service but the databases and the load generator shares. */
const COMMON_ENV: Record<string, EnvSource> = { VERSION: { value: "v1.2.0" }, PORT: { value: "8080" }, LOG_LEVEL: { value: "info" } };

/** A Python service on port 8080 reporting to statsd: the frontend, the user service and contacts. */
function pythonService(
    w: Pick<WorkloadSpec, "name" | "container" | "envFrom" | "jwt" | "probes" | "databaseClient"> & { readonly servicePort?: number },
    statsdHost: string,
    env: Record<string, EnvSource>,
): WorkloadSpec {
    const { servicePort = 8080, ...spec } = w;
    return {
        ...spec,
        kind: "Deployment",
        image: `bos-${w.name}`,
        containerPort: 8080,
        service: { name: "http", port: servicePort },
        env: { ...COMMON_ENV, ...statsdEnv(w.name, statsdHost), ...env },
        resources: small,
    };
}

/**
 * A Java ledger service: reads the ledger database with the password from its Secret, serves
 * Prometheus metrics at /z/prometheus, and starts slowly (the JVM), hence the long probe delays.
 *
 * @param appName - the service's APP_NAME (upstream's hyphenated spelling).
 * @param settings - the service's own settings, between the shared ones and the database password.
 * @param serviceApi - whether it also reads the addresses of the other services.
 */
function javaService(name: string, appName: string, settings: Record<string, EnvSource>, serviceApi = false): WorkloadSpec {
    return {
        name,
        kind: "Deployment",
        container: name,
        image: `bos-${name}`,
        containerPort: 8080,
        service: { name: "http", port: 8080 },
        env: {
            APP_NAME: { value: appName },
            ...tracingEnv,
            ...COMMON_ENV,
            ...settings,
            SPRING_DATASOURCE_PASSWORD: { secret: C.ledgerDbSecret, key: "SPRING_DATASOURCE_PASSWORD" },
            NAMESPACE: { field: "metadata.namespace" },
        },
        envFrom: [C.environment, ...(serviceApi ? [C.serviceApi] : []), C.ledgerDb],
        jwt: "public",
        probes: httpProbes(60, 120),
        resources: jvm,
        databaseClient: "ledger-db",
        prometheusMetrics: true,
    };
}

/** A Postgres database on a persistent volume, with its password from its Secret. */
function database(
    name: "accounts-db" | "ledger-db",
    container: string,
    env: Record<string, EnvSource>,
    envFrom: readonly string[],
    memoryRequest: string,
): WorkloadSpec {
    return {
        name,
        kind: "StatefulSet",
        container,
        image: `bos-${name}`,
        containerPort: 5432,
        service: { name: "tcp", port: 5432 },
        env,
        envFrom: [C.environment, ...envFrom, C.demoData],
        probes: { postgres: true },
        resources: { cpu: ["100m", "500m"], memory: [memoryRequest, "1Gi"] },
    };
}

/** The Deployment that makes demo traffic (Locust); no user reaches it. */
export const LOAD_GENERATOR = "loadgenerator";

/** The workloads, given the statsd exporter's host name. */
export function siriusWorkloads(statsdHost: string): WorkloadSpec[] {
    const accountsDbUri: Record<string, EnvSource> = { ACCOUNTS_DB_URI: { secret: C.accountsDbSecret, key: "ACCOUNTS_DB_URI" } };
    return [
        pythonService(
            { name: "frontend", container: "front", envFrom: [C.environment, C.serviceApi], jwt: "public", probes: httpProbes(10, 60, 15, 30), servicePort: 80 },
            statsdHost,
            {
                SCHEME: { value: "http" },
                BANK_NAME: { value: "Bank of Sirius" },
                APP_NAME: { value: "frontend" },
                ...tracingEnv,
                DEFAULT_USERNAME: { secret: C.demoLoginSecret, key: "DEMO_LOGIN_USERNAME" },
                DEFAULT_PASSWORD: { secret: C.demoLoginSecret, key: "DEMO_LOGIN_PASSWORD" },
            },
        ),
        pythonService(
            { name: "userservice", container: "userservice", envFrom: [C.environment, C.accountsDb], jwt: "both", probes: httpProbes(10, 10), databaseClient: "accounts-db" },
            statsdHost,
            {
                APP_NAME: { value: "userservice" },
                TOKEN_EXPIRY_SECONDS: { value: "3600" },
                PRIV_KEY_PATH: { value: "/root/.ssh/privatekey" },
                ...tracingEnv,
                ...accountsDbUri,
            },
        ),
        pythonService(
            { name: "contacts", container: "contacts", envFrom: [C.environment, C.accountsDb], jwt: "public", probes: httpProbes(10, 10), databaseClient: "accounts-db" },
            statsdHost,
            { APP_NAME: { value: "contacts" }, ...tracingEnv, ...accountsDbUri },
        ),
        javaService("balancereader", "balance-reader", { POLL_MS: { value: "100" }, CACHE_SIZE: { value: "1000000" } }),
        javaService("ledgerwriter", "ledger-writer", {}, true),
        javaService("transactionhistory", "transaction-history", {
            POLL_MS: { value: "100" },
            CACHE_SIZE: { value: "1000" },
            CACHE_MINUTES: { value: "60" },
            HISTORY_LIMIT: { value: "100" },
        }),
        database(
            "accounts-db",
            "accounts-db",
            {
                POSTGRES_PASSWORD: { secret: C.accountsDbSecret, key: "POSTGRES_PASSWORD" },
                DEMO_LOGIN_USERNAME: { secret: C.demoLoginSecret, key: "DEMO_LOGIN_USERNAME" },
                DEMO_LOGIN_PASSWORD: { secret: C.demoLoginSecret, key: "DEMO_LOGIN_PASSWORD" },
            },
            [C.accountsDb],
            "128Mi",
        ),
        database("ledger-db", "postgres", { POSTGRES_PASSWORD: { secret: C.ledgerDbSecret, key: "POSTGRES_PASSWORD" } }, [C.ledgerDb], "512Mi"),
        {
            name: LOAD_GENERATOR,
            kind: "Deployment",
            container: "loadgenerator",
            image: "bos-loadgenerator",
            containerPort: 8089,
            service: { name: "http", port: 8089 },
            // The locustfile names no target; pointing Locust at the frontend makes its UI ready to start a run.
            env: { LOG_LEVEL: { value: "error" }, LOCUST_HOST: { value: "http://frontend:80" } },
            envFrom: [],
            command: ["locust"],
            resources: jvm,
        },
    ];
}
