/**
 * The runner's operations (`up`, `preview`, `destroy`, `refresh`) on one stack through the Automation
 * API, with MARA's safeguards: pre-flight checks, the provider lock and a confirmation, then Pulumi's
 * output streamed as it comes.
 */
import type { ConfigMap, Stack } from "@pulumi/pulumi/automation";
import { InfraType, MaraConfig, RawConfig } from "../../config";
import type { CommandContext } from "../kernel/command";
import { storedKey } from "../init/keys";
import { CliError, CliIo, EXIT, line } from "../kernel/io";
import { passphraseEnv, usesPassphrase } from "../stack/passphrase";
import { Check, checkDocker, credentialChecks, dockerReason, Operation, reportChecks } from "../operation/preflight";
import { checkProviderLock, configuredInfraType, parseInfraType } from "../stack/providerLock";
import { errorText, isCommandError, openWorkspace, pulumiCli, pulumiEnv, selectStack, stackNameFor } from "../stack/pulumi";
import { checkConfig } from "../kernel/report";
import type { ClusterTarget } from "../operation/recovery/repair";
import { projectName } from "../stack/stackSource";
import { applyTeardownSettings } from "../operation/teardownSettings";

/** Options shared by the operations. */
export interface OperationOptions {
    readonly stack?: string;
    /** Skip the confirmation (and, for `up`, the preview before it). */
    readonly yes?: boolean;
    /** Override the provider lock. */
    readonly force?: boolean;
    /** Infra type the run is meant for (MARA's `-p`), checked against the stack's. */
    readonly provider?: string;
    /** `up` on an existing cluster: do not run `mara doctor`'s checks first. */
    readonly skipDoctor?: boolean;
}

/** Operations that run the program, so the config must be valid and the provider lock applies. */
const RUNS_PROGRAM: readonly Operation[] = ["up", "preview"];

/**
 * Runs one operation on a stack.
 *
 * @returns 0 on success; 1 when Pulumi failed, the config is invalid or the user declined; 2 for a wrong
 * command line; 3 when a pre-flight check failed.
 */
export async function runOperation(op: Operation, opts: OperationOptions, ctx: CommandContext): Promise<number> {
    const { io } = ctx;
    const requested = opts.provider ? parseInfraType(opts.provider) : undefined;
    if (op !== "preview" && !opts.yes && !io.prompter.interactive) {
        throw new CliError(`\`mara ${op}\` changes the stack and asks for confirmation: run it in a terminal, or pass --yes`, EXIT.usage);
    }

    line(io.stderr, "Pre-flight checks:");
    const cmd = await pulumiCli();
    line(io.stderr, `  ✓ Pulumi CLI: v${cmd.version!.version}`);
    const ws = await openWorkspace(cmd, io.projectDir, pulumiEnv());
    const name = await stackNameFor(ws, opts.stack);
    Object.assign(ws.envVars, await passphraseEnv(io, name, usesPassphrase(name, io.projectDir)));
    const stack = await selectStack(ws, name);
    const raw = rawConfig(await pulumiCall(() => stack.getAllConfig(), `read the configuration of stack "${name}"`), name, io);

    let infraType = configuredInfraType(raw.values);
    let validated: MaraConfig | undefined;
    const checks: Check[] = [];
    const outputs = await pulumiCall(() => stack.outputs(), `read the outputs of stack "${name}"`);
    const deployed = deployedInfraType(outputs.infra_type?.value);
    // destroy and refresh work from the state, not the config: they are locked only when a provider is named.
    if (RUNS_PROGRAM.includes(op) || requested) checkProviderLock(name, { configured: infraType, deployed }, requested, opts.force === true);
    if (RUNS_PROGRAM.includes(op)) {
        if (requested && requested !== infraType) {
            await setInfraType(io, stack, raw, requested);
            infraType = requested;
        }
        const result = checkConfig(io, raw, `stack "${name}"`, { stack: name });
        if (!result) {
            line(io.stderr, "Nothing was run.");
            return EXIT.failed;
        }
        validated = result.config;
        if (op === "up" && result.config.infra.type === "kubeconfig") await doctorFirst(result.config, opts, io);
        const reason = op === "up" ? dockerReason(result.config) : undefined;
        if (reason) checks.push(await checkDocker(reason, io.env));
    } else {
        // The state's resources were made with the deployed type, whatever the config says now.
        infraType = deployed ?? infraType ?? requested;
    }
    let teardown: MaraConfig | undefined;
    if (op === "destroy" && deployed) {
        if (configuredInfraType(raw.values) !== deployed) {
            line(io.stderr, `Warning: the configuration is not for the deployed infrastructure type (${deployed}); the drain keeps the tear-down settings of the last \`pulumi up\`.`);
        } else {
            // The drain's settings must come from the config as it is now (see teardownSettings.ts).
            teardown = checkConfig(io, raw, `stack "${name}"`, { stack: name })?.config;
            if (!teardown) {
                line(io.stderr, "Nothing was run: `mara destroy` first applies the current tear-down settings (mara:retainVolumes and the others), so the configuration must be valid. Fix it, or run `pulumi destroy`, which uses the settings of the last `pulumi up`.");
                return EXIT.failed;
            }
        }
    }
    if (infraType) checks.push(...credentialChecks(infraType, raw, io.env, op));
    reportChecks(io, checks);
    if (op === "up") await recoverInterrupted(stack, clusterTarget(validated, outputs.kubeconfig?.value, io), io);

    if (!(await confirmed(op, opts, ctx, stack))) {
        line(io.stderr, "Confirmation declined; nothing was changed.");
        return EXIT.failed;
    }
    if (teardown) {
        const applied = await applyTeardownSettings(stack, teardown, io);
        if (applied !== EXIT.ok) return applied;
    }
    return execute(op, stack, io);
}

