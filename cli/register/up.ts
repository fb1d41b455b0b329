/** `mara up`: deploy the stack (preview, confirm, update), with pre-flight checks and the provider lock. */
import type { Command } from "commander";
import type { CommandContext } from "../kernel/command";
import { registerOperation } from "./operation";

/** Adds the command to the program. */
export function register(program: Command, ctx: CommandContext): void {
    registerOperation(program, ctx, "up", "deploy or update the stack: pre-flight checks (on an existing cluster, mara doctor's too), preview, confirmation, then `pulumi up`").option(
        "--skip-doctor",
        "on an existing cluster, do not run mara doctor's checks of the live cluster first",
    );
}
