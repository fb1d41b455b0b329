/** Registration of `mara plan`; the command itself (cli/commands/plan.ts, which runs the program) is loaded when it runs. */
import type { Command } from "commander";
import { action, CommandContext } from "../kernel/command";
import type { PlanOptions } from "../commands/plan";

/** Adds the command to the program. */
export function register(cli: Command, ctx: CommandContext): void {
    cli.command("plan")
        .description("show offline what `pulumi up` would create: component tree, resource counts, Helm charts and images with their versions, dependency graph")
        .option("-c, --config-file <path>", "a Pulumi.<stack>.yaml file, ours or MARA's")
        .option("-s, --stack <name>", "read ./Pulumi.<name>.yaml")
        .option("--mermaid <file>", "write the dependency graph between components as Mermaid (- for standard output)")
        .option("--dot <file>", "write the dependency graph between components as Graphviz DOT (- for standard output)")
        .option("--json", "print the plan as JSON on standard output, for scripts")
        .option("--policy", "also run the policy pack (docs/policy.md) over what would be deployed; a mandatory violation fails the command")
        .option("--policy-config <file>", "the pack's configuration, as pulumi preview --policy-pack-config takes it (implies --policy)")
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        .action(action(ctx, (opts: PlanOptions) => (require("../commands/plan") as typeof import("../commands/plan")).plan(opts, ctx)));
}