/**
 * `mara doctor` on the cluster an existing-cluster stack points at, before anything is deployed: a failed check
 * stops the run (exit 3) with its fix; warnings are shown and the run goes on. `--skip-doctor` leaves it out.
 */
async function doctorFirst(cfg: MaraConfig, opts: OperationOptions, io: CliIo): Promise<void> {
    if (opts.skipDoctor) {
        line(io.stderr, "  - mara doctor: skipped (--skip-doctor)");
        return;
    }
    line(io.stderr, "  mara doctor (skip with --skip-doctor):");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { examine } = require("./doctor") as typeof import("./doctor");
    const { targetOfConfig } = require("../doctor/target") as typeof import("../doctor/target"); // eslint-disable-line @typescript-eslint/no-require-imports
    const indented: CliIo = { ...io, stdout: { write: (s: string) => io.stderr.write(s.replace(/^(?=.)/gm, "    ")) } };
    const code = await examine(targetOfConfig(cfg, io.env, io.projectDir), cfg, indented, false);
    if (code !== EXIT.ok) {
        throw new CliError(
            `mara doctor found ${code === EXIT.unreachable ? "the cluster unreachable with the stack's kubeconfig" : "problems with the cluster"} (above); nothing was run. Fix them, or deploy anyway with: npx mara up --skip-doctor`,
            EXIT.preflight,
        );
    }
}

/**
 * The cluster the recovery from an interrupted run reads: an existing-cluster stack's own kubeconfig, else the
 * kubeconfig output of the last run (a stack that made its cluster), else none.
 */
function clusterTarget(cfg: MaraConfig | undefined, output: unknown, io: CliIo): ClusterTarget {
    if (cfg?.infra.type === "kubeconfig") {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { targetOfConfig } = require("../doctor/target") as typeof import("../doctor/target");
        return targetOfConfig(cfg, io.env, io.projectDir);
    }
    const text = typeof output === "string" ? output : output && typeof output === "object" ? JSON.stringify(output) : undefined;
    return text ? { kubeconfig: text, source: "the stack's kubeconfig output", baseDir: io.projectDir } : undefined;
}

