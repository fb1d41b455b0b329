/**
 * The check behind `mara verify`: a deployed Bank of Sirius answers through its ingress, its readiness
 * endpoint says so, and the demo user the stack created can log in.
 *
 * It replaces MARA's verify.py, which logged in as a hard-coded testuser/password, silently turned TLS
 * verification off, accepted only status 200 (the real login answers 302, so a healthy app could never
 * pass) and failed with a KeyError when the application was not deployed. Here the credentials come from
 * the stack outputs, certificate checks are skipped only when asked with --insecure, success means the
 * app really issued a session token, and every failure names its cause and what to do about it.
 *
 * Usage: pulumi stack output --json --show-secrets | npx mara verify [--insecure] [--timeout 20]
 */
import type * as http from "http";
import { URL, URLSearchParams } from "url";
import { boundedRequest, RequestFailure, secondsInWords } from "../net/boundedRequest";
import { isCertificateFailure } from "../net/failure";
import { parseJson } from "../../host/json";
import { peerCertificate } from "../net/peerCertificate";

/** What `verify` needs from the stack outputs. */
export interface StackTarget {
    readonly url: string;
    readonly username: string;
    readonly password: string;
}

/** Options of {@link verifyApplication}. */
export interface VerifyOptions extends StackTarget {
    /** Skip TLS certificate verification (https only); for the demo's self-signed certificate. */
    readonly insecure?: boolean;
    /** Limit for each HTTP request, from connecting to the last byte of the answer. Default 10 s, at most {@link MAX_TIMEOUT_MS}. */
    readonly timeoutMs?: number;
}

/** Outcome of {@link verifyApplication}; `message` never contains the password. */
export interface VerifyResult {
    readonly ok: boolean;
    readonly message: string;
}

/** How the outputs reach the check. */
export const PIPE_COMMAND = "pulumi stack output --json --show-secrets | npx mara verify";
/** Limit for each HTTP request when none is given. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** The largest `--timeout`: ten minutes, as `mara outdated`'s. */
export const MAX_TIMEOUT_MS = 600_000;
const READINESS_PATH = "/z/health/readiness";
const LOGIN_PATH = "/login";
/** Enough for a health answer or an error page: the answer is ended there, however long the server would go on. */
export const MAX_BODY_BYTES = 4096;

/** `pulumi stack output --json` prints secrets as this string unless --show-secrets is given. */
const SECRET_PLACEHOLDER = "[secret]";

/**
 * Reads the target of the check from the JSON that `pulumi stack output --json --show-secrets` prints.
 *
 * @param json - the whole JSON object of stack outputs.
 * @returns the application URL and the demo login.
 * @throws Error naming what is missing and the command that provides it.
 */
