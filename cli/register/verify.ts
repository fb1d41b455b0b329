/** Registration of `mara verify`; the command itself (cli/commands/verify.ts) is loaded when it runs. */
import { InvalidArgumentError, type Command } from "commander";
import { action, CommandContext } from "../kernel/command";
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, PIPE_COMMAND } from "../verify/check";

/** Parses `--timeout`: a positive number of seconds up to {@link MAX_TIMEOUT_MS}, returned in milliseconds. */
function seconds(text: string): number {
    const n = Number(text);
    if (!Number.isFinite(n) || n <= 0 || n * 1000 > MAX_TIMEOUT_MS) throw new InvalidArgumentError(`needs a positive number of seconds, at most ${MAX_TIMEOUT_MS / 1000}, not "${text}"`);
    return n * 1000;
}

/** Adds the command to the program. */
export function register(program: Command, ctx: CommandContext): void {
    program
        .command("verify")
        .description(`log in to the deployed Bank of Sirius as the stack's demo user: ${PIPE_COMMAND}`)
        .option("--outputs-file <path>", "read the stack outputs JSON from this file instead of standard input")
        .option("--insecure", "do not verify the TLS certificate (the default self-signed issuer's)")
        .option("--timeout <seconds>", `limit for each HTTP request (default ${DEFAULT_TIMEOUT_MS / 1000})`, seconds)
        .action(
            action(ctx, (o: { outputsFile?: string; insecure?: boolean; timeout?: number }) =>
                // eslint-disable-next-line @typescript-eslint/no-require-imports
                (require("../commands/verify") as typeof import("../commands/verify")).verify({ outputsFile: o.outputsFile, insecure: o.insecure, timeoutMs: o.timeout }, ctx),
            ),
        );
}
