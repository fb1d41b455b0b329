/** `mara preview`: what an update would change, from the real stack state (needs the CLI and credentials). */
import type { Command } from "commander";
import type { CommandContext } from "../kernel/command";
import { registerOperation } from "./operation";

/** Adds the command to the program. */
export function register(program: Command, ctx: CommandContext): void {
    registerOperation(program, ctx, "preview", "show what `pulumi up` would change on the stack (for an offline plan, use `mara plan`)");
}
