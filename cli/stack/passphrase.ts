/**
 * Stacks whose secrets are encrypted with a passphrase (the default on a local backend) cannot be
 * read or updated without it, and the CLI run by the Automation API has no terminal to ask on. So the
 * wrapper asks first, with hidden input, and hands the answer to Pulumi in its environment only.
 */
import * as fs from "fs";
import * as path from "path";
import { parse } from "yaml";
import { CliError, CliIo, EXIT } from "../kernel/io";

/** Whether the stack's file records a passphrase salt, i.e. its secrets are passphrase-encrypted. */
export function usesPassphrase(stack: string, dir: string): boolean {
    try {
        const doc: unknown = parse(fs.readFileSync(path.join(dir, `Pulumi.${stack}.yaml`), "utf8"));
        return typeof doc === "object" && doc !== null && "encryptionsalt" in doc;
    } catch {
        return false;
    }
}

/** Whether the environment already gives Pulumi a passphrase (an empty one is a valid choice). */
export function hasPassphrase(env: CliIo["env"]): boolean {
    return env.PULUMI_CONFIG_PASSPHRASE !== undefined || env.PULUMI_CONFIG_PASSPHRASE_FILE !== undefined;
}

/**
 * Returns the environment to add so Pulumi can decrypt the stack: nothing when not needed, the
 * passphrase variables already set, or else the passphrase the user types.
 *
 * @param needed - whether the stack uses (or will use) passphrase encryption.
 * @param isNew - a new stack: ask twice, since a mistyped passphrase would lock its secrets away.
 * @throws CliError (pre-flight) when it is needed and nobody can be asked.
 */
export async function passphraseEnv(io: CliIo, stack: string, needed: boolean, isNew = false): Promise<Record<string, string>> {
    if (!needed) return {};
    // Pass on what the environment gives, so Pulumi sees exactly what was checked here.
    if (hasPassphrase(io.env)) {
        const keys = ["PULUMI_CONFIG_PASSPHRASE", "PULUMI_CONFIG_PASSPHRASE_FILE"] as const;
        return Object.fromEntries(keys.filter((k) => io.env[k] !== undefined).map((k) => [k, io.env[k]!]));
    }
    if (!io.prompter.interactive) {
        throw new CliError(
            `stack "${stack}" encrypts its secrets with a passphrase: export PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE) and run again`,
            EXIT.preflight,
        );
    }
    const message = isNew ? `Passphrase to encrypt the secrets of stack "${stack}"` : `Passphrase of stack "${stack}"`;
    for (;;) {
        const first = await io.prompter.password({ message });
        if (!isNew) return { PULUMI_CONFIG_PASSPHRASE: first };
        const again = await io.prompter.password({ message: "Repeat the passphrase" });
        if (again === first) return { PULUMI_CONFIG_PASSPHRASE: first };
        io.stderr.write("The two passphrases differ; try again.\n");
    }
}
