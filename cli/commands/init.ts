/**
 * `mara init`: the first run. When the stack has no configuration it asks for the infra type and that
 * provider's settings (or takes them from `--set` and the environment), checks them with the program's
 * own validation, and writes them with the Automation API, secrets encrypted.
 */
import * as fs from "fs";
import * as path from "path";
import { Stack } from "@pulumi/pulumi/automation";
import { parse as parseYaml } from "yaml";
import { ConfigProblem, InfraType, KEYS, KeyId, MaraConfig, parseStackFile, RawConfig, REDACTED, Redactor, shorten, validateConfig } from "../../config";
import { isInlineKubeconfig } from "../../config/redact";
import { decodeStackFile } from "../../config/stackFileEncoding";
import { ensureBackend } from "../stack/backend";
import { workflowTarget, type WorkflowTarget } from "../ci/repository";
import { CiBackend, ciBackend, ciSettings, parseCiSystem, secretsKind, type CiSettings } from "../ci/settings";
import { writeWorkflows } from "../ci/writeWorkflows";
import type { CommandContext } from "../kernel/command";
import { ask, Answers, collectAnswers } from "../init/answers";
import { keyIdOf, parseSetFlags, storedKey } from "../init/keys";
import { CliError, CliIo, EXIT, line } from "../kernel/io";
import { passphraseEnv, usesPassphrase } from "../stack/passphrase";
import { checkProviderLock, configuredInfraType, parseInfraType } from "../stack/providerLock";
import { errorText, MIN_PULUMI_VERSION, openWorkspace, pulumiCli, pulumiEnv } from "../stack/pulumi";
import { printProblems, printWarnings } from "../kernel/report";
import { projectName, stackFileName, stackNameProblem } from "../stack/stackSource";
import { nonInteractive } from "../kernel/prompts";

/** Options of {@link init}. */
export interface InitOptions {
    readonly stack?: string;
    readonly nonInteractive?: boolean;
    readonly set?: string[];
    readonly local?: boolean;
    readonly provider?: string;
    readonly force?: boolean;
    /** Also write the CI workflows of the stack: `github`. */
    readonly ci?: string;
    /** With `ci`: a review stack per pull request. */
    readonly reviewStacks?: boolean;
}


/**
 * Configures a stack for its first deployment.
 *
 * @returns 0 when the stack is configured; 1 when settings are missing or invalid (nothing is written).
 */
export async function init(opts: InitOptions, ctx: CommandContext): Promise<number> {
    const io: CliIo = opts.nonInteractive ? { ...ctx.io, prompter: nonInteractive() } : ctx.io;
    // Flags first: a typo should not wait for the CLI.
    const sets = parseSetFlags(opts.set ?? []);
    const requested = opts.provider ? parseInfraType(opts.provider) : undefined;
    const ci = ciRequested(opts);
    // Where the workflows go is checked before Pulumi is asked anything, when the stack is known (and is a stack name).
    let target: WorkflowTarget | undefined;
    if (ci && opts.stack !== undefined) {
        stackFileName(opts.stack);
        target = workflowTarget(io.projectDir, opts.stack, opts.force === true);
    }

    const cmd = await pulumiCli();
    line(io.stderr, `Pulumi CLI v${cmd.version!.version}`);
    const ws = await openWorkspace(cmd, io.projectDir, pulumiEnv());
    const backend = await ensureBackend(io, ws, opts.local === true, !ci);
    const ciState = ci ? ciBackend(backend) : undefined;

    const stack = opts.stack ?? (io.prompter.interactive ? await io.prompter.input({ message: "Stack name", default: "dev", validate: (name) => stackNameProblem(name) ?? true }) : "dev");
    const file = path.join(io.projectDir, stackFileName(stack));
    if (ci) target ??= workflowTarget(io.projectDir, stack, opts.force === true);
    const existing = readExisting(file, stack);

    const configured = configuredInfraType(existing.values);
    checkProviderLock(stack, { configured }, requested ?? (sets.get("infraType") as InfraType | undefined), opts.force === true);
    const count = Object.keys(existing.values).length;
    line(io.stderr, count === 0 ? `Stack "${stack}" has no configuration yet: first-run setup.` : `Stack "${stack}" has ${count} settings; asking only for what is missing.`);

    const { answers } = await collectAnswers({ io, stack, existing: existing.values, sets, requested });
    const valid = await validateAnswers(io, existing, answers, stack);
    // Refusals of the workflow (review stacks this stack cannot have) come before the stack is created.
    const workflow = ciState && target ? planWorkflow(io, { stack, file, backend: ciState, target, valid, reviewStacks: opts.reviewStacks === true }) : undefined;

    const isNew = !fs.existsSync(file);
    // Every self-managed backend (file://, s3://, gs://, azblob://, ...) encrypts a new stack's secrets with a
    // passphrase unless told otherwise, as `pulumi stack init` does; the Pulumi Cloud with its own key.
    const needsPassphrase = !/^https?:\/\//i.test(backend) || usesPassphrase(stack, io.projectDir);
    Object.assign(ws.envVars, await passphraseEnv(io, stack, needsPassphrase, isNew));
    let s: Stack;
    try {
        s = await Stack.createOrSelect(stack, ws);
    } catch (err) {
        throw new CliError(`cannot create or select stack "${stack}": ${errorText(err)}`);
    }
    const entries = Object.fromEntries([...answers].map(([id, a]) => [storedKey(id, existing.values), { value: a.value, secret: a.secret }]));
    if (Object.keys(entries).length > 0) {
        try {
            await s.setAllConfig(entries);
        } catch (err) {
            throw new CliError(`cannot write the configuration of stack "${stack}": ${errorText(err)}`);
        }
    }
    summarise(io, stack, entries);
    if (workflow && target) writeWorkflows(io, target, workflow);
    return EXIT.ok;
}

