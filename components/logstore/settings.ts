/**
 * The log store's section of the validated configuration, and the rule across its keys. Read by config/validate.ts,
 * which resolves the keys (keys.ts) and hands this module the lookups; the section is `MaraConfig.logstore`.
 */
import type { ChartSettings } from "../../contracts";
import type { Lookup } from "../../config/lookup";
import type { Findings } from "../../config/resolve";

/** The log store's validated settings (`MaraConfig.logstore`). */
export interface LogstoreSettings {
    /** The ECK operator's chart: the catalogue's pin, or the version, mirror, timeout and archive the stack sets. */
    readonly chart: ChartSettings;
    /** Elasticsearch and Kibana version. */
    readonly version: string;
    /** Volume size of each Elasticsearch data node. */
    readonly storageSize: string;
    /** Whether the Kibana data view, saved search and dashboard are provisioned. */
    readonly kibanaObjects: boolean;
    /** Elasticsearch nodes per role. */
    readonly replicas: { readonly master: number; readonly data: number; readonly ingest: number; readonly coordinating: number };
}

/** The section from the resolved keys and the chart the validation settled on (version, mirror, archive). */
export function logstoreSettings({ d }: Pick<Lookup, "d">, chart: ChartSettings): LogstoreSettings {
    return {
        chart,
        version: d("logstoreVersion"),
        storageSize: d("logstoreStorageSize"),
        kibanaObjects: d("kibanaObjects"),
        replicas: {
            master: d("logstoreMasterReplicas"),
            data: d("logstoreDataReplicas"),
            ingest: d("logstoreIngestReplicas"),
            coordinating: d("logstoreCoordinatingReplicas"),
        },
    };
}

/** An even number of masters is legal but buys nothing over one fewer: a warning, not a problem. */
export function checkLogstoreKeys({ v, keyOf }: Pick<Lookup, "v" | "keyOf">, findings: Findings): void {
    const masters = v("logstoreMasterReplicas");
    if (masters !== undefined && masters > 1 && masters % 2 === 0) {
        findings.warn(
            `${keyOf("logstoreMasterReplicas")} = ${masters}: an even number of Elasticsearch masters tolerates no more failures than ${masters - 1}; use an odd number.`,
        );
    }
}
