/** `mara refresh`: bring the stack's state in line with what exists in the cloud. */
import type { Command } from "commander";
import type { CommandContext } from "../kernel/command";
import { registerOperation } from "./operation";

/** Adds the command to the program. */
export function register(program: Command, ctx: CommandContext): void {
    registerOperation(program, ctx, "refresh", "update the stack's state to match the cloud resources");
}
