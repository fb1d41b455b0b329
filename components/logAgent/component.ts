import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { CHARTS, ChartSettings, DEFAULTS, HOST_PATH_ALLOWED, hostPathProblem } from "../../contracts";
import { section } from "../fluentBitConfig";
import { helmRelease, platformNamespace } from "../helmRelease";
import { secretsRevision } from "../passwordRotation";
import { logParsers } from "../logFormats";
import { LOG_INDEX_PREFIX } from "../logstore";
import { guardedOptions } from "../ownership/guard";

export { section } from "../fluentBitConfig";

/** Arguments of {@link LogAgent}. */
export interface LogAgentArgs {
    /** Chart coordinates of Fluent Bit. Default: the catalogue's fluent-bit entry. */
    chart?: ChartSettings;
    /** Namespace. Default `logagent`. */
    namespace?: string;
    /** Elasticsearch host, e.g. the Logstore's `elasticsearchHost`. Required. */
    elasticsearchHost: pulumi.Input<string>;
    /** Elasticsearch HTTP port. Default 9200. */
    elasticsearchPort?: number;
    /** Elasticsearch user to write as. Required. */
    username: pulumi.Input<string>;
    /** That user's password. Secret; it reaches the pods through a Kubernetes Secret. Required. */
    password: pulumi.Input<string>;
    /**
     * Host directory with the kubelet's container log files (`/var/log/containers` on every
     * containerd node). Comes from the provider factory's platform facts. Required.
     */
    containerLogPath: string;
    /** Host directory those log files link into (`/var/log/pods`). Required. */
    podLogPath: string;
    /** Container runtime of the nodes; selects the log line parser. Required. */
    containerRuntime: "containerd" | "docker";
    /**
     * Index name prefix; daily indices `<prefix>-YYYY.MM.DD`. Default {@link LOG_INDEX_PREFIX}, the only
     * prefix the Logstore's `log-writer` user may write to.
     */
    indexPrefix?: string;
}

/** The Secret with the user and password the log agent writes to Elasticsearch as. */
const CREDENTIALS_SECRET = "elasticsearch-credentials";

/** Where Fluent Bit keeps its read positions on each node, so a restart neither loses nor repeats lines. */
const STATE_DIR = "/var/lib/fluent-bit";

/**
 * Fluent Bit as a DaemonSet: tails every container's log on every node from the path that is right for
 * the cluster's runtime (MARA's Filebeat read `/var/lib/docker/containers`, which is empty on containerd
 * nodes, MARA issue #76), adds Kubernetes metadata and ships to Elasticsearch with credentials from a
 * Kubernetes Secret. Elastic's Filebeat chart has been unmaintained since 2022.
 */
export class LogAgent extends pulumi.ComponentResource {
    /** Namespace of the log agent. */
    public readonly namespace: pulumi.Output<string>;
    /** Status of the Helm release. */
    public readonly status: pulumi.Output<string>;

    constructor(name: string, args: LogAgentArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:observability:LogAgent", name, {}, guardedOptions(name, opts));
        for (const [key, value] of [["containerLogPath", args.containerLogPath], ["podLogPath", args.podLogPath]] as const) {
            const why = hostPathProblem(value ?? "");
            if (why) throw new Error(`LogAgent: ${key} "${value}" ${why}; it is mounted from every node. Allowed: ${HOST_PATH_ALLOWED}.`);
        }
        // Privileged: Fluent Bit reads the node's container logs through host paths (docs/policy.md).
        const ns = platformNamespace(`${name}-ns`, args.namespace ?? DEFAULTS.logAgent.namespace, "privileged", {}, { parent: this, dependsOn: opts?.dependsOn });
        const credentials = new k8s.core.v1.Secret(
            `${name}-credentials`,
            {
                metadata: { name: CREDENTIALS_SECRET, namespace: ns.metadata.name },
                type: "kubernetes.io/basic-auth",
                stringData: { username: args.username, password: pulumi.secret(args.password) },
            },
            { parent: this },
        );
        const release = helmRelease(
            `${name}-release`,
            {
                release: "fluent-bit",
                namespace: ns.metadata.name,
                chart: args.chart ?? CHARTS.logagent,
                // Fluent Bit reads the password from its environment at start: the Secret's revision rolls it when it changes.
                values: pulumi
                    .all([args.elasticsearchHost, credentials.metadata.name, pulumi.all(secretsRevision([CREDENTIALS_SECRET], { [CREDENTIALS_SECRET]: credentials }))])
                    .apply(([host, secretName, podAnnotations]) => logAgentValues({ ...args, elasticsearchHost: host, secretName, podAnnotations })),
            },
            { parent: this },
        );
        this.namespace = ns.metadata.name;
        this.status = release.status.status;
        this.registerOutputs({ namespace: this.namespace, status: this.status });
    }
}

