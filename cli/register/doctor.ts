/** Registration of `mara doctor`; the command itself (cli/commands/doctor.ts) is loaded when it runs. */
import type { Command } from "commander";
import { action, CommandContext } from "../kernel/command";
import type { DoctorOptions } from "../commands/doctor";

/** Adds the command to the program. */
export function register(program: Command, ctx: CommandContext): void {
    program
        .command("doctor")
        .description("check the live cluster a stack points at before deploying: access, distribution, conflicts, permissions, capacity (read-only)")
        .option("-c, --config-file <path>", "a Pulumi.<stack>.yaml file")
        .option("-s, --stack <name>", "read ./Pulumi.<name>.yaml")
        .option("--kubeconfig <path>", "examine this kubeconfig's cluster instead of the stack's (alone: with the platform's defaults)")
        .option("--context <name>", "kubeconfig context to use (default: the stack's mara:kubeContext, else the current context)")
        .option("--json", "print one JSON document for scripts")
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        .action(action(ctx, (opts: DoctorOptions) => (require("../commands/doctor") as typeof import("../commands/doctor")).doctor(opts, ctx)));
}