/** Turns `pulumi config --json` into the raw form validation reads. */
function rawConfig(config: ConfigMap, stack: string, io: CliIo): RawConfig {
    const values = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, v.value]));
    const secretKeys = new Set(Object.entries(config).filter(([, v]) => v.secret).map(([k]) => k));
    // Pulumi runs the program in the project directory: relative paths in the configuration are relative to it.
    return { project: projectName(io.projectDir), stack, values, secretKeys, env: io.env, baseDir: io.projectDir };
}

function deployedInfraType(value: unknown): InfraType | undefined {
    return typeof value === "string" ? configuredInfraType({ "mara:infraType": value }) : undefined;
}

/** `--provider` on a stack without an infra type (or with `--force`): record the choice in its config. */
async function setInfraType(io: CliIo, stack: Stack, raw: RawConfig, type: InfraType): Promise<void> {
    const key = storedKey("infraType", raw.values);
    await pulumiCall(() => stack.setConfig(key, { value: type }), `set ${key}`);
    (raw.values as Record<string, string>)[key] = type;
    line(io.stderr, `Set ${key} = ${type} on stack "${stack.name}".`);
}

/** Asks before changing anything, as `pulumi up` does; `up` shows its preview first. */
async function confirmed(op: Operation, opts: OperationOptions, ctx: CommandContext, stack: Stack): Promise<boolean> {
    if (op === "preview" || opts.yes) return true;
    const { io } = ctx;
    if (op === "up") {
        const code = await execute("preview", stack, io);
        if (code !== EXIT.ok) return false;
    }
    const question: Record<Exclude<Operation, "preview">, string> = {
        up: `Deploy these changes to stack "${stack.name}"?`,
        destroy: `Destroy every resource of stack "${stack.name}"? This cannot be undone.`,
        refresh: `Update the state of stack "${stack.name}" to match what exists in the cloud?`,
    };
    return io.prompter.confirm({ message: question[op as Exclude<Operation, "preview">], default: false });
}

/** `mara up`'s repair of what an interrupted run left (cli/operation/recovery/repair.ts), loaded only for `up`. */
async function recoverInterrupted(stack: Stack, target: ClusterTarget, io: CliIo): Promise<void> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    await (require("../operation/recovery/repair") as typeof import("../operation/recovery/repair")).recoverInterrupted(stack, target, io);
}

/** Runs the operation with Pulumi's output streamed to ours. */
async function execute(op: Operation, stack: Stack, io: CliIo): Promise<number> {
    const stream = {
        onOutput: (text: string) => void io.stdout.write(text),
        onError: (text: string) => void io.stderr.write(text),
        color: io.colour ? ("always" as const) : ("never" as const),
    };
    const run = async (): Promise<unknown> => (op === "up" ? stack.up(stream) : op === "preview" ? stack.preview(stream) : op === "destroy" ? stack.destroy(stream) : stack.refresh(stream));
    try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        await (require("../operation/recovery/repair") as typeof import("../operation/recovery/repair")).unlockingStale(stack, io, run);
    } catch (err) {
        if (!isCommandError(err)) throw err;
        line(io.stderr, `mara: pulumi ${op} failed on stack "${stack.name}" (its output is above).`);
        return EXIT.failed;
    }
    line(io.stderr, NEXT[op](stack.name));
    return EXIT.ok;
}

const NEXT: Record<Operation, (stack: string) => string> = {
    up: (s) => `Deployed stack "${s}". Next: npx mara kubeconfig --stack ${s}   # then kubectl get pods -A`,
    preview: (s) => `Preview of stack "${s}" done; nothing was changed. Deploy with: npx mara up --stack ${s}`,
    destroy: (s) => `Destroyed the resources of stack "${s}". The stack and its configuration remain (remove them with: pulumi stack rm ${s}).`,
    refresh: (s) => `Refreshed the state of stack "${s}".`,
};

/** Runs a Pulumi command, turning its failure into a short message. */
async function pulumiCall<T>(call: () => Promise<T>, what: string): Promise<T> {
    try {
        return await call();
    } catch (err) {
        throw new CliError(`cannot ${what}: ${errorText(err)}`);
    }
}
