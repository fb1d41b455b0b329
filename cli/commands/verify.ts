/**
 * `mara verify`: checks a deployed Bank of Sirius from the stack outputs piped in (or read from a file):
 * readiness, then a login as the stack's demo user. `npm run verify` runs the same command.
 */
import { readFile } from "fs/promises";
import { InvalidArgumentError, type Command } from "commander";
import { action, CommandContext } from "../command";
import { CliError, EXIT, Input, line } from "../io";
import { DEFAULT_TIMEOUT_MS, parseStackOutputs, PIPE_COMMAND, StackTarget, verifyApplication } from "../verify";

/** Options of {@link verify}. */
export interface VerifyCommandOptions {
    /** Read the outputs JSON from this file instead of standard input. */
    readonly outputsFile?: string;
    /** Do not verify the TLS certificate (the demo ingress's is self-signed). */
    readonly insecure?: boolean;
    /** Limit for each HTTP request, in milliseconds. */
    readonly timeoutMs?: number;
}

/**
 * Reads the stack outputs, runs the check and prints one result line.
 *
 * @returns 0 when the application passed; 1 when it failed, or the outputs do not describe it; 2 when
 * there is nothing to read.
 */
export async function verify(opts: VerifyCommandOptions, ctx: CommandContext): Promise<number> {
    const { io } = ctx;
    const json = opts.outputsFile !== undefined ? await readOutputsFile(opts.outputsFile) : await readPiped(io.stdin);
    if (json.trim() === "") throw new CliError(`the stack outputs are empty; run: ${PIPE_COMMAND} (is the stack selected and deployed?)`, EXIT.usage);

    let target: StackTarget;
    try {
        target = parseStackOutputs(json);
    } catch (err) {
        line(io.stdout, `Application failed health check: ${(err as Error).message}`);
        return EXIT.failed;
    }
    if (opts.insecure && target.url.startsWith("https:")) {
        line(io.stderr, `mara: --insecure: not verifying the TLS certificate of ${new URL(target.url).host}`);
    }
    const result = await verifyApplication({ ...target, insecure: opts.insecure, timeoutMs: opts.timeoutMs });
    line(io.stdout, result.ok ? `Application passed health check: ${target.url}` : `Application failed health check: ${result.message}`);
    return result.ok ? EXIT.ok : EXIT.failed;
}

async function readOutputsFile(file: string): Promise<string> {
    try {
        return await readFile(file, "utf8");
    } catch (err) {
        throw new CliError(`cannot read --outputs-file ${file}: ${(err as Error).message}`, EXIT.usage);
    }
}

async function readPiped(stdin: Input | undefined): Promise<string> {
    // Reading a terminal would wait for input the user does not know to type.
    if (!stdin || stdin.isTTY) throw new CliError(`nothing piped in; run: ${PIPE_COMMAND}`, EXIT.usage);
    let text = "";
    for await (const chunk of stdin) text += typeof chunk === "string" ? chunk : chunk.toString("utf8");
    return text;
}

/** Parses `--timeout`: a positive number of seconds, returned in milliseconds. */
function seconds(text: string): number {
    const n = Number(text);
    if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`needs a positive number of seconds, not "${text}"`);
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
                verify({ outputsFile: o.outputsFile, insecure: o.insecure, timeoutMs: o.timeout }, ctx),
            ),
        );
}
