/** Registration of `mara init`; the command itself (cli/commands/init.ts) is loaded when it runs. */
import type { Command } from "commander";
import { action, collect, CommandContext } from "../kernel/command";
import type { InitOptions } from "../commands/init";

/** Adds the command to the program. */
export function register(program: Command, ctx: CommandContext): void {
    program
        .command("init")
        .description("first run: ask for the missing settings and secrets, validate them and write them to the stack")
        .option("-s, --stack <name>", "stack to configure (asked for when omitted, default dev)")
        .option("-p, --provider <type>", "infrastructure type: aws, digitalocean, linode, kubeconfig (or MARA's AWS, DO, LKE)")
        .option("--set <key=value>", "a setting, canonical or MARA key; repeatable", collect)
        .option("--non-interactive", "never prompt: take values from --set and the environment, and list what is missing")
        .option("--local", "keep state on this machine (pulumi login file://~/.pulumi-mara)")
        .option("--force", "allow changing the stack's infrastructure type, and replacing workflow files --ci wrote before")
        .option("--ci <system>", "also write the stack's CI workflows: github (pull requests: validate and preview; the default branch: up)")
        .option("--review-stacks", "with --ci: a short-lived review stack per pull request, destroyed when it closes")
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        .action(action(ctx, (opts: InitOptions) => (require("../commands/init") as typeof import("../commands/init")).init(opts, ctx)));
}
