/**
 * The Pulumi CLI through the Automation API: finding the CLI (as the API does: `pulumi` on PATH, asked
 * for `pulumi version`), checking its version, and opening the project's workspace and stacks. Every
 * failure becomes a {@link CliError} that says what to do, instead of the API's raw command dump.
 *
 * Bounds: the operations (`up`, `preview`, `destroy`, `refresh`, `import`) run as long as the cloud takes, bounded by
 * Pulumi's own resource timeouts and by Ctrl+C, which cancels them; every other command (`version`, stack selection,
 * configuration, outputs, `stack export`, `stack history`, `login`, `whoami`) is a query of the state backend — a service, a bucket
 * or a folder — and runs within {@link PULUMI_QUERY_TIMEOUT_MS}, in a process group the deadline kills, so a backend
 * that stops answering cannot hang `mara` before it has changed anything.
 */
import { CommandError, LocalWorkspace, PulumiCommand, Stack, StackNotFoundError } from "@pulumi/pulumi/automation";
import { SemVer } from "semver";
import { ProcessFailure, runBounded } from "../../host/boundedProcess";
import { PULUMI_QUERY_MAX_BYTES, PULUMI_QUERY_TIMEOUT_MS, UNBOUNDED_PULUMI_COMMANDS } from "../../host/pulumiLimits";
import { CliError, EXIT } from "../kernel/io";
import { stackNameProblem } from "./stackSource";

/** The oldest Pulumi CLI the wrapper supports. */
export const MIN_PULUMI_VERSION = "3.150.0";

const INSTALL_HINT = "install it from https://www.pulumi.com/docs/install/ (curl -fsSL https://get.pulumi.com | sh)";

/**
 * Environment for every Pulumi command: no update check (it prints a banner into the streamed output
 * and calls home), as MARA's runner did, plus whatever the caller adds (a passphrase).
 */
export function pulumiEnv(extra: Record<string, string> = {}): Record<string, string> {
    return { PULUMI_SKIP_UPDATE_CHECK: "true", ...extra };
}

/**
 * Locates the Pulumi CLI exactly as the Automation API does and checks that it is new enough.
 *
 * @param timeoutMs - how long `pulumi version`, and every query later run through the result, may take.
 * @throws CliError (pre-flight) when the CLI is missing, its version unreadable, too old or a new major.
 */
