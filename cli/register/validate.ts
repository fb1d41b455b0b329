/** Registration of `mara validate`; the command itself (cli/commands/validate.ts) is loaded when it runs. */
import type { Command } from "commander";
import { action, CommandContext } from "../kernel/command";
import type { StackFileChoice } from "../stack/stackSource";

/** Adds the command to the program. */
export function register(program: Command, ctx: CommandContext): void {
    program
        .command("validate")
        .description("check a stack file's configuration offline and list every problem (no CLI, no credentials)")
        .option("-c, --config-file <path>", "a Pulumi.<stack>.yaml file, ours or MARA's")
        .option("-s, --stack <name>", "read ./Pulumi.<name>.yaml")
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        .action(action(ctx, (opts: StackFileChoice) => (require("../commands/validate") as typeof import("../commands/validate")).validate(opts, ctx)));
}
