/**
 * The log agent on the Platform: its arguments (`PlatformArgs.logAgent`, and `logs`, the deprecated group it shares
 * with the log store), its member and how it is created, writing to the log store.
 */
import { DEFAULTS } from "../../contracts";
import { LOG_WRITER_USER } from "../logstore";
import type { PlatformLogstoreArgs } from "../logstore/platformUnit";
import { createdBefore, PlatformUnit } from "../platformUnit";
import { LogAgent, LogAgentArgs } from "./component";

/** The log agent's own settings: its chart; where it writes and as whom come from the platform. */
export type PlatformLogAgentArgs = Pick<LogAgentArgs, "chart">;

/**
 * Logs: the Elasticsearch and Kibana store, and the Fluent Bit agent that writes to it.
 * @deprecated Use {@link PlatformArgs.logstore} and {@link PlatformArgs.logAgent}, named as the add-ons are.
 */
export interface PlatformLogsArgs {
    /** The log store's settings. @deprecated Use {@link PlatformArgs.logstore}. */
    store?: PlatformLogstoreArgs;
    /** The log agent's settings. @deprecated Use {@link PlatformArgs.logAgent}. */
    agent?: PlatformLogAgentArgs;
}

declare module "../platformUnit" {
    interface PlatformArgs {
        /** The log agent: Fluent Bit on every node, writing to the log store. Default: the catalogue's fluent-bit chart. */
        logAgent?: PlatformLogAgentArgs;
        /**
         * Elasticsearch, Kibana and Fluent Bit, under the names of 0.1.0; where both are given, {@link PlatformArgs.logstore}
         * and {@link PlatformArgs.logAgent} win.
         * @deprecated Use `logstore` for `logs.store` and `logAgent` for `logs.agent`.
         */
        logs?: PlatformLogsArgs;
    }
    interface PlatformAddOns {
        /** Fluent Bit, writing to the log store as its `log-writer` user. */
        readonly logAgent: LogAgent;
    }
}

/** The log agent on the Platform, created after the log store it writes to. */
export const LOG_AGENT_UNIT: PlatformUnit = {
    create: ({ name, args, facts, secrets, created, child }) => ({
        logAgent: new LogAgent(
            `${name}-log-agent`,
            {
                ...args.logs?.agent,
                ...args.logAgent,
                elasticsearchHost: createdBefore(created, "logstore", "logAgent").elasticsearchHost,
                // The user the log store creates from the password passed to it.
                username: LOG_WRITER_USER,
                password: secrets.logAgentPassword,
                containerLogPath: facts.containerLogPath,
                podLogPath: facts.podLogPath,
                containerRuntime: facts.containerRuntime,
            },
            // No dependsOn on the Logstore: the release already waits for Elasticsearch through its host name,
            // and waiting for the whole component would also wait for Kibana, which the agent never talks to.
            child("log-agent"),
        ),
    }),
    namespaces: () => [DEFAULTS.logAgent.namespace],
};
