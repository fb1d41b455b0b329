import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { CHARTS, ChartSettings, DEFAULTS, PATTERNS, requireMatch, withDefaults } from "../../contracts";
import { helmRelease, platformNamespace } from "../helmRelease";
import { kibanaSetup } from "./kibanaSetup";
import { ACCESS_LOG_FIELDS } from "../logFormats";
import { guardedOptions } from "../ownership/guard";

/** Elasticsearch node counts per role (MARA's `logstore:*_replicas`). */
export interface LogstoreReplicas {
    /** Master-eligible nodes; use an odd number. Default 1. */
    master?: number;
    /** Data nodes. Default 1. */
    data?: number;
    /** Ingest nodes; 0 leaves ingest to no one. Default 1. */
    ingest?: number;
    /** Coordinating-only nodes; 0 for none. Default 1. */
    coordinating?: number;
}

/** Arguments of {@link Logstore}. */
export interface LogstoreArgs {
    /** Chart coordinates of the ECK operator. Default: the catalogue's eck-operator entry. */
    chart?: ChartSettings;
    /** Namespace of the operator, Elasticsearch and Kibana. Default `logstore`. */
    namespace?: string;
    /** Elasticsearch and Kibana version. Default `9.5.0` (ECK 3.5's default stack version). */
    version?: string;
    /** Nodes per role. Default one master, data, ingest and coordinating node each (MARA's counts). */
    replicas?: LogstoreReplicas;
    /** Volume size of each data node. Default `10Gi`. */
    storageSize?: string;
    /**
     * StorageClass of the volumes. Pass the class resource's `metadata.name` (an Output) when the class is created
     * in the same stack, so the Elasticsearch claims wait for the class. Default: the cluster's default class.
     */
    storageClassName?: pulumi.Input<string>;
    /**
     * Password of the `log-writer` user, which may only create and write `kubernetes-*` indices.
     * The user is created when this is set; the log agent authenticates as it. Secret.
     */
    logWriterPassword?: pulumi.Input<string>;
    /**
     * Import a data view of the log indices (`kubernetes-*`), a saved search of the ingress controller's access
     * log and a dashboard showing it into Kibana, with a Job that waits for Kibana. Default true.
     */
    kibanaObjects?: boolean;
}

/** Name of the Elasticsearch cluster; ECK names its Service `<name>-es-http`. */
export const ELASTICSEARCH_NAME = "elastic";
/** Name of the Kibana instance; ECK names its Service `<name>-kb-http`. */
export const KIBANA_NAME = "kibana";
/** How long the Kibana setup Job waits for Kibana (a first install pulls the images and starts Elasticsearch first). */
const KIBANA_WAIT_SECONDS = 1200;
/** User the log agent writes as. */
export const LOG_WRITER_USER = "log-writer";
/** Index prefix the log agent writes to; the only indices the log writer may touch. */
export const LOG_INDEX_PREFIX = "kubernetes";

/**
 * Elasticsearch and Kibana run by Elastic's own operator (ECK), replacing MARA's Bitnami chart, whose
 * images are no longer maintained for free. The operator's CRDs come with its release, so the
 * Elasticsearch and Kibana resources are created after it. Node sets follow MARA's replica keys.
 */
export class Logstore extends pulumi.ComponentResource {
    /** Namespace of the log store. */
    public readonly namespace: pulumi.Output<string>;
    /** In-cluster host name of Elasticsearch's HTTP Service. */
    public readonly elasticsearchHost: pulumi.Output<string>;
    /** Elasticsearch URL (plain HTTP inside the cluster; authentication is always on). */
    public readonly elasticsearchUrl: pulumi.Output<string>;
    /** In-cluster host name of Kibana's Service. */
    public readonly kibanaHost: pulumi.Output<string>;
    /** Kibana URL inside the cluster. */
    public readonly kibanaUrl: pulumi.Output<string>;
    /** Secret (in the log store's namespace) holding the `elastic` superuser's password under key `elastic`. */
    public readonly adminSecretName: pulumi.Output<string>;
    /** The user the log agent writes as, when `logWriterPassword` was given. */
    public readonly logWriterUser?: pulumi.Output<string>;
    /** Status of the ECK operator's Helm release (MARA's `logstat_status`). */
    public readonly status: pulumi.Output<string>;

