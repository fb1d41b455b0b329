/**
 * The Pulumi CLI through the Automation API: finding the CLI (as the API does: `pulumi` on PATH, asked
 * for `pulumi version`), checking its version, and opening the project's workspace and stacks. Every
 * failure becomes a {@link CliError} that says what to do, instead of the API's raw command dump.
 */
import { execFile } from "child_process";
import { CommandError, LocalWorkspace, PulumiCommand, Stack, StackNotFoundError } from "@pulumi/pulumi/automation";
import { CliError, EXIT } from "./io";
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
 * @throws CliError (pre-flight) when the CLI is missing, its version unreadable, too old or a new major.
 */
export async function pulumiCli(): Promise<PulumiCommand> {
    let cmd: PulumiCommand;
    try {
        // The API's own check accepts anything from 3.2; ours is stricter and worded for users.
        cmd = await PulumiCommand.get({ skipVersionCheck: true });
    } catch (err) {
        const text = errorText(err);
        if (/ENOENT/.test(text)) throw new CliError(`the Pulumi CLI is not installed (no \`pulumi\` on PATH); ${INSTALL_HINT}`, EXIT.preflight);
        throw new CliError(`\`pulumi version\` failed: ${text}`, EXIT.preflight);
    }
    const v = cmd.version;
    if (!v) throw new CliError("could not read the Pulumi CLI's version from `pulumi version`; reinstall it: " + INSTALL_HINT, EXIT.preflight);
    if (v.major !== 3) {
        throw new CliError(`Pulumi CLI v${v.version} is a different major version than this program's SDK (3.x); install a 3.x CLI (at least ${MIN_PULUMI_VERSION})`, EXIT.preflight);
    }
    if (v.compare(MIN_PULUMI_VERSION) < 0) {
        throw new CliError(`Pulumi CLI v${v.version} is too old: mara needs v${MIN_PULUMI_VERSION} or later. Upgrade it: ${INSTALL_HINT}`, EXIT.preflight);
    }
    return cmd;
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
 * others: `pulumi` from PATH, in the project directory, with our environment on top of the process's.
 */
export function runPulumi(args: string[], projectDir: string, env: Record<string, string>): Promise<string> {
    return new Promise((resolve, reject) => {
        execFile("pulumi", args, { cwd: projectDir, env: { ...process.env, ...env } }, (err, stdout, stderr) => {
            if (err) reject(new CliError(`pulumi ${args.join(" ")} failed: ${(stderr || err.message).trim()}`, EXIT.preflight));
            else resolve(stdout);
        });
    });
}