export async function pulumiCli(timeoutMs = PULUMI_QUERY_TIMEOUT_MS): Promise<PulumiCommand> {
    let stdout: string;
    try {
        // As PulumiCommand.get asks, but within the bound: a CLI that hangs on start must not hang mara.
        const run = await runBounded({ file: "pulumi", args: ["version"], env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" }, deadlineMs: timeoutMs, maxStdoutBytes: 64 * 1024 });
        if (run.code !== 0) throw new CliError(`\`pulumi version\` failed: ${lastLines(run.stderrTail) || `exit code ${run.code ?? run.signal}`}`, EXIT.preflight);
        stdout = run.stdout;
    } catch (err) {
        if (err instanceof ProcessFailure) {
            if (err.kind === "not-found") throw new CliError(`the Pulumi CLI is not installed (no \`pulumi\` on PATH); ${INSTALL_HINT}`, EXIT.preflight);
            throw new CliError(`\`pulumi version\` ${err.message}; ${err.kind === "timeout" ? "is the Pulumi CLI working? Run: pulumi version" : INSTALL_HINT}`, EXIT.preflight);
        }
        throw err;
    }
    let v: SemVer;
    try {
        v = new SemVer(stdout.trim());
    } catch {
        throw new CliError("could not read the Pulumi CLI's version from `pulumi version`; reinstall it: " + INSTALL_HINT, EXIT.preflight);
    }
    if (v.major !== 3) {
        throw new CliError(`Pulumi CLI v${v.version} is a different major version than this program's SDK (3.x); install a 3.x CLI (at least ${MIN_PULUMI_VERSION})`, EXIT.preflight);
    }
    if (v.compare(MIN_PULUMI_VERSION) < 0) {
        throw new CliError(`Pulumi CLI v${v.version} is too old: mara needs v${MIN_PULUMI_VERSION} or later. Upgrade it: ${INSTALL_HINT}`, EXIT.preflight);
    }
    // The constructor is private in the SDK's types; PulumiCommand.get builds the same object after the same question.
    const cmd = new (PulumiCommand as unknown as new (command: string, version: SemVer) => PulumiCommand)("pulumi", v);
    return withBoundedQueries(cmd, timeoutMs);
}

/** The Automation API's internal shape of a command runner (`PulumiCommand.run`, marked internal in its types). */
interface CommandRunner {
    run(args: string[], cwd: string, additionalEnv: Record<string, string>, onOutput?: (s: string) => void, onError?: (s: string) => void, signal?: AbortSignal): Promise<unknown>;
}

/** The SDK's own result and error types, so the API goes on telling a missing stack from other failures as it does. */
function sdkInternals(): { CommandResult: new (stdout: string, stderr: string, code: number, err?: Error) => unknown; createCommandError: (result: unknown) => Error } {
    /* eslint-disable @typescript-eslint/no-require-imports */
    return {
        CommandResult: (require("@pulumi/pulumi/automation/cmd") as { CommandResult: never }).CommandResult,
        createCommandError: (require("@pulumi/pulumi/automation/errors") as { createCommandError: never }).createCommandError,
    };
    /* eslint-enable @typescript-eslint/no-require-imports */
}

/**
 * `cmd`, with every command but the operations run within {@link PULUMI_QUERY_TIMEOUT_MS} (the Automation API's own
 * runner has no deadline): as the API runs them (`--non-interactive`, PULUMI_AUTOMATION_API, its environment on
 * top of the process's), with the same results and errors.
 */
export function withBoundedQueries(cmd: PulumiCommand, timeoutMs = PULUMI_QUERY_TIMEOUT_MS): PulumiCommand {
    const inner = cmd as unknown as CommandRunner;
    const bounded = Object.create(cmd) as PulumiCommand & CommandRunner;
    bounded.run = async (args, cwd, additionalEnv, onOutput, onError, signal) => {
        if (UNBOUNDED_PULUMI_COMMANDS.includes(args[0] ?? "")) return inner.run.call(cmd, args, cwd, additionalEnv, onOutput, onError, signal);
        const { CommandResult, createCommandError } = sdkInternals();
        const fullArgs = args.includes("--non-interactive") ? args : [...args, "--non-interactive"];
        let run;
        try {
            run = await runBounded({ file: cmd.command, args: fullArgs, cwd, env: { ...process.env, ...additionalEnv, PULUMI_AUTOMATION_API: "true" }, deadlineMs: timeoutMs, maxStdoutBytes: PULUMI_QUERY_MAX_BYTES, stderrTailBytes: 64 * 1024 });
        } catch (err) {
            if (!(err instanceof ProcessFailure)) throw err;
            throw createCommandError(new CommandResult("", `\`pulumi ${args.slice(0, 2).join(" ")}\` ${err.message}${err.kind === "timeout" ? " and was stopped; is the state backend reachable? Try: pulumi whoami -v" : ""}`, -2));
        }
        const result = new CommandResult(run.stdout, run.stderrTail, run.code ?? -1);
        if (run.code !== 0) throw createCommandError(result);
        return result;
    };
    return bounded;
}

function lastLines(text: string): string {
    return text.split("\n").filter((l) => l.trim() !== "").slice(-5).join("\n").trim();
}

/** A workspace on the project (the directory with Pulumi.yaml), using the checked CLI. */
export function openWorkspace(cmd: PulumiCommand, projectDir: string, env: Record<string, string> = pulumiEnv()): Promise<LocalWorkspace> {
    return LocalWorkspace.create({ workDir: projectDir, pulumiCommand: cmd, envVars: env });
}

/**
 * The stack to work on: the one named, else the workspace's selected stack.
 *
 * @throws CliError (usage) when none is named or selected.
 */
export async function stackNameFor(ws: LocalWorkspace, name: string | undefined): Promise<string> {
    if (name) {
        // A stack name also names a file (Pulumi.<stack>.yaml): never a path.
        const problem = stackNameProblem(name);
        if (problem) throw new CliError(problem, EXIT.usage);
        return name;
    }
    let current: string | undefined;
    try {
        current = (await ws.stack())?.name;
    } catch (err) {
        throw new CliError(`cannot list the stacks of this project: ${withLoginHint(errorText(err))}`);
    }
    if (!current) throw new CliError("no stack selected: pass --stack NAME, or create one with: npx mara init", EXIT.usage);
    return current;
}

/**
 * Selects an existing stack.
 *
 * @throws CliError when the stack does not exist (with the command that creates it) or cannot be selected.
 */
export async function selectStack(ws: LocalWorkspace, name: string): Promise<Stack> {
    try {
        return await Stack.select(name, ws);
    } catch (err) {
        if (err instanceof StackNotFoundError) throw new CliError(`stack "${name}" does not exist; create it with: npx mara init --stack ${name}`, EXIT.usage);
        throw new CliError(`cannot select stack "${name}": ${withLoginHint(errorText(err))}`);
    }
}

/** Adds what to do when a command failed because the CLI is not logged in to any backend. */
function withLoginHint(text: string): string {
    return /PULUMI_ACCESS_TOKEN|pulumi login|not logged in/i.test(text) ? `${text}\n(not logged in to a Pulumi backend: run \`npx mara init\` or \`pulumi login\`)` : text;
}

/**
 * What a failed command said: the CLI's stderr when the error carries it (the API's message repeats
 * the whole command output), else the message.
 */
export function errorText(err: unknown): string {
    const result = (err as { commandResult?: { stderr?: string; err?: Error } }).commandResult;
    const text = (result?.stderr || result?.err?.message || (err as Error)?.message || String(err)).trim();
    return text.split("\n").filter((l) => l.trim() !== "").slice(-5).join("\n");
}

/** Whether an error came from a Pulumi command (as opposed to our own code). */
export const isCommandError = (err: unknown): err is CommandError => err instanceof CommandError;

/**
 * Runs a Pulumi command the Automation API does not offer (`pulumi login`), the same way it runs the
 * others: `pulumi` from PATH, in the project directory, with our environment on top of the process's, within
 * {@link PULUMI_QUERY_TIMEOUT_MS}.
 */
export async function runPulumi(args: string[], projectDir: string, env: Record<string, string>): Promise<string> {
    let run;
    try {
        run = await runBounded({ file: "pulumi", args, cwd: projectDir, env: { ...process.env, ...env }, deadlineMs: PULUMI_QUERY_TIMEOUT_MS, maxStdoutBytes: PULUMI_QUERY_MAX_BYTES });
    } catch (err) {
        if (err instanceof ProcessFailure) throw new CliError(`pulumi ${args.join(" ")} ${err.message}${lastLines(err.stderrTail) ? `: ${lastLines(err.stderrTail)}` : ""}`, EXIT.preflight);
        throw err;
    }
    if (run.code !== 0) throw new CliError(`pulumi ${args.join(" ")} failed: ${lastLines(run.stderrTail) || `exit code ${run.code ?? run.signal}`}`, EXIT.preflight);
    return run.stdout;
}
