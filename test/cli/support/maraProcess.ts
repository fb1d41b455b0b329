/**
 * Runs the real `mara` (bin/mara.js) in a child process, as users run it, with a kill timer as a safety net: a
 * command that never ends fails its test (`killed`) instead of hanging the suite. For the cases where what is tested
 * is that the process itself ends (a hung server, a credential plugin that never exits).
 */
import { spawn } from "child_process";
import * as path from "path";

const ROOT = path.join(__dirname, "..", "..", "..");

/** How the process ended. */
export interface ProcessRun {
    /** The exit code, or null when the kill timer ended it. */
    readonly code: number | null;
    readonly stdout: string;
    readonly stderr: string;
    /** Milliseconds from start to exit. */
    readonly ms: number;
    /** True when the safety net killed it. */
    readonly killed: boolean;
}

/** Runs `mara <args>`; kills it (and whatever it started) after `killAfterMs`. */
export function maraProcess(args: readonly string[], opts: { readonly env?: NodeJS.ProcessEnv; readonly cwd?: string; readonly killAfterMs: number }): Promise<ProcessRun> {
    const started = Date.now();
    return new Promise((resolve) => {
        const child = spawn(process.execPath, [path.join(ROOT, "bin", "mara.js"), ...args], { cwd: opts.cwd ?? ROOT, env: opts.env ?? process.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
        let stdout = "";
        let stderr = "";
        let killed = false;
        child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
        child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
        const timer = setTimeout(() => {
            killed = true;
            try {
                process.kill(-child.pid!, "SIGKILL");
            } catch {
                child.kill("SIGKILL");
            }
        }, opts.killAfterMs);
        child.on("close", (code) => {
            clearTimeout(timer);
            resolve({ code: killed ? null : code, stdout, stderr, ms: Date.now() - started, killed });
        });
    });
}

/** No stack trace, no "unexpected error", none of JavaScript's own error texts. */
export const JS_TEXT = /\n\s+at .+:\d+:\d+|unexpected error|Cannot read propert|is not a function|Unexpected token|is not valid JSON|undefined is not|ERR_INVALID|TypeError|SyntaxError|RangeError/;
