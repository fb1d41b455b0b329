/**
 * What went wrong with a connection, in words, told apart by kind: refused, a name that does not resolve, a host
 * that cannot be reached, a connection closed before the answer, and each way TLS verification fails (a certificate
 * signed by an authority not trusted, a self-signed one, an expired or not yet valid one, one for another host name,
 * a client certificate refused, a server that does not speak TLS). Callers add the advice that fits their setting
 * (a kubeconfig's certificate-authority-data, `mara verify --insecure`). Node's own error text is never shown: only
 * its codes, which name the failure exactly.
 */

/** The kinds of connection failure. */
export type NetworkFailureKind =
    | "refused"
    | "dns"
    | "unreachable"
    | "reset"
    | "tls-unknown-ca"
    | "tls-self-signed"
    | "tls-expired"
    | "tls-not-yet-valid"
    | "tls-hostname"
    | "tls-client-certificate"
    | "tls-not-tls"
    | "tls-handshake"
    | "other";

/** A classified failure. */
export interface NetworkFailure {
    readonly kind: NetworkFailureKind;
    /** What happened, as a clause ("connection refused: nothing listens on 127.0.0.1:9"). */
    readonly words: string;
    /** Node's or OpenSSL's code, when there is one. */
    readonly code?: string;
}

/** OpenSSL's verification codes, by what they mean to the user. */
const TLS_CODES: Readonly<Record<string, NetworkFailureKind>> = {
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: "tls-unknown-ca",
    UNABLE_TO_GET_ISSUER_CERT: "tls-unknown-ca",
    UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "tls-unknown-ca",
    CERT_UNTRUSTED: "tls-unknown-ca",
    CERT_SIGNATURE_FAILURE: "tls-unknown-ca",
    CERT_REJECTED: "tls-unknown-ca",
    INVALID_CA: "tls-unknown-ca",
    DEPTH_ZERO_SELF_SIGNED_CERT: "tls-self-signed",
    SELF_SIGNED_CERT_IN_CHAIN: "tls-self-signed",
    CERT_HAS_EXPIRED: "tls-expired",
    CERT_NOT_YET_VALID: "tls-not-yet-valid",
    ERR_TLS_CERT_ALTNAME_INVALID: "tls-hostname",
    HOSTNAME_MISMATCH: "tls-hostname",
    ERR_SSL_WRONG_VERSION_NUMBER: "tls-not-tls",
    ERR_SSL_PACKET_LENGTH_TOO_LONG: "tls-not-tls",
    ERR_SSL_HTTP_REQUEST: "tls-not-tls",
    ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: "tls-client-certificate",
    ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: "tls-client-certificate",
    ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN: "tls-client-certificate",
    ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: "tls-client-certificate",
};

/** Whether a kind is a certificate the server presented and verification refused. */
export const isCertificateFailure = (kind: NetworkFailureKind): boolean =>
    kind === "tls-unknown-ca" || kind === "tls-self-signed" || kind === "tls-expired" || kind === "tls-not-yet-valid" || kind === "tls-hostname";

/** The host and port a URL connects to. */
export function hostPort(url: URL): string {
    return url.port ? url.host : `${url.host}:${url.protocol === "https:" || url.protocol === "wss:" ? 443 : 80}`;
}

/**
 * Classifies what a request to `url` failed with.
 *
 * @param err - the error Node raised (a system error with `code`, a TLS error, or undici's "fetch failed" with a `cause`).
 */
export function classifyNetworkError(err: unknown, url: URL): NetworkFailure {
    const e = (err as { cause?: unknown; code?: unknown })?.code === undefined && (err as { cause?: unknown })?.cause ? (err as { cause: unknown }).cause : err;
    const code = typeof (e as { code?: unknown })?.code === "string" ? ((e as { code: string }).code as string) : undefined;
    const where = hostPort(url);
    const said = (e as { message?: unknown })?.message;
    const message = typeof said === "string" ? said : "";
    // OpenSSL's reason, read (never shown) to tell a server that does not speak TLS from other broken handshakes.
    const notTls = code === "EPROTO" && /wrong version number|packet length too long|http request/i.test(message);
    const tls = code ? (notTls ? "tls-not-tls" : TLS_CODES[code] ?? (code.startsWith("ERR_SSL_") || code === "EPROTO" ? "tls-handshake" : undefined)) : undefined;
    if (tls) return { kind: tls, code, words: tlsWords(tls, url, code!, (e as { cert?: { subjectaltname?: string } }).cert?.subjectaltname) };
    switch (code) {
        case "ECONNREFUSED":
            return { kind: "refused", code, words: `connection refused: nothing listens on ${where}` };
        case "ENOTFOUND":
            return { kind: "dns", code, words: `the host name ${url.hostname} does not resolve (DNS: ${code})` };
        case "EAI_AGAIN":
            return { kind: "dns", code, words: `the host name ${url.hostname} could not be looked up (DNS: ${code}, a temporary failure)` };
        case "EHOSTUNREACH":
        case "ENETUNREACH":
        case "ETIMEDOUT":
        case "EADDRNOTAVAIL":
        case "UND_ERR_CONNECT_TIMEOUT":
            return { kind: "unreachable", code, words: `${where} cannot be reached (${code})` };
        case "ECONNRESET":
        case "EPIPE":
        case "UND_ERR_SOCKET":
        case "ECONNABORTED":
            return { kind: "reset", code, words: `${where} closed the connection before answering (${code})` };
        default:
            return { kind: "other", code, words: `the connection to ${where} failed${code ? ` (${code})` : ""}` };
    }
}

function tlsWords(kind: NetworkFailureKind, url: URL, code: string, altNames?: string): string {
    const server = `the server at ${hostPort(url)}`;
    switch (kind) {
        case "tls-unknown-ca":
            return `${server} presents a certificate signed by a certificate authority that is not trusted here (${code})`;
        case "tls-self-signed":
            return `${server} presents a self-signed certificate that is not trusted here (${code})`;
        case "tls-expired":
            return `${server} presents a certificate that has expired (${code})`;
        case "tls-not-yet-valid":
            return `${server} presents a certificate that is not valid yet (${code}); is this machine's clock right?`;
        case "tls-hostname":
            return `${server} presents a certificate for other names than ${url.hostname}${altNames ? ` (${altNames})` : ""} (${code})`;
        case "tls-client-certificate":
            return `${server} refused the client certificate (${code})`;
        case "tls-not-tls":
            return `${server} does not speak TLS (${code}): it may serve plain http://, or another protocol, on that port`;
        default:
            return `the TLS handshake with ${server} failed (${code})`;
    }
}
