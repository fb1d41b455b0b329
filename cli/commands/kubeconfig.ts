/**
 * `mara kubeconfig`: puts the deployed cluster into the user's kube config (MARA ran `aws eks
 * update-kubeconfig`, `doctl ... config save` or its own merge after the cluster project). Reads the
 * stack's secret `kubeconfig` output with the Automation API.
 */
import * as fs from "fs";
import * as path from "path";
import { parse, stringify } from "yaml";
import { writeFileAtomic } from "../kernel/atomicWrite";
import type { CommandContext } from "../kernel/command";
import { CliError, EXIT, line } from "../kernel/io";
import { defaultKubeconfigPath, KubeconfigDoc, mergeKubeconfig } from "../kube/kubeconfigMerge";
import { passphraseEnv, usesPassphrase } from "../stack/passphrase";
import { errorText, openWorkspace, pulumiCli, pulumiEnv, selectStack, stackNameFor } from "../stack/pulumi";

/** Options of {@link kubeconfig}. */
export interface KubeconfigOptions {
    readonly stack?: string;
    /** File to merge into; default the first KUBECONFIG entry, else ~/.kube/config. */
    readonly kubeconfig?: string;
    /** Name for the cluster, user and context; default the stack's cluster_name output. */
    readonly context?: string;
}

/**
 * Merges the stack's kubeconfig into the user's and makes it the current context.
 *
 * @returns 0 on success; 1 when the stack has no kubeconfig or a file cannot be read.
 */
export async function kubeconfig(opts: KubeconfigOptions, ctx: CommandContext): Promise<number> {
    const { io } = ctx;
    const cmd = await pulumiCli();
    const ws = await openWorkspace(cmd, io.projectDir, pulumiEnv());
    const name = await stackNameFor(ws, opts.stack);
    Object.assign(ws.envVars, await passphraseEnv(io, name, usesPassphrase(name, io.projectDir)));
    const stack = await selectStack(ws, name);
    let outputs;
    try {
        outputs = await stack.outputs();
    } catch (err) {
        throw new CliError(`cannot read the outputs of stack "${name}": ${errorText(err)}`);
    }
    const value = outputs.kubeconfig?.value;
    if (value === undefined || value === null || value === "") {
        throw new CliError(`stack "${name}" has no kubeconfig output; deploy it first: npx mara up --stack ${name}`);
    }
    const incoming = typeof value === "string" ? (parseDoc(value, `the kubeconfig output of stack "${name}"`) as KubeconfigDoc) : (value as KubeconfigDoc);
    const clusterName = typeof outputs.cluster_name?.value === "string" ? outputs.cluster_name.value : undefined;

    const file = path.resolve(io.cwd, opts.kubeconfig ?? defaultKubeconfigPath(io.env, path.delimiter));
    const existing = fs.existsSync(file) ? parseDoc(readKubeconfigFile(file), file) : undefined;
    let result;
    try {
        result = mergeKubeconfig((existing ?? undefined) as KubeconfigDoc | undefined, incoming, opts.context ?? clusterName);
    } catch (err) {
        throw new CliError(`cannot merge: ${(err as Error).message}; ${file} was not changed`);
    }
    writeFileAtomic(file, stringify(result.merged));
    const how = result.replaced.length > 0 ? `replaced the earlier "${result.name}" entries` : "added";
    line(io.stdout, `Merged cluster, user and context "${result.name}" into ${file} (${how}; other entries kept) and made it the current context.`);
    line(io.stdout, "Try: kubectl get nodes");
    return EXIT.ok;
}

/** The largest kube config merged into: real ones are kilobytes, with many clusters a few hundred. */
const MAX_KUBECONFIG_BYTES = 16 * 1024 * 1024;

/** Reads the user's kube config: a regular file (a pipe would block the read for ever) of at most 16 MiB. */
function readKubeconfigFile(file: string): string {
    const stat = fs.statSync(file);
    if (!stat.isFile()) throw new CliError(`${file} is ${stat.isDirectory() ? "a directory" : "not a regular file"}, not a kube config; name a file with --kubeconfig. Nothing was changed`, EXIT.usage);
    if (stat.size > MAX_KUBECONFIG_BYTES) throw new CliError(`${file} is larger than ${MAX_KUBECONFIG_BYTES / 1024 / 1024} MiB, which no kube config is; nothing was changed`, EXIT.usage);
    return fs.readFileSync(file, "utf8");
}

/** Parses YAML (JSON is YAML); an empty file counts as no kubeconfig yet. */
function parseDoc(text: string, what: string): unknown {
    try {
        return parse(text) ?? undefined;
    } catch (err) {
        throw new CliError(`${what} is not valid YAML or JSON (${(err as Error).message.split("\n")[0]}); nothing was changed`);
    }
}