    constructor(name: string, args: LogstoreArgs = {}, opts?: pulumi.ComponentResourceOptions) {
        super("mara:observability:Logstore", name, {}, guardedOptions(name, opts));
        const replicas = validateLogstoreArgs(args);
        const version = args.version ?? DEFAULTS.logstore.version;
        // Baseline: ECK's operator and the Elasticsearch and Kibana pods it starts set no seccomp profile (docs/policy.md).
        const ns = platformNamespace(`${name}-ns`, args.namespace ?? DEFAULTS.logstore.namespace, "baseline", {}, { parent: this, dependsOn: opts?.dependsOn });
        const operator = helmRelease(
            `${name}-operator`,
            {
                release: "eck-operator",
                namespace: ns.metadata.name,
                chart: args.chart ?? CHARTS.logstore,
                values: { installCRDs: true, webhook: { enabled: true, failurePolicy: "Ignore" } },
            },
            { parent: this },
        );

        const auth: Record<string, unknown> = {};
        const authSecrets: pulumi.Resource[] = [];
        if (args.logWriterPassword !== undefined) {
            const roles = new k8s.core.v1.Secret(
                `${name}-roles`,
                { metadata: { name: "logstore-roles", namespace: ns.metadata.name }, stringData: { "roles.yml": LOG_WRITER_ROLE } },
                { parent: this },
            );
            const user = new k8s.core.v1.Secret(
                `${name}-log-writer`,
                {
                    metadata: { name: "logstore-log-writer", namespace: ns.metadata.name },
                    type: "kubernetes.io/basic-auth",
                    stringData: { username: LOG_WRITER_USER, password: pulumi.secret(args.logWriterPassword), roles: "mara_log_writer" },
                },
                { parent: this },
            );
            auth.roles = [{ secretName: roles.metadata.name }];
            auth.fileRealm = [{ secretName: user.metadata.name }];
            authSecrets.push(roles, user);
            this.logWriterUser = pulumi.output(LOG_WRITER_USER);
        }

        const es = new k8s.apiextensions.CustomResource(
            `${name}-elasticsearch`,
            {
                apiVersion: "elasticsearch.k8s.elastic.co/v1",
                kind: "Elasticsearch",
                metadata: { name: ELASTICSEARCH_NAME, namespace: ns.metadata.name },
                spec: pulumi
                    .output(args.storageClassName)
                    .apply((storageClassName) => elasticsearchSpec(version, replicas, args.storageSize ?? DEFAULTS.logstore.storageSize, storageClassName, auth)),
            },
            { parent: this, dependsOn: [operator, ...authSecrets] },
        );
        const kibana = new k8s.apiextensions.CustomResource(
            `${name}-kibana`,
            {
                apiVersion: "kibana.k8s.elastic.co/v1",
                kind: "Kibana",
                metadata: { name: KIBANA_NAME, namespace: ns.metadata.name },
                spec: {
                    version,
                    count: 1,
                    elasticsearchRef: { name: es.metadata.name },
                    http: { tls: { selfSignedCertificate: { disabled: true } } },
                    podTemplate: { spec: { containers: [{ name: "kibana", resources: memory("2Gi") }] } },
                },
            },
            { parent: this, dependsOn: [operator] },
        );

        const kibanaUrl = pulumi.interpolate`http://${kibana.metadata.name}-kb-http.${ns.metadata.name}.svc.cluster.local:5601`;
        if (args.kibanaObjects ?? DEFAULTS.logstore.kibanaObjects) {
            kibanaSetup(
                `${name}-kibana-setup`,
                {
                    namespace: ns.metadata.name,
                    kibanaUrl,
                    adminSecretName: pulumi.interpolate`${es.metadata.name}-es-elastic-user`,
                    adminSecretKey: "elastic",
                    indexPattern: `${LOG_INDEX_PREFIX}-*`,
                    nginxColumns: ACCESS_LOG_FIELDS,
                    waitSeconds: KIBANA_WAIT_SECONDS,
                },
                // After Kibana in the graph; the Job itself waits until Kibana answers.
                { parent: this, dependsOn: [kibana], customTimeouts: { create: "30m", update: "30m" } },
            );
        }

        this.namespace = ns.metadata.name;
        this.elasticsearchHost = pulumi.interpolate`${es.metadata.name}-es-http.${ns.metadata.name}.svc.cluster.local`;
        this.elasticsearchUrl = pulumi.interpolate`http://${this.elasticsearchHost}:9200`;
        this.kibanaHost = pulumi.interpolate`${kibana.metadata.name}-kb-http.${ns.metadata.name}.svc.cluster.local`;
        this.kibanaUrl = kibanaUrl;
        this.adminSecretName = pulumi.interpolate`${es.metadata.name}-es-elastic-user`;
        this.status = operator.status.status;
        this.registerOutputs({
            namespace: this.namespace,
            elasticsearchHost: this.elasticsearchHost,
            elasticsearchUrl: this.elasticsearchUrl,
            kibanaHost: this.kibanaHost,
            kibanaUrl: this.kibanaUrl,
            adminSecretName: this.adminSecretName,
            logWriterUser: this.logWriterUser,
            status: this.status,
        });
    }
}

