/**
 * Which cluster the doctor examines and what the stack will put on it: the stack's own kubeconfig and context
 * (an existing-cluster stack), or a kubeconfig named on the command line, read as the program reads it.
 */
import * as fs from "fs";
import * as path from "path";
import { ENCRYPTED_PLACEHOLDER, isKubeconfigPath, MaraConfig, resolveLocalPath } from "../../config";
import { CliError, EXIT } from "../kernel/io";

/** The kubeconfig text and context to use. */
export interface DoctorTarget {
    readonly kubeconfig: string;
    readonly context?: string;
    /** Where it came from, for messages. */
    readonly source: string;
    /** The directory relative paths in it (certificates, token files, an exec plugin's command) are relative to. */
    readonly baseDir: string;
    /** The file it was read from, when it was read from one (a tool that needs a file is given this one, not a copy). */
    readonly file?: string;
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
    // Inline, its relative paths are relative to the project directory, where Pulumi runs the program that reads it.
    if (!isKubeconfigPath(setting)) return { kubeconfig: setting, context: cfg.infra.context, source: "the kubeconfig given inline in mara:kubeconfig", baseDir };
    const file = resolveLocalPath(setting.trim(), baseDir, env);
    return { kubeconfig: readFile(file), context: cfg.infra.context, source: file, baseDir: path.dirname(file), file };
}

/** A kubeconfig file named with --kubeconfig. */
export function targetOfFile(given: string, context: string | undefined, cwd: string, env: Readonly<Record<string, string | undefined>>): DoctorTarget {
    const file = resolveLocalPath(given.trim(), cwd, env);
    return { kubeconfig: readFile(file), context, source: file, baseDir: path.dirname(file), file };
}

/** The largest kubeconfig read: real ones are kilobytes, with many clusters a few hundred. */
export const MAX_KUBECONFIG_BYTES = 16 * 1024 * 1024;

/** Reads a kubeconfig file: a regular file (a pipe would block the read for ever) of at most {@link MAX_KUBECONFIG_BYTES}. */
function readFile(file: string): string {
    const fail = (why: string) => new CliError(`cannot read the kubeconfig ${file}: ${why}`, EXIT.usage);
    const reason = (e: unknown) => {
        const code = (e as NodeJS.ErrnoException).code;
        return code === "ENOENT" ? "it does not exist" : code === "EACCES" ? "permission denied" : code === "ELOOP" ? "its symbolic links form a loop" : `it cannot be read (${code ?? "error"})`;
    };
    let stat: fs.Stats;
    try {
        stat = fs.statSync(file);
    } catch (e) {
        throw fail(reason(e));
    }
    if (stat.isDirectory()) throw fail("it is a directory, not a kubeconfig file");
    if (!stat.isFile()) throw fail("it is not a regular file");
    if (stat.size > MAX_KUBECONFIG_BYTES) throw fail(`it is larger than ${MAX_KUBECONFIG_BYTES / 1024 / 1024} MiB, which no kubeconfig is`);
    try {
        return fs.readFileSync(file, "utf8");
    } catch (e) {
        throw fail(reason(e));
    }
}
