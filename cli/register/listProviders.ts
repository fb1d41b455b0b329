/** Registration of `mara list-providers`; the command itself (cli/commands/listProviders.ts) is loaded when it runs. */
import type { Command } from "commander";
import { action, CommandContext } from "../kernel/command";

/** Adds the command to the program. */
export function register(program: Command, ctx: CommandContext): void {
    program
        .command("list-providers")
        .description("list the supported infrastructure types, with MARA's names, and what each creates")
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        .action(action(ctx, () => (require("../commands/listProviders") as typeof import("../commands/listProviders")).listProviders(ctx)));
}