export function parseStackOutputs(json: string): StackTarget {
    // The parser's own message would quote the text around the error, and the outputs hold the demo password.
    const parsed = parseJson(json);
    if (!parsed.ok) throw new Error(`the stack outputs are not JSON (${parsed.where}); run: ${PIPE_COMMAND}`);
    const outputs = parsed.value;
    if (typeof outputs !== "object" || outputs === null || Array.isArray(outputs)) {
        throw new Error(`the stack outputs are not a JSON object; run: ${PIPE_COMMAND}`);
    }
    const record = outputs as Record<string, unknown>;

    const rawUrl = record["application_url"];
    if (typeof rawUrl !== "string" || rawUrl.trim() === "") {
        throw new Error(`no application_url in the stack outputs; is the application deployed? Run: ${PIPE_COMMAND}`);
    }
    let url: URL;
    try {
        url = new URL(rawUrl.trim());
    } catch {
        throw new Error(`application_url "${rawUrl}" is not a valid URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
        throw new Error(`application_url "${rawUrl}" must start with http:// or https://, not ${url.protocol}//`);
    }

    const login = readDemoLogin(record["demo_login"]);
    return { url: url.toString().replace(/\/+$/, ""), ...login };
}

/** The demo login, accepting it as an object or as the JSON text of one (an output set from a string). */
function readDemoLogin(value: unknown): { username: string; password: string } {
    const encrypted = `demo_login is missing or still encrypted; pass --show-secrets: ${PIPE_COMMAND}`;
    if (value === undefined || value === null || value === SECRET_PLACEHOLDER) throw new Error(encrypted);
    let login = value;
    if (typeof login === "string") {
        try {
            login = JSON.parse(login);
        } catch {
            throw new Error(encrypted);
        }
    }
    if (typeof login !== "object" || login === null || Array.isArray(login)) throw new Error(encrypted);
    const { username, password } = login as Record<string, unknown>;
    const missing = [
        ...(typeof username === "string" && username !== "" ? [] : ["username"]),
        ...(typeof password === "string" && password !== "" ? [] : ["password"]),
    ];
    if (missing.length > 0) {
        throw new Error(`demo_login has no ${missing.join(" or ")}; expected {"username": "...", "password": "..."}`);
    }
    return { username: username as string, password: password as string };
}

/** One HTTP answer, with the body cut to {@link MAX_BODY_BYTES}. */
interface Answer {
    readonly status: number;
    readonly headers: http.IncomingHttpHeaders;
    readonly body: string;
}

/**
 * One request without redirects, cookies or retries: the check is about exactly what the app answers. The timeout
 * covers the whole request, to the answer's last byte, so a server that dribbles cannot stretch it; an answer longer
 * than {@link MAX_BODY_BYTES} is ended there.
 */
async function send(url: URL, init: { method: string; body?: string; contentType?: string; insecure: boolean; timeoutMs: number }): Promise<Answer> {
    const headers: http.OutgoingHttpHeaders = { accept: "*/*" };
    if (init.body !== undefined) {
        headers["content-type"] = init.contentType;
        headers["content-length"] = Buffer.byteLength(init.body);
    }
    const answer = await boundedRequest({ url, method: init.method, headers, body: init.body, tls: { rejectUnauthorized: !init.insecure } }, { deadlineMs: init.timeoutMs, maxBytes: MAX_BODY_BYTES, overflow: "truncate" });
    return { status: answer.status, headers: answer.headers, body: answer.body.toString("utf8") };
}

/** A network failure as a sentence saying what went wrong and what to check. */
async function describeNetworkError(err: unknown, step: string, url: URL, timeoutMs: number): Promise<string> {
    const where = `${step} (${url.host})`;
    if (!(err instanceof RequestFailure)) throw err;
    if (err.kind === "timeout") {
        return `${where}: no answer within ${secondsInWords(timeoutMs)} (timed out); is the load balancer reachable from here? Use --timeout SECONDS to wait longer`;
    }
    const failure = err.network!;
    const code = failure.code ?? "";
    switch (failure.kind) {
        case "refused":
            return `${where}: connection refused; nothing listens at ${url.host}. Is application_url right and the ingress controller running?`;
        case "dns":
            return `${where}: cannot resolve host "${url.hostname}" (DNS ${code}); a new load balancer's name can take a few minutes to resolve`;
        case "unreachable":
            return `${where}: cannot reach ${url.host} (${code}); check security groups and that the load balancer is up`;
        case "reset":
            return `${where}: the connection was closed by ${url.host} before it answered (${code})`;
        case "tls-not-tls":
        case "tls-handshake":
        case "tls-client-certificate":
            return `${where}: TLS handshake failed (${code}); does application_url use the right scheme (http vs https) and port?`;
        case "other":
            return `${where}: ${failure.words}`;
    }
    // A certificate verification refused: say what the certificate is, read on a connection that sends nothing.
    const cert = isCertificateFailure(failure.kind) ? await peerCertificate(url, undefined, Math.min(3000, timeoutMs)) : undefined;
    const until = cert ? `, valid until ${cert.validTo.toISOString()}` : "";
    switch (failure.kind) {
        case "tls-self-signed":
            return `${where}: TLS certificate not trusted (${code}: it is self-signed${cert ? `, for ${cert.subject}` : ""}). The demo ingress uses a self-signed certificate; if that is what this host serves, rerun with --insecure`;
        case "tls-unknown-ca":
            return `${where}: TLS certificate not trusted (${code}: it is signed by ${cert ? cert.issuer : "an authority"}, which this machine does not trust). A certificate from the platform's own CA issuer is expected to be: rerun with --insecure, or add that CA with NODE_EXTRA_CA_CERTS=<ca.pem>`;
        case "tls-expired":
            return `${where}: TLS certificate expired (${code}${cert ? `: on ${cert.validTo.toISOString()}` : ""}). cert-manager renews the ingress's certificate before it runs out: see why it did not with kubectl get certificate -A; --insecure skips the check`;
        case "tls-not-yet-valid":
            return `${where}: TLS certificate not valid yet (${code}${cert ? `: from ${cert.validFrom.toISOString()}` : ""}); check this machine's clock`;
        case "tls-hostname":
            return `${where}: TLS certificate is for ${cert?.altNames ?? "other names"}, not ${url.hostname} (${code}${until}); does application_url use the host name the ingress's certificate is for (mara:fqdn)? --insecure skips the check`;
        default:
            return `${where}: ${failure.words}`;
    }
}

/** Appends a path to the application URL, keeping any path prefix the URL has. */
function endpoint(base: URL, path: string): URL {
    const url = new URL(base.toString());
    url.pathname = url.pathname.replace(/\/+$/, "") + path;
    url.search = "";
    url.hash = "";
    return url;
}

/** Masks the password in text the server chose (a redirect), in case a broken app echoes the login back. */
function hide(text: string, password: string): string {
    return password === "" ? text : text.split(password).join("***");
}

/** The `token` cookie's value from Set-Cookie headers, or undefined when the app set none (or cleared it). */
function tokenCookie(headers: http.IncomingHttpHeaders): string | undefined {
    for (const cookie of headers["set-cookie"] ?? []) {
        const match = /^\s*token=([^;]*)/.exec(cookie);
        if (match && match[1] !== "") return match[1];
    }
    return undefined;
}

/** The `status` field of a JSON health answer, for a more telling message; undefined when absent. */
function healthStatus(body: string): string | undefined {
    try {
        const parsed: unknown = JSON.parse(body);
        const status = (parsed as Record<string, unknown> | null)?.["status"];
        return typeof status === "string" ? status : undefined;
    } catch {
        return undefined;
    }
}

/**
 * Checks a deployed Bank of Sirius: its readiness endpoint must answer 200, and logging in with the demo
 * user must redirect to /home and set a `token` cookie, which is what a browser login needs.
 *
 * @param opts - the application URL, the demo login, and whether to skip certificate checks.
 * @returns `ok` and a one-line reason; the message names the user but never the password.
 */
export async function verifyApplication(opts: VerifyOptions): Promise<VerifyResult> {
    const timeoutMs = Math.min(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
    const insecure = opts.insecure === true;
    let base: URL;
    try {
        base = new URL(opts.url);
    } catch {
        return { ok: false, message: `"${opts.url}" is not a valid URL` };
    }
    if (base.protocol !== "http:" && base.protocol !== "https:") {
        return { ok: false, message: `"${opts.url}" is not an http:// or https:// URL` };
    }

    const readinessUrl = endpoint(base, READINESS_PATH);
    const readinessStep = `readiness check GET ${READINESS_PATH}`;
    let readiness: Answer;
    try {
        readiness = await send(readinessUrl, { method: "GET", insecure, timeoutMs });
    } catch (err) {
        return { ok: false, message: await describeNetworkError(err, readinessStep, readinessUrl, timeoutMs) };
    }
    if (readiness.status === 503) {
        const status = healthStatus(readiness.body);
        return {
            ok: false,
            message: `${readinessStep} answered 503 Service Unavailable${status ? ` (status ${status})` : ""}: the application is not ready yet; wait for its pods to start and retry`,
        };
    }
    if (readiness.status !== 200) {
        return {
            ok: false,
            message: `${readinessStep} answered HTTP ${readiness.status} instead of 200; does application_url point at the Bank of Sirius ingress?`,
        };
    }

    const loginUrl = endpoint(base, LOGIN_PATH);
    const loginStep = `login POST ${LOGIN_PATH} as "${opts.username}"`;
    let login: Answer;
    try {
        login = await send(loginUrl, {
            method: "POST",
            body: new URLSearchParams({ username: opts.username, password: opts.password }).toString(),
            contentType: "application/x-www-form-urlencoded",
            insecure,
            timeoutMs,
        });
    } catch (err) {
        return { ok: false, message: await describeNetworkError(err, loginStep, loginUrl, timeoutMs) };
    }
    if (login.status !== 302) {
        return { ok: false, message: `${loginStep} answered HTTP ${login.status}; expected a 302 redirect to /home` };
    }
    const location = login.headers.location;
    let target: URL | undefined;
    try {
        target = location === undefined ? undefined : new URL(location, loginUrl);
    } catch {
        target = undefined;
    }
    if (target === undefined) {
        return { ok: false, message: `${loginStep} answered 302 without a usable Location (${hide(location ?? "none", opts.password)})` };
    }
    if (target.pathname.endsWith(LOGIN_PATH)) {
        // The frontend sends bad credentials back to the login page with its reason in `msg`.
        const said = target.searchParams.get("msg");
        return {
            ok: false,
            message: `${loginStep} was rejected${said ? ` ("${hide(said, opts.password)}")` : ""}: check the demo_login credentials (username and password, set by mara:siriusDemoUser and mara:siriusDemoPassword)`,
        };
    }
    if (!target.pathname.endsWith("/home")) {
        return { ok: false, message: `${loginStep} redirected to ${hide(target.pathname, opts.password)} instead of /home` };
    }
    if (tokenCookie(login.headers) === undefined) {
        return { ok: false, message: `${loginStep} redirected to /home but set no token cookie, so no session was created` };
    }
    return { ok: true, message: `readiness answered 200 and "${opts.username}" logged in at ${opts.url}` };
}
