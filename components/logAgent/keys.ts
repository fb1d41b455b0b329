/**
 * The log agent's configuration keys: its chart's three keys, in the `Log agent` group (the agent has no other setting:
 * where it writes and as whom come from the log store and the secrets). Their stem stays `logagent`, as
 * `mara:logagentChartVersion` is a stack-file key users already have. Declared with the key machinery
 * (config/keySpec.ts) and spread into the key table (config/keys.ts).
 */
import { chartKeys } from "../../config/keySpec";

/** The chart's version, repository and timeout keys, with MARA's `logagent:*` keys as aliases. */
export const LOG_AGENT_CHART_KEYS = chartKeys("logagent", "Log agent", {
    version: ["logagent:chart_version"],
    url: ["logagent:helm_repo_url"],
    timeout: ["logagent:helm_timeout"],
});
