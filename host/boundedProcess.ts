/**
 * A child process with a deadline and a cap on its output: credential plugins, `docker version`, the Pulumi CLI's
 * queries. The child leads a process group of its own, so that at the deadline the group is killed, a shell script's
 * children with it (killing the script alone would leave its `sleep` holding the output pipe open, and this process
 * waiting for it). Standard output is kept up to a cap (past it, the group is killed); of standard error only the
 * tail, for the message.
 */
import { spawn } from "child_process";

/** What to run and its limits. */
export interface BoundedRunSpec {
    readonly file: string;
    readonly args: readonly string[];
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly cwd?: string;
    /** Written to standard input, which is then closed; none: standard input is empty. */
    readonly stdin?: string;
    /** Milliseconds the process may run. */
    readonly deadlineMs: number;
    /** Largest standard output kept, in bytes. */
    readonly maxStdoutBytes: number;
    /** Bytes of the end of standard error kept for messages; default 4 KiB. */
    readonly stderrTailBytes?: number;
}

/** How the process ended. */
export interface BoundedRunResult {
    /** Exit code, or null when a signal ended it. */
    readonly code: number | null;
    readonly signal: NodeJS.Signals | null;
    readonly stdout: string;
    /** The last bytes of standard error. */
    readonly stderrTail: string;
}

/** Why the process gave no result. */
export class ProcessFailure extends Error {
    constructor(
        /** `not-found`: no such executable; `not-executable`: no permission; `timeout`: still running at the deadline; `too-much-output`: standard output over the cap; `spawn`: any other failure to start. */
        readonly kind: "not-found" | "not-executable" | "timeout" | "too-much-output" | "spawn",
        message: string,
        /** The end of what the process wrote on standard error. */
        readonly stderrTail = "",
    ) {
        super(message);
        this.name = "ProcessFailure";
    }
}

/** How long the output may stay open after the process exits (a child it left behind holding the pipe). */
const AFTER_EXIT_MS = 500;

/**
 * Runs the process to its end, within the limits.
 *
 * @throws ProcessFailure when it cannot start, outlives the deadline or writes too much.
 */
export function runBounded(spec: BoundedRunSpec): Promise<BoundedRunResult> {
    const tailBytes = spec.stderrTailBytes ?? 4096;
    return new Promise((resolve, reject) => {
        let stdout: Buffer[] = [];
        let stdoutSize = 0;
        let stderr = Buffer.alloc(0);
        let settled = false;
        let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
        const env = Object.fromEntries(Object.entries(spec.env).filter((e): e is [string, string] => e[1] !== undefined));
        const child = spawn(spec.file, [...spec.args], {
            cwd: spec.cwd,
            env,
            // A process group of its own (POSIX), so the deadline kills the children it starts too.
            detached: process.platform !== "win32",
            stdio: [spec.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
            windowsHide: true,
        });
        const killGroup = () => {
            try {
                if (child.pid !== undefined && process.platform !== "win32") process.kill(-child.pid, "SIGKILL");
                else child.kill("SIGKILL");
            } catch {
                // Already gone.
            }
        };
        const tail = () => stderr.toString("utf8");
        const finish = (outcome: { result: BoundedRunResult } | { failure: ProcessFailure }) => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            clearTimeout(afterExit);
            child.stdout?.destroy();
            child.stderr?.destroy();
            child.stdin?.destroy();
            if ("failure" in outcome) {
                killGroup();
                reject(outcome.failure);
            } else resolve(outcome.result);
        };
        const timer = setTimeout(
            () => finish({ failure: new ProcessFailure("timeout", `did not finish within ${Number((spec.deadlineMs / 1000).toFixed(3))} s`, tail()) }),
            Math.max(0, spec.deadlineMs),
        );
        let afterExit: NodeJS.Timeout | undefined;
        child.stdout!.on("data", (chunk: Buffer) => {
            stdoutSize += chunk.length;
            if (stdoutSize > spec.maxStdoutBytes) {
                stdout = [];
                finish({ failure: new ProcessFailure("too-much-output", `wrote more than ${spec.maxStdoutBytes} bytes on standard output`, tail()) });
                return;
            }
            stdout.push(chunk);
        });
        child.stderr!.on("data", (chunk: Buffer) => {
            stderr = Buffer.concat([stderr, chunk]);
            if (stderr.length > tailBytes) stderr = stderr.subarray(stderr.length - tailBytes);
        });
        child.on("error", (e: NodeJS.ErrnoException) => {
            const kind = e.code === "ENOENT" ? "not-found" : e.code === "EACCES" ? "not-executable" : "spawn";
            const words = kind === "not-found" ? "is not installed (not found on PATH)" : kind === "not-executable" ? "cannot be run (permission denied)" : `could not be started (${e.code ?? "error"})`;
            finish({ failure: new ProcessFailure(kind, words) });
        });
        const done = () => finish({ result: { code: exit!.code, signal: exit!.signal, stdout: Buffer.concat(stdout).toString("utf8"), stderrTail: tail() } });
        child.on("exit", (code, signal) => {
            exit = { code, signal };
            // The output normally closes with the process; a child it left behind may hold it open.
            afterExit = setTimeout(() => {
                killGroup();
                done();
            }, AFTER_EXIT_MS);
        });
        child.on("close", (code, signal) => {
            exit ??= { code, signal };
            done();
        });
        if (spec.stdin !== undefined) {
            child.stdin!.on("error", () => undefined);
            child.stdin!.end(spec.stdin);
        }
    });
}