/** Elasticsearch file-realm role of the log writer: create and write its own indices, nothing else. */
export const LOG_WRITER_ROLE = `mara_log_writer:
  cluster: ["monitor"]
  indices:
    - names: ["${LOG_INDEX_PREFIX}-*"]
      privileges: ["create_index", "create_doc", "index", "auto_configure", "view_index_metadata"]
`;

/** Container resources: `size` of memory requested and the same as limit (Elasticsearch sizes its heap from it), 250m CPU requested. */
const memory = (size: string) => ({ requests: { memory: size, cpu: "250m" }, limits: { memory: size } });

/**
 * The Elasticsearch spec: one node set per role with a non-zero count. Memory-mapped storage is off so
 * nodes need no `vm.max_map_count` change; in-cluster HTTP is plain, authentication stays on.
 */
export function elasticsearchSpec(
    version: string,
    replicas: Required<LogstoreReplicas>,
    storageSize: string,
    storageClassName: string | undefined,
    auth: Record<string, unknown>,
): Record<string, unknown> {
    const roles: [keyof LogstoreReplicas, string[], string, string][] = [
        ["master", ["master"], "2Gi", "1Gi"],
        ["data", ["data"], storageSize, "2Gi"],
        ["ingest", ["ingest"], "1Gi", "1Gi"],
        ["coordinating", [], "1Gi", "1Gi"],
    ];
    const nodeSets = roles
        .filter(([role]) => replicas[role] > 0)
        .map(([role, nodeRoles, storage, mem]) => ({
            name: role,
            count: replicas[role],
            config: { "node.roles": nodeRoles, "node.store.allow_mmap": false },
            podTemplate: { spec: { containers: [{ name: "elasticsearch", resources: memory(mem) }] } },
            volumeClaimTemplates: [
                {
                    metadata: { name: "elasticsearch-data" },
                    spec: {
                        accessModes: ["ReadWriteOnce"],
                        resources: { requests: { storage } },
                        ...(storageClassName ? { storageClassName } : {}),
                    },
                },
            ],
        }));
    return {
        version,
        http: { tls: { selfSignedCertificate: { disabled: true } } },
        ...(Object.keys(auth).length ? { auth } : {}),
        nodeSets,
    };
}

/** Checks replica counts and sizes; returns the counts with defaults applied. */
export function validateLogstoreArgs(args: LogstoreArgs): Required<LogstoreReplicas> {
    const r = withDefaults(DEFAULTS.logstore.replicas, args.replicas ?? {});
    for (const [role, min] of [["master", 1], ["data", 1], ["ingest", 0], ["coordinating", 0]] as const) {
        if (!Number.isInteger(r[role]) || r[role] < min) {
            throw new Error(`Logstore: replicas.${role} must be a whole number of at least ${min}; got ${r[role]}.`);
        }
    }
    if (args.storageSize !== undefined) requireMatch("Logstore", "storageSize", args.storageSize, PATTERNS.volumeSize);
    return r;
}
