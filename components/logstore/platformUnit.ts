/** The log store on the Platform: its arguments (`PlatformArgs.logstore`), its member and how it is created. */
import { DEFAULTS } from "../../contracts";
import type { PlatformUnit } from "../platformUnit";
import { Logstore, LogstoreArgs } from "./component";

/** The log store's own settings: its chart, Elastic version, node counts, volume size and whether Kibana's objects are provisioned. */
export type PlatformLogstoreArgs = Pick<LogstoreArgs, "chart" | "version" | "replicas" | "storageSize" | "kibanaObjects">;

declare module "../platformUnit" {
    interface PlatformArgs {
        /** The log store: Elasticsearch and Kibana run by ECK. Default: the {@link Logstore}'s defaults. */
        logstore?: PlatformLogstoreArgs;
    }
    interface PlatformAddOns {
        /** Elasticsearch and Kibana (ECK). */
        readonly logstore: Logstore;
    }
}

/** The log store on the Platform, a stateful add-on. */
export const LOGSTORE_UNIT: PlatformUnit = {
    create: ({ name, args, secrets, storageClassName, stateful }) => ({
        logstore: new Logstore(
            `${name}-logstore`,
            // `logs.store` is the deprecated name of the same arguments (the log agent's unit declares `logs`).
            { ...args.logs?.store, ...args.logstore, storageClassName, logWriterPassword: secrets.logAgentPassword },
            stateful("logstore"),
        ),
    }),
    namespaces: () => [DEFAULTS.logstore.namespace],
};
