/**
 * Which cluster the doctor examines and what the stack will put on it: the stack's own kubeconfig and context
 * (an existing-cluster stack), or a kubeconfig named on the command line, read as the program reads it.
 */
import * as fs from "fs";
import { ENCRYPTED_PLACEHOLDER, isKubeconfigPath, MaraConfig, resolveLocalPath } from "../../config";
import { CliError, EXIT } from "../io";

/** The kubeconfig text and context to use. */
export interface DoctorTarget {
    readonly kubeconfig: string;
    readonly context?: string;
    /** Where it came from, for messages. */
    readonly source: string;
}

/** The kubeconfig of a validated existing-cluster configuration. */
export function targetOfConfig(cfg: MaraConfig, env: Readonly<Record<string, string | undefined>>, baseDir: string): DoctorTarget {
    if (cfg.infra.type !== "kubeconfig") {
        throw new CliError(
            `stack "${cfg.stack}" deploys its own cluster (infra type ${cfg.infra.type}), which the doctor can examine only once it exists: npx mara kubeconfig --stack ${cfg.stack}, then npx mara doctor --stack ${cfg.stack} --kubeconfig ~/.kube/config`,
            EXIT.usage,
        );
    }
    const setting = cfg.infra.kubeconfig;
    // Stored encrypted, and no passphrase here decrypted it (config/passphraseSecrets.ts): there is nothing to connect with.
    if (setting === ENCRYPTED_PLACEHOLDER) {
        throw new CliError(
            `the kubeconfig of stack "${cfg.stack}" is stored encrypted, and without the stack's passphrase it cannot be read here: export PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE) and run again, or name a kubeconfig file with --kubeconfig`,
            EXIT.usage,
        );
    }
    if (!isKubeconfigPath(setting)) return { kubeconfig: setting, context: cfg.infra.context, source: "the kubeconfig given inline in mara:kubeconfig" };
    const file = resolveLocalPath(setting.trim(), baseDir, env);
    return { kubeconfig: readFile(file), context: cfg.infra.context, source: file };
}

/** A kubeconfig file named with --kubeconfig. */
export function targetOfFile(path: string, context: string | undefined, cwd: string, env: Readonly<Record<string, string | undefined>>): DoctorTarget {
    const file = resolveLocalPath(path.trim(), cwd, env);
    return { kubeconfig: readFile(file), context, source: file };
}

function readFile(file: string): string {
    try {
        return fs.readFileSync(file, "utf8");
    } catch (e) {
        throw new CliError(`cannot read the kubeconfig ${file}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "it does not exist" : (e as Error).message}`, EXIT.usage);
    }
}