/**
 * Whether `--ci` asks for workflows, with the flags that go with it checked: `--review-stacks` needs it, and a local
 * backend (`--local`) cannot serve it.
 *
 * @throws CliError (usage) for an unknown CI system or a flag that does not fit.
 */
function ciRequested(opts: InitOptions): boolean {
    if (opts.ci === undefined) {
        if (opts.reviewStacks) throw new CliError("--review-stacks goes with --ci github: review stacks are made by the pull request workflow it writes", EXIT.usage);
        return false;
    }
    parseCiSystem(opts.ci);
    if (opts.local) {
        throw new CliError("--ci cannot go with --local: a local backend keeps the state in ~/.pulumi-mara on this machine, where no CI runner can read it; log in to the Pulumi Cloud or a self-managed backend (pulumi login s3://<bucket>, ...) instead", EXIT.usage);
    }
    return true;
}

/** The settings of the stack's workflows, from the validated configuration; warnings printed. */
function planWorkflow(
    io: CliIo,
    p: { stack: string; file: string; backend: CiBackend; target: WorkflowTarget; valid: { config: MaraConfig; values: Record<string, string> }; reviewStacks: boolean },
): CiSettings {
    const { config, values } = p.valid;
    const stored = (spec: { readonly key: string; readonly legacy: readonly { readonly key: string }[] }) => values[spec.key] ?? spec.legacy.map((l) => values[l.key]).find((v) => v !== undefined);
    const infra = config.infra;
    const token = infra.type === "digitalocean" ? stored(KEYS.doToken) : infra.type === "linode" ? stored(KEYS.linodeToken) : undefined;
    const { settings, warnings } = ciSettings(
        {
            stack: p.stack,
            backend: p.backend,
            secrets: secretsKind(readStackDocument(p.file), p.backend),
            infra,
            storesCloudToken: token !== undefined,
            awsProfile: stored(KEYS.awsProfile),
            kubeconfigIsPath: infra.type === "kubeconfig" && !isInlineKubeconfig(infra.kubeconfig),
        },
        { workDir: p.target.workDir, branch: p.target.branch, pulumiVersion: `^${MIN_PULUMI_VERSION}` },
        p.reviewStacks,
    );
    for (const w of warnings) line(io.stderr, `warning: --ci: ${w}`);
    return settings;
}

