/**
 * The log agent's mapping from its validated settings onto the Platform's `logAgent` arguments: the one place where
 * its `mara:*` settings become {@link LogAgentArgs}. Called by program/platformArgs.ts. The rest of its arguments
 * (the log store's host, the writer's credentials, the nodes' log paths) are wired by the Platform.
 */
import type { LogAgentArgs } from "./component";
import type { LogAgentSettings } from "./settings";

/** The chart. */
export function logAgentArgsFromSettings(s: LogAgentSettings): Pick<LogAgentArgs, "chart"> {
    return { chart: s.chart };
}
