/**
 * `mara verify`: checks a deployed Bank of Sirius from the stack outputs piped in (or read from a file):
 * readiness, then a login as the stack's demo user. `npm run verify` runs the same command.
 */
import { createReadStream } from "fs";
import type { CommandContext } from "../kernel/command";
import { CliError, EXIT, Input, line } from "../kernel/io";
import { parseStackOutputs, PIPE_COMMAND, StackTarget, verifyApplication } from "../verify/check";

/** The most read of the stack outputs: a stack's outputs (a kubeconfig among them) are kilobytes. */
export const MAX_OUTPUTS_BYTES = 16 * 1024 * 1024;

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
        // A stream, not readFile: the file may be a pipe (bash's <(pulumi stack output ...)); its size is capped as it is read.
        return await readCapped(createReadStream(file), `the stack outputs in --outputs-file ${file}`);
    } catch (err) {
        if ((err as Error).name === "CliError") throw err;
        const code = (err as NodeJS.ErrnoException).code;
        const why = code === "ENOENT" ? "it does not exist" : code === "EISDIR" ? "it is a directory" : code === "EACCES" ? "permission denied" : `it cannot be read (${code ?? "error"})`;
        throw new CliError(`cannot read --outputs-file ${file}: ${why}`, EXIT.usage);
    }
}

async function readPiped(stdin: Input | undefined): Promise<string> {
    // Reading a terminal would wait for input the user does not know to type.
    if (!stdin || stdin.isTTY) throw new CliError(`nothing piped in; run: ${PIPE_COMMAND}`, EXIT.usage);
    return readCapped(stdin, "the stack outputs piped in");
}

/** Reads the whole stream, refusing more than {@link MAX_OUTPUTS_BYTES}. */
async function readCapped(input: AsyncIterable<string | Buffer>, what: string): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of input) {
        const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
        size += bytes.length;
        if (size > MAX_OUTPUTS_BYTES) {
            (input as { destroy?: () => void }).destroy?.();
            throw new CliError(`${what} are larger than ${MAX_OUTPUTS_BYTES / 1024 / 1024} MiB, which no stack's outputs are; run: ${PIPE_COMMAND}`, EXIT.usage);
        }
        chunks.push(bytes);
    }
    return Buffer.concat(chunks).toString("utf8");
}