/** The stack file's top-level fields (secretsprovider, encryptionsalt), or undefined when there is none yet. */
function readStackDocument(file: string): Record<string, unknown> | undefined {
    try {
        const doc: unknown = parseYaml(decodeStackFile(fs.readFileSync(file)));
        return typeof doc === "object" && doc !== null && !Array.isArray(doc) ? (doc as Record<string, unknown>) : undefined;
    } catch {
        // No file (a new stack), or one readExisting already accepted as text: the backend's default applies.
        return undefined;
    }
}


function readExisting(file: string, stack: string): RawConfig {
    let bytes: Buffer = Buffer.alloc(0);
    try {
        bytes = fs.readFileSync(file);
    } catch {
        // No file: a new stack with no configuration.
    }
    try {
        return parseStackFile(decodeStackFile(bytes), { project: projectName(path.dirname(file)), stack, baseDir: path.dirname(file) });
    } catch (err) {
        throw new CliError(`${file} is not a readable stack file: ${(err as Error).message}`);
    }
}

/**
 * Runs the program's validation on the stack file plus the answers (cross-field rules: zones in the
 * region, min ≤ max, ...). Interactively, answers named by a problem are asked again.
 *
 * @returns the validated configuration and the values it was validated from.
 * @throws CliError listing every problem when they cannot be fixed here; nothing is written then.
 */
async function validateAnswers(io: CliIo, existing: RawConfig, answers: Answers, stack: string): Promise<{ config: MaraConfig; values: Record<string, string> }> {
    for (let attempt = 1; ; attempt++) {
        const values = { ...existing.values };
        const secretKeys = new Set(existing.secretKeys);
        for (const [id, a] of answers) {
            const key = storedKey(id, existing.values);
            values[key] = a.value;
            if (a.secret) secretKeys.add(key);
        }
        const result = validateConfig({ ...existing, values, secretKeys, env: io.env });
        if (result.config) {
            printWarnings(io, result.warnings, { stack });
            return { config: result.config, values };
        }
        const redo = reaskable(result.problems, answers);
        if (!io.prompter.interactive || redo.length === 0 || attempt >= 3) {
            printProblems(io, result.problems, `stack "${stack}"`, { stack });
            throw new CliError("the configuration is not valid; nothing was written");
        }
        printProblems(io, result.problems, "these answers", { stack });
        for (const id of redo) {
            const value = await ask(io, { id }, KEYS[id].secret ? undefined : answers.get(id)?.value);
            if (value !== undefined) answers.set(id, { value, secret: KEYS[id].secret === true });
        }
    }
}

/** Answers given in this run that a problem names: those can be asked again. */
function reaskable(problems: readonly ConfigProblem[], answers: Answers): KeyId[] {
    const ids = problems.map((p) => keyIdOf(p.key)).filter((id): id is KeyId => id !== undefined && answers.has(id));
    return [...new Set(ids)];
}

/** Where the "Next:" hint has `mara plan` write its graph: not tracked, and ignored (.gitignore). */
export const PLAN_GRAPH_FILE = "plan.mmd";

function summarise(io: CliIo, stack: string, entries: Record<string, { value: string; secret: boolean }>): void {
    const keys = Object.keys(entries);
    if (keys.length === 0) line(io.stdout, `Stack "${stack}" already has every setting it needs; nothing was changed.`);
    else {
        line(io.stdout, `Wrote ${keys.length} setting${keys.length === 1 ? "" : "s"} to stack "${stack}" (${stackFileName(stack)}):`);
        // Secrets, and anything that holds one (an inline kubeconfig), are never echoed; long values are cut.
        const redactor = Redactor.of({ values: Object.fromEntries(keys.map((k) => [k, entries[k]!.value])), secretKeys: new Set(keys.filter((k) => entries[k]!.secret)) });
        for (const k of keys) line(io.stdout, shorten(`  ${k} = ${entries[k]!.secret ? REDACTED : redactor.redact(entries[k]!.value)}`));
    }
    line(io.stdout, "Next:");
    // plan.mmd is ignored by git: the tracked graph is docs/plan.mmd, which a test holds to the minimal stack's.
    line(io.stdout, `  npx mara plan --stack ${stack} --mermaid ${PLAN_GRAPH_FILE}   # offline: what would be created`);
    line(io.stdout, `  npx mara up --stack ${stack}                        # deploy`);
}
