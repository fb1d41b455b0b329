/**
 * Registration of the operations (`up`, `preview`, `destroy`, `refresh`), which share their options. The
 * work (cli/operation/run.ts, with the Automation API) is loaded when one of them runs.
 */
import type { Command } from "commander";
import { action, CommandContext } from "../kernel/command";
import type { OperationOptions } from "../commands/operation";
import type { Operation } from "../operation/preflight";

/** Adds one operation as a command, with the options they share. */
export function registerOperation(program: Command, ctx: CommandContext, op: Operation, description: string): Command {
    return program
        .command(op)
        .description(description)
        .option("-s, --stack <name>", "stack to operate on (default: the selected stack)")
        .option("-y, --yes", "do not ask for confirmation" + (op === "up" ? " (and skip the preview before it)" : ""))
        .option("-p, --provider <type>", "infrastructure type this run is for (MARA's -p); must match the stack's")
        .option("--force", "run even if the stack has been used with another infrastructure type")
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        .action(action(ctx, (opts: OperationOptions) => (require("../commands/operation") as typeof import("../commands/operation")).runOperation(op, opts, ctx)));
}
