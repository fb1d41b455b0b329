/**
 * What Kibana opens on: a data view of the platform's log indices and, for the ingress controller's access log,
 * a saved search and a dashboard showing it. MARA's Filebeat loaded its dashboards and index patterns into Kibana;
 * Fluent Bit does not, so a Kubernetes Job imports them through Kibana's saved objects API once Kibana answers.
 *
 * A Job rather than a Pulumi provider: there is no maintained Pulumi provider for Kibana on npm, and any provider
 * would call Kibana's API from the machine running Pulumi, where Kibana's in-cluster Service cannot be reached. The
 * Job waits for Kibana and retries the import until it succeeds or its deadline passes; the import overwrites
 * objects with fixed ids, so every run converges on the same objects. The `elastic` user's password reaches it
 * only through `secretKeyRef` and curl reads it from standard input, never from its arguments.
 */
import * as crypto from "crypto";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";

/** The image the Job runs: curl and a POSIX shell. */
export const KIBANA_SETUP_IMAGE = "curlimages/curl:8.16.0";

/** Fixed ids of the saved objects, so an import overwrites them instead of adding copies. */
export const KIBANA_OBJECT_IDS = { dataView: "mara-logs", nginxSearch: "mara-nginx-access", nginxDashboard: "mara-nginx-traffic" } as const;

/** What {@link kibanaSetup} needs. */
export interface KibanaSetupArgs {
    /** Namespace of Kibana and of the Secret below. */
    namespace: pulumi.Input<string>;
    /** Kibana's URL inside the cluster. */
    kibanaUrl: pulumi.Input<string>;
    /** Secret holding the `elastic` user's password (ECK's `<cluster>-es-elastic-user`). */
    adminSecretName: pulumi.Input<string>;
    /** Key of the password in that Secret (`elastic`). */
    adminSecretKey: string;
    /** Index pattern of the data view, e.g. `kubernetes-*`. */
    indexPattern: string;
    /** Access-log fields under `nginx.` that the saved search shows as columns. */
    nginxColumns: readonly string[];
    /** How long the Job waits for Kibana before failing, in seconds. */
    waitSeconds: number;
}

/**
 * The saved objects, one JSON document per line as the import API takes them: the data view, the saved search of
 * the access log (records with an `nginx.status`), and a dashboard holding that search.
 */
export function kibanaSavedObjects(indexPattern: string, nginxColumns: readonly string[]): string {
    const ids = KIBANA_OBJECT_IDS;
    const searchSource = {
        query: { query: "nginx.status : *", language: "kuery" },
        filter: [],
        indexRefName: "kibanaSavedObjectMeta.searchSourceJSON.index",
    };
    const objects = [
        {
            type: "index-pattern",
            id: ids.dataView,
            attributes: { title: indexPattern, name: "Platform logs", timeFieldName: "@timestamp" },
            references: [],
        },
        {
            type: "search",
            id: ids.nginxSearch,
            attributes: {
                title: "NGINX Ingress Controller access log",
                description: "Every request through the ingress controller, newest first. Numbers (status, request_time, bytes) can be filtered by range.",
                columns: ["kubernetes.pod_name", ...nginxColumns.map((c) => `nginx.${c}`)],
                sort: [["@timestamp", "desc"]],
                kibanaSavedObjectMeta: { searchSourceJSON: JSON.stringify(searchSource) },
            },
            references: [{ name: "kibanaSavedObjectMeta.searchSourceJSON.index", type: "index-pattern", id: ids.dataView }],
        },
        {
            type: "dashboard",
            id: ids.nginxDashboard,
            attributes: {
                title: "NGINX Ingress Controller traffic",
                description: "The ingress controller's access log; filter by nginx.status >= 500 for errors, sort by nginx.request_time for slow requests.",
                timeRestore: true,
                timeFrom: "now-1h",
                timeTo: "now",
                panelsJSON: JSON.stringify([
                    { type: "search", panelIndex: "access-log", gridData: { x: 0, y: 0, w: 48, h: 30, i: "access-log" }, embeddableConfig: {}, panelRefName: "panel_access-log" },
                ]),
                optionsJSON: JSON.stringify({ useMargins: true, hidePanelTitles: false }),
                kibanaSavedObjectMeta: { searchSourceJSON: JSON.stringify({ query: { query: "", language: "kuery" }, filter: [] }) },
            },
            references: [{ name: "panel_access-log", type: "search", id: ids.nginxSearch }],
        },
    ];
    return objects.map((o) => JSON.stringify(o)).join("\n") + "\n";
}

/**
 * The Job's script: retry the import until Kibana accepts it or `WAIT_SECONDS` pass. While Kibana starts, the
 * API refuses connections or answers 503, and curl fails; the import's own `success` decides the end. The
 * password goes to curl as a config file on standard input, so no process listing shows it.
 */
