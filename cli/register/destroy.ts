/** `mara destroy` (alias `down`, as in MARA's runner): remove every resource of the stack. */
import type { Command } from "commander";
import type { CommandContext } from "../kernel/command";
import { registerOperation } from "./operation";

/** Adds the command to the program. */
export function register(program: Command, ctx: CommandContext): void {
    registerOperation(program, ctx, "destroy", "delete every resource of the stack, in reverse dependency order (keeps the stack and its config)").alias("down");
}
