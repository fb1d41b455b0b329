/**
 * What every `mara` command talks to: two output streams, the prompt layer, the environment and the
 * working directory. Commands receive it instead of reaching for `process`, so tests run them in-process
 * with captured output and injected answers.
 */
import * as path from "path";
import { redactUrlCredentials } from "../../contracts/urlCredentials";
import type { Prompter } from "./prompts";

/** The directory of this package: where Pulumi.yaml and the program live. */
export const PROJECT_DIR = path.resolve(__dirname, "..", "..");

/** Somewhere text goes; process.stdout and process.stderr fit. */
export interface Writer {
    write(text: string): unknown;
}

/** Where piped input is read from; process.stdin fits. */
export type Input = AsyncIterable<string | Buffer> & { readonly isTTY?: boolean };

/** The command's surroundings. */
export interface CliIo {
    /** Results and streamed Pulumi output. */
    readonly stdout: Writer;
    /** Progress, warnings and errors. */
    readonly stderr: Writer;
    /** Piped input (`mara verify` reads the stack outputs from it); none when there is nothing to read. */
    readonly stdin?: Input;
    /** Asks the user; tests inject answers. */
    readonly prompter: Prompter;
    /** Environment consulted for credentials, region and the kubeconfig path. */
    readonly env: Readonly<Record<string, string | undefined>>;
    /** Directory that relative paths (`--config-file`, `--stack` files) are resolved against. */
    readonly cwd: string;
    /** The Pulumi project (Pulumi.yaml and its stack files) the Automation API works in. */
    readonly projectDir: string;
    /** Whether Pulumi's streamed output may use colour (a terminal, and NO_COLOR unset). */
    readonly colour: boolean;
}

/**
 * Exit codes, as MARA's runner used them: 0 success, 1 a failed operation or invalid configuration,
 * 2 a wrong command line, 3 a failed pre-flight check (missing tool, credentials, provider lock).
 * `mara outdated` adds 4 (a pin has a newer version) and 5 (a source could not be checked); `mara doctor` 6 (a
 * check failed) and 7 (the cluster could not be reached, or refused the credentials).
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, preflight: 3, outdated: 4, unchecked: 5, doctorFailed: 6, unreachable: 7 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An expected failure: its message is printed as is, without a stack trace, and sets the exit code. */
export class CliError extends Error {
    constructor(
        message: string,
        public readonly exitCode: ExitCode = EXIT.failed,
    ) {
        super(message);
        this.name = "CliError";
    }
}

/** Writes one line to a stream. */
export function line(out: Writer, text = ""): void {
    out.write(`${text}\n`);
}

/**
 * `io` with every line it prints, on either stream, passed through the redaction of URL credentials: a token in a git
 * or chart repository URL is hidden from every command's output (the plan, `mara outdated`'s table and JSON, Pulumi's
 * streamed output, an unexpected error's stack), not only from the messages that know they quote configuration.
 */
export function withRedactedOutput(io: CliIo): CliIo {
    const redacted = (w: Writer): Writer => ({ write: (text: string) => w.write(redactUrlCredentials(String(text))) });
    return { ...io, stdout: redacted(io.stdout), stderr: redacted(io.stderr) };
}
