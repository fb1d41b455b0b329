/**
 * The bounds of the Pulumi CLI commands mara runs, apart from the module that runs them through the Automation API
 * (cli/stack/pulumi.ts), so a command that only asks `pulumi stack output` (`mara render --from-stack`) does not load the SDK.
 */

/** How long a Pulumi CLI query (version, stack selection, configuration, outputs, export, login) may take. */
export const PULUMI_QUERY_TIMEOUT_MS = 120_000;
/** The most a query may print: `pulumi stack export` of a large stack is megabytes. */
export const PULUMI_QUERY_MAX_BYTES = 256 * 1024 * 1024;
/** The Pulumi commands that change or preview the cloud: bounded by Pulumi's own timeouts and Ctrl+C, not by mara. */
export const UNBOUNDED_PULUMI_COMMANDS: readonly string[] = ["up", "preview", "destroy", "refresh", "import"];
