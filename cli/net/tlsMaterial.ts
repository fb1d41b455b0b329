/**
 * Certificates and keys as a kubeconfig carries them (`certificate-authority-data`, `client-certificate-data`,
 * `client-key-data`: base64 of PEM; or the file fields naming PEM files), checked before any connection is made. Node
 * would take garbage for a certificate authority without a word and then report the server's certificate as
 * self-signed, which sends the user after the wrong problem; client-go refuses such a kubeconfig outright
 * (kubernetes/client-go, util/cert/pem.go, ParseCertsPEM: "data does not contain any valid RSA or ECDSA
 * certificates"), and so do we, naming the field and what is wrong with it.
 */
import * as crypto from "crypto";
import * as fs from "fs";

/** Largest certificate, key or token file read: a chain of a few certificates is a few kilobytes. */
export const MAX_CREDENTIAL_FILE_BYTES = 1024 * 1024;

/** A checked value, or what is wrong with it. */
export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

/** Base64 as kubeconfigs hold it (standard alphabet, padding, line breaks allowed); Node's decoder would skip anything else silently. */
function decodeBase64(text: string): Buffer | undefined {
    const compact = text.replace(/\s+/g, "");
    if (compact === "" || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 === 1) return undefined;
    return Buffer.from(compact, "base64");
}

/**
 * Reads a local file of credentials: a regular file no larger than {@link MAX_CREDENTIAL_FILE_BYTES} (a pipe or a
 * device would block the read for ever, `/dev/zero` would never end).
 */
export function readCredentialFile(file: string, field: string): Checked<Buffer> {
    let stat: fs.Stats;
    try {
        stat = fs.statSync(file);
    } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        return { ok: false, problem: `${field} names ${file}, which ${code === "ENOENT" ? "does not exist" : code === "EACCES" ? "cannot be read (permission denied)" : `cannot be read (${code ?? "error"})`}` };
    }
    if (!stat.isFile()) return { ok: false, problem: `${field} names ${file}, which is ${stat.isDirectory() ? "a directory" : "not a regular file"}` };
    if (stat.size > MAX_CREDENTIAL_FILE_BYTES) return { ok: false, problem: `${field} names ${file}, which is larger than ${MAX_CREDENTIAL_FILE_BYTES / 1024 / 1024} MiB: not a certificate, key or token` };
    try {
        return { ok: true, value: fs.readFileSync(file) };
    } catch (e) {
        return { ok: false, problem: `${field} names ${file}, which cannot be read (${(e as NodeJS.ErrnoException).code ?? "error"})` };
    }
}

/** The `-data` field's bytes, or the file's: as client-go, the file wins when both are set. */
function bytesOf(data: string | undefined, file: string | undefined, field: string): Checked<Buffer> | undefined {
    if (file) return readCredentialFile(file, field.replace(/-data$/, ""));
    if (data === undefined || data === null || data === "") return undefined;
    if (typeof data !== "string") return { ok: false, problem: `${field} is not a string of base64` };
    const bytes = decodeBase64(data);
    return bytes ? { ok: true, value: bytes } : { ok: false, problem: `${field} is not base64 (it should be the base64 of a PEM file)` };
}

/** The PEM blocks of `text` of the given type. */
function blocks(text: string, type: string): string[] {
    return [...text.matchAll(PEM_BLOCK)].filter((m) => m[1] === type).map((m) => m[0]);
}

/**
 * The certificate authority a cluster entry names: its PEM, each certificate in it parsed.
 *
 * @returns undefined when the entry names none (the system's authorities are used, as kubectl does).
 */
export function certificateAuthority(data: string | undefined, file: string | undefined): Checked<{ pem: Buffer; certificates: crypto.X509Certificate[] }> | undefined {
    const field = file ? "certificate-authority" : "certificate-authority-data";
    const bytes = bytesOf(data, file, "certificate-authority-data");
    if (!bytes?.ok) return bytes as Checked<never> | undefined;
    const parsed = certificates(bytes.value, field);
    return parsed.ok ? { ok: true, value: { pem: bytes.value, certificates: parsed.value } } : parsed;
}

function certificates(bytes: Buffer, field: string): Checked<crypto.X509Certificate[]> {
    const text = bytes.toString("latin1");
    const pems = blocks(text, "CERTIFICATE");
    if (pems.length === 0) {
        // A DER certificate starts with a SEQUENCE (0x30) and a long length (0x82).
        const der = bytes[0] === 0x30 && bytes[1] === 0x82;
        return { ok: false, problem: `${field} holds no PEM certificate (-----BEGIN CERTIFICATE-----)${der ? "; it looks like a DER certificate, which kubeconfigs do not take: convert it with openssl x509 -inform der -outform pem" : ""}` };
    }
    const out: crypto.X509Certificate[] = [];
    for (const [i, pem] of pems.entries()) {
        try {
            out.push(new crypto.X509Certificate(pem));
        } catch {
            return { ok: false, problem: `${field} holds a certificate that cannot be parsed (block ${i + 1} of ${pems.length})` };
        }
    }
    return { ok: true, value: out };
}

/** A client certificate and its key, from a user entry (or an exec plugin's answer): both or neither, parsed, and belonging together. */
export function clientKeyPair(
    cert: { data?: string; file?: string; pem?: string },
    key: { data?: string; file?: string; pem?: string },
    fields: { cert: string; key: string } = { cert: "client-certificate-data", key: "client-key-data" },
): Checked<{ cert: Buffer; key: Buffer; notAfter: Date }> | undefined {
    const certBytes = cert.pem !== undefined && cert.pem !== "" ? { ok: true as const, value: Buffer.from(cert.pem) } : bytesOf(cert.data, cert.file, fields.cert);
    const keyBytes = key.pem !== undefined && key.pem !== "" ? { ok: true as const, value: Buffer.from(key.pem) } : bytesOf(key.data, key.file, fields.key);
    if (!certBytes && !keyBytes) return undefined;
    if (certBytes && !certBytes.ok) return certBytes;
    if (keyBytes && !keyBytes.ok) return keyBytes;
    if (!certBytes) return { ok: false, problem: `${fields.key} is set without ${fields.cert}: a client key needs its certificate` };
    if (!keyBytes) return { ok: false, problem: `${fields.cert} is set without ${fields.key}: a client certificate needs its key` };
    const parsed = certificates(certBytes.value, fields.cert);
    if (!parsed.ok) return parsed;
    let privateKey: crypto.KeyObject;
    try {
        privateKey = crypto.createPrivateKey(keyBytes.value);
    } catch {
        return { ok: false, problem: `${fields.key} holds no private key that can be read (a PEM "PRIVATE KEY", "RSA PRIVATE KEY" or "EC PRIVATE KEY" block, unencrypted)` };
    }
    if (!parsed.value[0]!.checkPrivateKey(privateKey)) return { ok: false, problem: `${fields.key} is not the key of the certificate in ${fields.cert}` };
    return { ok: true, value: { cert: certBytes.value, key: keyBytes.value, notAfter: new Date(parsed.value[0]!.validTo) } };
}
