/**
 * The log store's mapping from its validated settings onto the Platform's `logstore` arguments: the one place where
 * its `mara:*` settings become {@link LogstoreArgs}. Called by program/platformArgs.ts.
 */
import type { LogstoreArgs } from "./component";
import type { LogstoreSettings } from "./settings";

/** The chart, Elastic version, node counts, volume size and whether Kibana's objects are provisioned. */
export function logstoreArgsFromSettings(s: LogstoreSettings): Pick<LogstoreArgs, "chart" | "version" | "replicas" | "storageSize" | "kibanaObjects"> {
    return { chart: s.chart, version: s.version, replicas: s.replicas, storageSize: s.storageSize, kibanaObjects: s.kibanaObjects };
}
