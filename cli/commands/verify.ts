/**
 * `mara verify`: checks a deployed Bank of Sirius from the stack outputs piped in (or read from a file):
 * readiness, then a login as the stack's demo user. `npm run verify` runs the same command.
 */
import { readFile } from "fs/promises";
import type { CommandContext } from "../command";
import { CliError, EXIT, Input, line } from "../io";
import { parseStackOutputs, PIPE_COMMAND, StackTarget, verifyApplication } from "../verify";

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
