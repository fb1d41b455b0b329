/**
 * Configuration as the program or `mara` receives it, before any key is read: the values, which of them were
 * secret, and what the stack file said about its encrypted ones. Its own module because both the key resolver
 * (resolve.ts) and the offline decryption of passphrase secrets (passphraseSecrets.ts) read it, and neither may
 * import the other.
 */
import type { LocalPath } from "./localPaths";

/** What became of one encrypted value offline. */
export type OfflineSecret =
    /** Decrypted: the configuration holds its plain text, checked as the program checks it. */
    | { readonly state: "decrypted" }
    /** Still encrypted, and nothing here can decrypt it: checked where Pulumi decrypts it. */
    | { readonly state: "sealed"; readonly why: "no-passphrase" | "not-passphrase" }
    /** The Pulumi CLI would stop before the program: the setting to fix, and what is wrong with it. */
    | { readonly state: "refused"; readonly setting: string; readonly problem: string; readonly allowed: string; readonly fix: string };

/** Configuration as Pulumi hands it over: full keys to raw strings (arrays and objects as JSON). */
export interface RawConfig {
    /** Pulumi project name. */
    readonly project: string;
    /** Pulumi stack name. */
    readonly stack: string;
    /** Every config value, keyed `namespace:name`. */
    readonly values: Readonly<Record<string, string>>;
    /** Keys whose values were stored encrypted. */
    readonly secretKeys: ReadonlySet<string>;
    /** Environment variables consulted for credentials and region (AWS_REGION, LINODE_TOKEN, ...). */
    readonly env: Readonly<Record<string, string | undefined>>;
    /**
     * What is at a local path the configuration names (a kubeconfig file, a source checkout). Default: this
     * machine's file system.
     */
    readonly inspectPath?: (path: string) => LocalPath;
    /**
     * The directory relative paths in the configuration resolve against: the project directory, where the
     * Pulumi CLI runs the program. Default: the process's working directory (which is that directory when
     * Pulumi runs the program).
     */
    readonly baseDir?: string;
    /** The day the configuration is checked for: which Kubernetes versions a cloud still creates depends on it. Default: now. */
    readonly today?: Date;
    /**
     * Read from a stack file only (the Pulumi CLI hands the program decrypted values): the `secure:` value of
     * each key stored encrypted, as written, and whether the file's secrets provider is the passphrase one
     * (it has an `encryptionsalt`); and what the YAML parser warned about, by line.
     */
    readonly stackFile?: {
        readonly encrypted: Readonly<Record<string, unknown>>;
        readonly passphrase: boolean;
        readonly warnings: readonly string[];
        /** The file's `encryptionsalt`, as written, when it has one (the passphrase secrets provider). */
        readonly encryptionSalt?: string;
        /** What became of the values decrypted offline (passphraseSecrets.ts), by key. */
        readonly offline?: Readonly<Record<string, OfflineSecret>>;
    };
}