export const KIBANA_SETUP_SCRIPT = `#!/bin/sh
set -u
SETUP_DIR=\${SETUP_DIR:-/setup}
TMPDIR=\${TMPDIR:-/tmp}
deadline=$(( $(date +%s) + WAIT_SECONDS ))
attempt=0
while :; do
  attempt=$((attempt + 1))
  rm -f "$TMPDIR/result"
  if printf 'user = "elastic:%s"\\n' "$ELASTIC_PASSWORD" | curl --silent --show-error --fail --config - \\
      --header 'kbn-xsrf: true' --form "file=@$SETUP_DIR/objects.ndjson" \\
      --output "$TMPDIR/result" "$KIBANA_URL/api/saved_objects/_import?overwrite=true" \\
      && grep -q '"success":true' "$TMPDIR/result"; then
    echo "imported the saved objects into Kibana at $KIBANA_URL (attempt $attempt)"
    exit 0
  fi
  [ -f "$TMPDIR/result" ] && cat "$TMPDIR/result" && echo
  if [ "$(date +%s)" -ge "$deadline" ]; then
    echo "Kibana at $KIBANA_URL did not accept the saved objects within $WAIT_SECONDS s ($attempt attempts)" >&2
    exit 1
  fi
  echo "waiting for Kibana at $KIBANA_URL (attempt $attempt)"
  sleep "\${RETRY_SECONDS:-10}"
done
`;

/** Name of the setup Job in the log store's namespace; its ConfigMap adds `-files`. */
export const KIBANA_SETUP_NAME = "kibana-setup";

/**
 * Creates the ConfigMap (objects and script, nothing secret) and the Job. The Job is replaced whenever the objects
 * or the script change, so a `pulumi up` that changes them imports them again; otherwise it runs once.
 */
export function kibanaSetup(name: string, a: KibanaSetupArgs, opts: pulumi.CustomResourceOptions): k8s.batch.v1.Job {
    const objects = kibanaSavedObjects(a.indexPattern, a.nginxColumns);
    const digest = crypto.createHash("sha256").update(objects).update(KIBANA_SETUP_SCRIPT).digest("hex").slice(0, 16);
    const files = new k8s.core.v1.ConfigMap(
        `${name}-files`,
        // Named, like the log store's other objects, rather than named by Pulumi with a random suffix: the Job and
        // its files are then found by name (`kubectl -n logstore logs job/kibana-setup`), and `mara render` can write them.
        { metadata: { name: KIBANA_SETUP_NAME + "-files", namespace: a.namespace, labels: { "app.kubernetes.io/part-of": "mara" } }, data: { "objects.ndjson": objects, "setup.sh": KIBANA_SETUP_SCRIPT } },
        opts,
    );
    const labels = { "app.kubernetes.io/name": "kibana-setup", "app.kubernetes.io/part-of": "mara" };
    return new k8s.batch.v1.Job(
        name,
        {
            // A named Job that must be replaced is deleted first (the Kubernetes provider does so for named objects).
            metadata: { name: KIBANA_SETUP_NAME, namespace: a.namespace, labels },
            spec: {
                backoffLimit: 3,
                // Kibana's wait plus the retries; a Job still running then fails, and so does `pulumi up`.
                activeDeadlineSeconds: a.waitSeconds + 300,
                template: {
                    metadata: { labels, annotations: { "mara.nginx.com/objects-digest": digest } },
                    spec: {
                        restartPolicy: "Never",
                        automountServiceAccountToken: false,
                        securityContext: { runAsNonRoot: true, runAsUser: 100, seccompProfile: { type: "RuntimeDefault" } },
                        containers: [
                            {
                                name: "import",
                                image: KIBANA_SETUP_IMAGE,
                                command: ["/bin/sh", "/setup/setup.sh"],
                                env: [
                                    { name: "KIBANA_URL", value: a.kibanaUrl },
                                    { name: "WAIT_SECONDS", value: String(a.waitSeconds) },
                                    { name: "ELASTIC_PASSWORD", valueFrom: { secretKeyRef: { name: a.adminSecretName, key: a.adminSecretKey } } },
                                ],
                                volumeMounts: [
                                    { name: "setup", mountPath: "/setup", readOnly: true },
                                    { name: "tmp", mountPath: "/tmp" },
                                ],
                                resources: { requests: { cpu: "10m", memory: "16Mi" }, limits: { memory: "64Mi" } },
                                securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ["ALL"] } },
                            },
                        ],
                        volumes: [
                            { name: "setup", configMap: { name: files.metadata.name } },
                            { name: "tmp", emptyDir: {} },
                        ],
                    },
                },
            },
        },
        opts,
    );
}
