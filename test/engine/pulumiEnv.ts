/**
 * How the tier runs the real Pulumi CLI: the binaries test/engine/build.sh built and the stand-in plugins first on
 * PATH (found as ambient plugins), automatic plugin download off (there is no network), the state in a local file
 * backend in a throw-away folder encrypted with a passphrase, and a Pulumi home of its own so that nothing on the
 * machine (other plugins, a logged-in backend) takes part.
 *
 * The CLI saves the state once, when a run ends, rather than after every step (`PULUMI_SKIP_CHECKPOINTS`, the
 * engine's own switch: pkg/backend/snapshot.go's unsafeServiceLoop saves at Close, after a failed or cancelled run
 * too). Saving the whole state after every step is the CLI's largest cost in a platform `up` or `destroy` (the CRDs
 * make it 8.6 MB; docs/benchmarks.md, "Where the CLI's CPU goes") and what it buys is a state that records how far a
 * run got when the run is killed. A test that kills a run, and a benchmark that measures what a user's run costs,
 * passes {@link STATE_SAVED_AT_EVERY_STEP}.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ENGINE_BIN, ENGINE_PLUGINS, requireBinaries, ROOT } from "./cluster";

/** A throw-away Pulumi home and local backend, and the environment that uses them. */
export interface PulumiSandbox {
    readonly dir: string;
    readonly env: NodeJS.ProcessEnv;
    /** Removes the folder. */
    dispose(): void;
}

/** The passphrase the tier's stacks are encrypted with. */
export const PASSPHRASE = "real-engine-tier-passphrase";

/**
 * The state saved after every step, as a user's `pulumi up` saves it: for a test that kills a run and reads what the
 * state recorded, and for a benchmark of what a user's run costs.
 */
export const STATE_SAVED_AT_EVERY_STEP: NodeJS.ProcessEnv = { PULUMI_SKIP_CHECKPOINTS: "false" };
/** The tier's default, the state saved once when a run ends: for a run in a sandbox made with {@link STATE_SAVED_AT_EVERY_STEP} that no kill falls in. */
export const STATE_SAVED_AT_THE_END: NodeJS.ProcessEnv = { PULUMI_SKIP_CHECKPOINTS: "true" };

/** A new sandbox; `extra` is added to the environment; `binaries` must have been built. */
export function pulumiSandbox(extra: NodeJS.ProcessEnv = {}, binaries: readonly string[] = ["pulumi", "pulumi-resource-kubernetes"]): PulumiSandbox {
    requireBinaries(binaries);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-pulumi-"));
    fs.mkdirSync(path.join(dir, "state"));
    const env: NodeJS.ProcessEnv = {
        ...process.env,
        PATH: [ENGINE_BIN, ENGINE_PLUGINS, process.env.PATH].join(path.delimiter),
        PULUMI_HOME: path.join(dir, "home"),
        PULUMI_BACKEND_URL: `file://${path.join(dir, "state")}`,
        PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
        // The state saved when a run ends (see above); STATE_SAVED_AT_EVERY_STEP restores a user's default.
        ...STATE_SAVED_AT_THE_END,
        // No color codes in what the tests read.
        NO_COLOR: "1",
        ...extra,
    };
    delete env.PULUMI_ACCESS_TOKEN;
    return { dir, env, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** What a finished command printed and how it ended. */
export interface CommandResult {
    readonly code: number | null;
    readonly stdout: string;
    readonly stderr: string;
    /** Wall-clock seconds (for the tier's benchmark; no test asserts them). */
    readonly wallSeconds: number;
    /** True when the kill timer (`timeoutMs`) interrupted it: a safety net, or the proof that a bound did not work. */
    readonly timedOut: boolean;
}

/** Runs a command to completion (in the repository root unless `cwd` says otherwise), never throwing for its exit code. */
export function runCommand(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv, opts: { cwd?: string; timeoutMs?: number; input?: string } = {}): Promise<CommandResult> {
    const started = process.hrtime.bigint();
    return new Promise((resolve, reject) => {
        const child = spawn(cmd, args, { cwd: opts.cwd ?? ROOT, env, stdio: [opts.input === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
        let stdout = "";
        let stderr = "";
        child.stdout!.on("data", (c: Buffer) => (stdout += c.toString()));
        child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
        if (opts.input !== undefined) child.stdin!.end(opts.input);
        let timedOut = false;
        const timer = setTimeout(() => {
            timedOut = true;
            child.kill("SIGINT");
        }, opts.timeoutMs ?? 20 * 60_000);
        child.on("error", reject);
        child.on("exit", (code) => {
            clearTimeout(timer);
            resolve({ code, stdout, stderr, wallSeconds: Number(process.hrtime.bigint() - started) / 1e9, timedOut });
        });
    });
}

/** Runs the tier's `pulumi`. */
export const pulumi = (args: readonly string[], env: NodeJS.ProcessEnv, opts: { cwd?: string; timeoutMs?: number } = {}) => runCommand(path.join(ENGINE_BIN, "pulumi"), args, env, opts);

/** Runs `mara` (bin/mara.js) with the tier's Node.js. */
export const mara = (args: readonly string[], env: NodeJS.ProcessEnv, opts: { cwd?: string; timeoutMs?: number; input?: string } = {}) =>
    runCommand(process.execPath, [path.join(ROOT, "bin", "mara.js"), ...args], env, opts);

/** A failure message with the end of both streams, for `expect(…, message)`. */
export const tail = (r: CommandResult, lines = 40) => `exit ${r.code}\n--- stdout ---\n${r.stdout.split("\n").slice(-lines).join("\n")}\n--- stderr ---\n${r.stderr.split("\n").slice(-lines).join("\n")}`;
