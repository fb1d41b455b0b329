/**
 * Values a stack file stores encrypted, decrypted offline where Pulumi's passphrase secrets provider allows it, so
 * `mara validate`, `mara plan` and `mara render` check the inline kubeconfig as the program does under `pulumi up`
 * instead of refusing it (which pushed users to keep a bearer token in plain text).
 *
 * The scheme is Pulumi's (pulumi/pulumi `pkg/secrets/passphrase/manager.go`, `symmetricCrypterFromPhraseAndState`;
 * `sdk/go/common/resource/config/crypt.go`, `NewSymmetricCrypterFromPassphrase` and `symmetricCrypter.DecryptValue`):
 * the stack file's `encryptionsalt` is `v1:<salt>:<"pulumi" encrypted>`, the key is PBKDF2-SHA256 of the passphrase
 * and the salt over 1,000,000 iterations (32 bytes), and each value is `v1:<nonce>:<ciphertext>`, AES-256-GCM with a
 * 12-byte nonce and the 16-byte tag after the ciphertext. A passphrase is right when the salt's own ciphertext opens
 * to "pulumi"; otherwise the CLI stops with "incorrect passphrase" before the program starts. The passphrase comes
 * from `PULUMI_CONFIG_PASSPHRASE` (even empty), else the file `PULUMI_CONFIG_PASSPHRASE_FILE` names, white space
 * trimmed (`readPassphrase`). Other secrets providers (the Pulumi Cloud, a cloud KMS) need their service: their
 * values stay encrypted offline.
 *
 * Only the keys asked for are decrypted, and their plain text goes only into the configuration validation reads,
 * whose redactor hides it in every message.
 */
// The default import: `import * as fs` copies fs's properties, and reading fs.promises loads its promise API.
import fs from "fs";
import * as path from "path";
import type { OfflineSecret, RawConfig } from "./rawConfig";

export type { OfflineSecret } from "./rawConfig";

/** Environment variables the Pulumi CLI reads the passphrase from, in its order. */
export const PASSPHRASE_ENV = "PULUMI_CONFIG_PASSPHRASE";
export const PASSPHRASE_FILE_ENV = "PULUMI_CONFIG_PASSPHRASE_FILE";

/** A passphrase file is read up to this size: one line of text, never a large file named by mistake. */
const PASSPHRASE_FILE_MAX = 64 * 1024;
/** PBKDF2 iterations and key size of Pulumi's passphrase crypter (crypt.go). */
const KDF_ITERATIONS = 1_000_000;
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** Where the passphrase comes from: the Pulumi CLI's rule, or why it cannot be read. */
type Passphrase = { readonly text: string } | { readonly missing: true } | { readonly unreadable: string; readonly file: string };

function passphraseOf(env: Readonly<Record<string, string | undefined>>, cwd: string): Passphrase {
    const given = env[PASSPHRASE_ENV];
    if (given !== undefined) return { text: given };
    const name = env[PASSPHRASE_FILE_ENV];
    if (name === undefined || name === "") return { missing: true };
    const file = path.resolve(cwd, name);
    let fd: number | undefined;
    try {
        const st = fs.statSync(file);
        // A pipe or a device would block or never end: only a regular file is read.
        if (!st.isFile()) return { unreadable: st.isDirectory() ? "it is a directory" : "it is not a regular file", file };
        // Read at most one byte past the limit, whatever the size says (files under /proc report 0).
        fd = fs.openSync(file, "r");
        const buffer = Buffer.alloc(PASSPHRASE_FILE_MAX + 1);
        let length = 0;
        for (let n = -1; n !== 0 && length < buffer.length; length += n) n = fs.readSync(fd, buffer, length, buffer.length - length, null);
        if (length > PASSPHRASE_FILE_MAX) return { unreadable: `it holds more than ${PASSPHRASE_FILE_MAX} bytes, more than a passphrase file does`, file };
        return { text: buffer.subarray(0, length).toString("utf8").trim() };
    } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        return { unreadable: code === "ENOENT" ? "it does not exist" : code === "EACCES" ? "it cannot be read (permission denied)" : `it cannot be read (${code ?? "error"})`, file };
    } finally {
        if (fd !== undefined) fs.closeSync(fd);
    }
}

/** The three parts of `v1:<a>:<b>`, decoded, or undefined when the text is not of that form. */
function parts(text: string): [Buffer, Buffer] | undefined {
    const [version, a, b, ...rest] = text.split(":");
    if (version !== "v1" || a === undefined || b === undefined || rest.length > 0) return undefined;
    return [Buffer.from(a, "base64"), Buffer.from(b, "base64")];
}