/** What {@link logAgentValues} needs. */
export interface LogAgentValuesInput {
    /** Elasticsearch host name, resolved. */
    elasticsearchHost: string;
    /** Elasticsearch HTTP port. Default 9200. */
    elasticsearchPort?: number;
    /** Kubernetes Secret (in the agent's namespace) with `username` and `password` keys. */
    secretName: string;
    /** Host directory of the container log files (see {@link LogAgentArgs.containerLogPath}). */
    containerLogPath: string;
    /** Host directory the log files link into. */
    podLogPath: string;
    /** Container runtime; `docker` selects the docker parser and also mounts /var/lib/docker/containers. */
    containerRuntime: "containerd" | "docker";
    /** Index name prefix. Default {@link LOG_INDEX_PREFIX}. */
    indexPrefix?: string;
    /** Annotations of the agent's pods: the credentials Secret's revision (passwordRotation.ts). Default none. */
    podAnnotations?: Record<string, string>;
}

/** The node directories Fluent Bit mounts: the logs it tails (and Docker's, on Docker nodes) and its read positions. */
function hostMounts(v: Pick<LogAgentValuesInput, "containerLogPath" | "podLogPath" | "containerRuntime">) {
    return [
        { name: "container-logs", hostPath: v.containerLogPath, readOnly: true },
        { name: "pod-logs", hostPath: v.podLogPath, readOnly: true },
        ...(v.containerRuntime === "docker" ? [{ name: "docker-containers", hostPath: "/var/lib/docker/containers", readOnly: true }] : []),
        { name: "state", hostPath: STATE_DIR, readOnly: false },
    ];
}

/** The host paths Fluent Bit mounts on nodes of this kind: the allow-list of the host-path rule (docs/policy.md). */
export function fluentBitHostPaths(v: Pick<LogAgentValuesInput, "containerLogPath" | "podLogPath" | "containerRuntime">): string[] {
    return hostMounts(v).map((m) => m.hostPath);
}

/** Fluent Bit chart values. The config strings pass through Helm's `tpl`, so they must not contain `{{`. */
export function logAgentValues(v: LogAgentValuesInput): Record<string, unknown> {
    const parser = v.containerRuntime === "docker" ? "docker" : "cri";
    const mounts = hostMounts(v);
    return {
        kind: "DaemonSet",
        ...(v.podAnnotations && Object.keys(v.podAnnotations).length > 0 ? { podAnnotations: v.podAnnotations } : {}),
        // Logs of every node, including tainted ones (system and GPU pools).
        tolerations: [{ operator: "Exists" }],
        env: [
            { name: "ES_USER", valueFrom: { secretKeyRef: { name: v.secretName, key: "username" } } },
            { name: "ES_PASSWORD", valueFrom: { secretKeyRef: { name: v.secretName, key: "password" } } },
        ],
        daemonSetVolumes: mounts.map((m) => ({
            name: m.name,
            hostPath: { path: m.hostPath, ...(m.readOnly ? {} : { type: "DirectoryOrCreate" }) },
        })),
        daemonSetVolumeMounts: mounts.map((m) => ({ name: m.name, mountPath: m.hostPath, readOnly: m.readOnly })),
        config: {
            inputs: section("INPUT", {
                Name: "tail",
                Path: `${v.containerLogPath}/*.log`,
                "multiline.parser": parser,
                Tag: "kube.*",
                DB: `${STATE_DIR}/tail-containers.db`,
                Mem_Buf_Limit: "5MB",
                Skip_Long_Lines: "On",
            }),
            filters: section("FILTER", {
                Name: "kubernetes",
                Match: "kube.*",
                // The tail input's tag is "kube." plus the file path with dots for slashes; the filter reads pod and container from the rest.
                Kube_Tag_Prefix: `kube.${v.containerLogPath.replace(/^\/+/, "").replace(/\//g, ".")}.`,
                Merge_Log: "On",
                Keep_Log: "Off",
                // A pod names the parser of its logs with the fluentbit.io/parser annotation (the ingress controller does).
                "K8S-Logging.Parser": "On",
                "K8S-Logging.Exclude": "On",
            }),
            outputs: section("OUTPUT", {
                Name: "es",
                Match: "kube.*",
                Host: v.elasticsearchHost,
                Port: String(v.elasticsearchPort ?? DEFAULTS.logAgent.elasticsearchPort),
                HTTP_User: "${ES_USER}",
                HTTP_Passwd: "${ES_PASSWORD}",
                Logstash_Format: "On",
                Logstash_Prefix: v.indexPrefix ?? LOG_INDEX_PREFIX,
                // Elasticsearch 8 and later reject requests that name a mapping type.
                Suppress_Type_Name: "On",
                Replace_Dots: "On",
                Generate_ID: "On",
                Retry_Limit: "False",
                tls: "Off",
            }),
            customParsers: logParsers(),
        },
    };
}

