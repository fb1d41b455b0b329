/**
 * Values stored encrypted (`key: { secure: ... }`). Two mistakes are caught here, with messages that never
 * quote the stored text (a user who wrote a password under `secure:` by hand would see it printed otherwise):
 *
 * - Ciphertext Pulumi cannot decrypt. With the passphrase secrets provider (the stack file has an
 *   `encryptionsalt`) a value is `v1:<nonce>:<ciphertext>`, both standard base64, the nonce 12 bytes (AES-256-GCM)
 *   and the ciphertext at least its 16-byte tag; with the Pulumi Cloud or a cloud KMS provider it is standard
 *   base64 (pulumi/pulumi `sdk/go/common/resource/config/crypt.go`, and the service and cloud crypters). `pulumi
 *   up` fails to decrypt anything else before the program starts.
 * - `secure:` on a key that is not a secret. The program reads it as plain text, `mara validate` cannot read it
 *   offline to check it, and Pulumi marks every value derived from it secret (names in outputs become
 *   `[secret]`).
 */
import { KEYS, KeySpec } from "./keys";
import { configSetCommand } from "./problems";
import type { Findings, RawConfig } from "./resolve";
import { ENCRYPTED_PLACEHOLDER } from "./stackFile";

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const base64Bytes = (s: string) => (BASE64.test(s) ? Buffer.from(s, "base64").length : -1);

/** Why `ciphertext` cannot be decrypted by the stack's secrets provider, or undefined when its form is right. */
export function ciphertextProblem(ciphertext: unknown, passphrase: boolean): string | undefined {
    if (typeof ciphertext !== "string" || ciphertext.trim() === "") return "has a `secure:` value that is empty or not text";
    if (passphrase) {
        const parts = ciphertext.split(":");
        if (parts.length !== 3 || parts[0] !== "v1") {
            return "has a `secure:` value that is not passphrase ciphertext (v1:<nonce>:<ciphertext>, as `pulumi config set --secret` writes it in a stack file with an encryptionsalt)";
        }
        if (base64Bytes(parts[1]!) !== 12) return "has a `secure:` value whose nonce is not 12 bytes of base64, so Pulumi cannot decrypt it";
        if (base64Bytes(parts[2]!) < 16) return "has a `secure:` value whose ciphertext is not base64 of at least 16 bytes, so Pulumi cannot decrypt it";
        return undefined;
    }
    if (ciphertext.startsWith("v1:")) {
        return "has passphrase ciphertext (v1:...), but the stack file has no encryptionsalt, so Pulumi would decrypt it with another secrets provider and fail";
    }
    if (base64Bytes(ciphertext) <= 0) return "has a `secure:` value that is not base64 ciphertext of the stack's secrets provider";
    return undefined;
}

/**
 * Keys the program reads that are not secrets, under every name they have. The kubeconfig is not one of them:
 * given inline it is a credential, and storing it encrypted is right.
 */
const PLAIN_KEYS: ReadonlyMap<string, KeySpec<unknown>> = new Map(
    (Object.values(KEYS) as KeySpec<unknown>[])
        .filter((s) => !s.secret && s !== KEYS.kubeconfig)
        .flatMap((s) => [s.key, ...s.legacy.map((l) => l.key)].map((k) => [k, s] as const)),
);

/**
 * Checks the stored ciphertext (stack files only) and `secure:` on keys that are not secrets. Returns the raw
 * config with the placeholders of such keys removed, so the value types do not report "<encrypted>" as a
 * malformed value on top of the clearer problem recorded here.
 */
export function checkSecureValues(raw: RawConfig, findings: Findings): RawConfig {
    const file = raw.stackFile;
    for (const [key, ciphertext] of Object.entries(file?.encrypted ?? {})) {
        const why = ciphertextProblem(ciphertext, file!.passphrase);
        if (why) {
            findings.problem({
                key,
                problem: why,
                allowed: "the ciphertext `pulumi config set --secret` writes",
                fix: `store the value again: ${configSetCommand(key, "<value>", PLAIN_KEYS.get(key) === undefined)}`,
            });
        }
    }
    const values = { ...raw.values };
    for (const key of raw.secretKeys) {
        const spec = PLAIN_KEYS.get(key);
        if (!spec) continue;
        const offline = values[key] === ENCRYPTED_PLACEHOLDER;
        const message =
            `is stored encrypted (secure:), but it is not a secret setting: ${offline ? "its value cannot be read offline to check it, and " : ""}` +
            "Pulumi marks everything derived from it secret";
        if (offline) {
            delete values[key];
            findings.problem({
                key,
                problem: message,
                allowed: "a plain value: only passwords, tokens and keys are stored encrypted",
                fix: `store it in plain text: ${configSetCommand(key, spec.example ?? "<value>")}`,
            });
        } else {
            findings.warn(`${key} ${message}; store it in plain text: ${configSetCommand(key, "<value>")}`);
        }
    }
    return { ...raw, values };
}