/** AES-256-GCM: the plain text, or undefined when the tag does not authenticate (another key, or altered text). */
function open(key: Buffer, ciphertext: string): string | undefined {
    const p = parts(ciphertext);
    if (!p) return undefined;
    const [nonce, sealed] = p;
    if (nonce.length !== NONCE_BYTES || sealed.length < TAG_BYTES) return undefined;
    // Loaded only here: `mara validate` on a stack with nothing to decrypt loads no crypto.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createDecipheriv } = require("crypto") as typeof import("crypto");
    try {
        const decipher = createDecipheriv("aes-256-gcm", key, nonce);
        decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
        return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]).toString("utf8");
    } catch {
        return undefined;
    }
}

/** The key the passphrase and the stack's salt make, or why they make none Pulumi would accept. */
function keyFor(encryptionSalt: string, passphrase: string): { key: Buffer } | { incorrect: true } | { malformed: true } {
    const [version, salt, ...check] = encryptionSalt.split(":");
    if (version !== "v1" || salt === undefined || check.length !== 3) return { malformed: true };
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { pbkdf2Sync } = require("crypto") as typeof import("crypto");
    const key = pbkdf2Sync(passphrase, Buffer.from(salt, "base64"), KDF_ITERATIONS, KEY_BYTES, "sha256");
    return open(key, check.join(":")) === "pulumi" ? { key } : { incorrect: true };
}

/**
 * `raw` with the values of `keys` that are stored encrypted decrypted where the passphrase allows it, and what
 * became of each in `stackFile.offline`. Without an encrypted value among them nothing is read or derived.
 *
 * @param cwd - the directory a relative `PULUMI_CONFIG_PASSPHRASE_FILE` is resolved against (the CLI's own).
 */
export function decryptOffline(raw: RawConfig, keys: readonly string[], cwd: string): RawConfig {
    const encrypted = keys.filter((k) => raw.stackFile?.encrypted[k] !== undefined);
    if (encrypted.length === 0 || !raw.stackFile) return raw;
    // No salt: the Pulumi Cloud or a cloud KMS encrypted the values, and only the CLI reaches them.
    const encryptionSalt = raw.stackFile.encryptionSalt;
    const offline: Record<string, OfflineSecret> = {};
    const values = { ...raw.values };
    const settle = (state: OfflineSecret) => encrypted.forEach((k) => (offline[k] = state));
    const passphrase = encryptionSalt === undefined ? undefined : passphraseOf(raw.env, cwd);
    if (encryptionSalt === undefined) settle({ state: "sealed", why: "not-passphrase" });
    else if (!passphrase || "missing" in passphrase) settle({ state: "sealed", why: "no-passphrase" });
    else if ("unreadable" in passphrase) {
        settle({
            state: "refused",
            setting: PASSPHRASE_FILE_ENV,
            problem: `names ${passphrase.file}, and ${passphrase.unreadable}, so Pulumi cannot read the stack's passphrase and stops before the program starts`,
            allowed: "the path of a file holding the stack's passphrase",
            fix: `point ${PASSPHRASE_FILE_ENV} at the passphrase file, or unset it to check the configuration without decrypting it`,
        });
    } else {
        const made = keyFor(encryptionSalt, passphrase.text);
        const from = raw.env[PASSPHRASE_ENV] !== undefined ? PASSPHRASE_ENV : PASSPHRASE_FILE_ENV;
        if ("malformed" in made) {
            settle({
                state: "refused",
                setting: "encryptionsalt",
                problem: "is not a passphrase salt (v1:<salt>:<ciphertext>, as pulumi stack init writes it), so Pulumi cannot decrypt the stack's secrets",
                allowed: "the encryptionsalt the Pulumi CLI wrote when the stack was created",
                fix: "restore the stack file's encryptionsalt from version control, or set the secrets again: pulumi stack change-secrets-provider passphrase",
            });
        } else if ("incorrect" in made) {
            settle({
                state: "refused",
                setting: from,
                problem: `is not the passphrase of this stack (it does not open the stack file's encryptionsalt), so Pulumi stops with "incorrect passphrase" before the program starts`,
                allowed: "the passphrase the stack's secrets were encrypted with",
                fix: `export ${from} with the stack's passphrase, or unset ${PASSPHRASE_ENV} and ${PASSPHRASE_FILE_ENV} to check the configuration without decrypting it`,
            });
        } else {
            for (const k of encrypted) {
                const plain = open(made.key, String(raw.stackFile.encrypted[k]));
                if (plain === undefined) {
                    offline[k] = {
                        state: "refused",
                        setting: k,
                        problem: "has a `secure:` value that the stack's passphrase does not decrypt (it was encrypted for another stack, or altered), so Pulumi stops before the program starts",
                        allowed: "a value encrypted for this stack: pulumi config set --secret writes one",
                        fix: `store it again for this stack: pulumi config set --secret ${k} < <file>`,
                    };
                } else {
                    values[k] = plain;
                    offline[k] = { state: "decrypted" };
                }
            }
        }
    }
    return { ...raw, values, stackFile: { ...raw.stackFile, offline } };
}
