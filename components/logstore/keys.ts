/**
 * The log store's configuration keys: the `Log store` group (Elasticsearch's node counts, the Elastic version, the data
 * nodes' volume size and Kibana's objects) and its chart's three keys. Declared with the key machinery
 * (config/keySpec.ts) and spread into the key table (config/keys.ts), so `mara validate`, Pulumi.yaml,
 * docs/configuration.md and the prompts read them as every other key.
 */
import { PATTERNS } from "../../contracts/patterns";
import { chartKeys, spec } from "../../config/keySpec";
import { boolean, integer, text } from "../../config/valueTypes";
import { LOGSTORE_DEFAULTS } from "./defaults";

/** A node count of at least `min` (and at most 50, as every replica key of the table). */
const replicas = (min: number) => integer(min, 50);

/** The `Log store` group. */
export const LOGSTORE_KEYS = {
    logstoreMasterReplicas: spec({
        key: "mara:logstoreMasterReplicas",
        legacy: ["logstore:master_replicas"],
        type: replicas(1),
        default: LOGSTORE_DEFAULTS.replicas.master,
        description: "Elasticsearch master-eligible nodes (use an odd number).",
        group: "Log store",
    }),
    logstoreDataReplicas: spec({
        key: "mara:logstoreDataReplicas",
        legacy: ["logstore:data_replicas"],
        type: replicas(1),
        default: LOGSTORE_DEFAULTS.replicas.data,
        description: "Elasticsearch data nodes.",
        group: "Log store",
    }),
    logstoreIngestReplicas: spec({
        key: "mara:logstoreIngestReplicas",
        legacy: ["logstore:ingest_replicas"],
        type: replicas(0),
        default: LOGSTORE_DEFAULTS.replicas.ingest,
        description: "Elasticsearch ingest nodes.",
        group: "Log store",
    }),
    logstoreCoordinatingReplicas: spec({
        key: "mara:logstoreCoordinatingReplicas",
        legacy: ["logstore:coordinating_replicas"],
        type: replicas(0),
        default: LOGSTORE_DEFAULTS.replicas.coordinating,
        description: "Elasticsearch coordinating-only nodes.",
        group: "Log store",
    }),

    logstoreVersion: spec({
        key: "mara:logstoreVersion",
        type: text({ pattern: /^[89]\.\d+\.\d+$/, allowed: 'an Elasticsearch 8.x or 9.x version such as "9.5.0"' }),
        default: LOGSTORE_DEFAULTS.version,
        description: "Elasticsearch and Kibana version run by the ECK operator.",
        group: "Log store",
    }),
    logstoreStorageSize: spec({
        key: "mara:logstoreStorageSize",
        type: text(PATTERNS.volumeSize),
        default: LOGSTORE_DEFAULTS.storageSize,
        description: "Volume size of each Elasticsearch data node.",
        group: "Log store",
    }),
    kibanaObjects: spec({
        key: "mara:kibanaObjects",
        type: boolean(),
        default: LOGSTORE_DEFAULTS.kibanaObjects,
        description:
            "Provision Kibana's data view for the platform's log indices, a saved search and a dashboard for NGINX traffic, through a Job that runs once Kibana answers and can be rerun (it overwrites only these objects). Turn it off when Kibana's objects are managed elsewhere.",
        group: "Log store",
    }),
} as const;

/** The chart's version, repository and timeout keys, with MARA's `logstore:*` keys as aliases. */
export const LOGSTORE_CHART_KEYS = chartKeys("logstore", "Log store", {
    version: ["logstore:chart_version"],
    url: ["logstore:helm_repo_url"],
    timeout: ["logstore:helm_timeout"],
});
