/**
 * The doctor's connection to a cluster (and `mara open`'s): JSON over HTTPS, authenticated from a kubeconfig as
 * kubectl would (bearer token, token file, basic credentials, client certificate, exec plugin, OIDC id-token;
 * cli/kube/credentials.ts). Every request has a total deadline (connecting, sending and the answer's last byte: a
 * server that drips an answer cannot stretch it) and a byte cap; a command can add a deadline of its own over all
 * its requests. Every failure is a {@link KubeApiError} of one kind — no answer, a TLS failure of a named sort,
 * unusable TLS settings or credentials, an HTTP status, an answer that is not JSON or not shaped as Kubernetes
 * answers are — with what to do about it.
 *
 * Requests go through Node's own https module with our limits rather than through `@kubernetes/client-node`, whose
 * transport counts only idle time and reads answers whole, and whose exec plugin runner has no deadline
 * (credentials.ts says more). The library is still used for a kubeconfig's `proxy-url`: its proxy agents carry
 * the connection, while the deadline and cap stay ours.
 */
import type * as http from "http";
import { boundedRequest, bytesInWords, RequestFailure, secondsInWords } from "../net/boundedRequest";
import { excerpt, redactKnown } from "../net/excerpt";
import { hostPort, isCertificateFailure, NetworkFailure } from "../net/failure";
import { peerCertificate, PeerCertificateFacts } from "../net/peerCertificate";
import { EXEC_PLUGIN_TIMEOUT_MS } from "../kube/execPlugin";
import { ClusterTls, clusterTls, CredentialError, resolveCredentials, ResolvedCredentials, TlsConfigError } from "../kube/credentials";
import { KubeContext, KubeUser, readKubeconfig } from "../kube/kubeconfig";

/** How a request failed: the kinds messages and exit codes are chosen by. */
export type KubeFailureKind =
    /** An HTTP status of 300 or more (`status` holds it). */
    | "http"
    /** No answer: refused, unresolvable, unreachable, closed. */
    | "unreachable"
    /** No complete answer within the request's time. */
    | "timeout"
    /** The command's own bound over all its requests ran out. */
    | "deadline"
    /** TLS verification or the handshake failed. */
    | "tls"
    /** The kubeconfig's certificate authority or TLS settings are unusable. */
    | "tls-config"
    /** The credentials could not be had (an exec plugin failed, a token file is missing, ...). */
    | "credentials"
    /** An answer too large, not JSON, or not shaped as the API server's answers are. */
    | "answer";

/** A request that produced no usable answer. */
export class KubeApiError extends Error {
    constructor(
        /** The HTTP status, or 0 when there was none. */
        readonly status: number,
        message: string,
        readonly kind: KubeFailureKind = status === 0 ? "unreachable" : "http",
        /** What to do about it, when the client can say. */
        readonly fix?: string,
    ) {
        super(message);
        this.name = "KubeApiError";
    }
}

/**
 * Whether `e` is a {@link KubeApiError}, also one made by another instance of this module (the test runner and an
 * action's `require` can load two; cli/kernel/command.ts says more).
 */
export function isKubeApiError(e: unknown): e is KubeApiError {
    return e instanceof KubeApiError || (e instanceof Error && e.name === "KubeApiError" && typeof (e as Partial<KubeApiError>).status === "number");
}

/** What the checks call. */
export interface KubeClient {
    /** The API server's address, as the kubeconfig names it. */
    readonly server: string;
    /** The context in use. */
    readonly context: string;
    /** The kubeconfig's entry for the user (credentials), for the expiry check. */
    readonly user: KubeUser | null;
    get<T = unknown>(path: string): Promise<T>;
    /** GET that answers undefined for 404 (a kind the cluster does not serve, an object that does not exist). */
    find<T = unknown>(path: string): Promise<T | undefined>;
    post<T = unknown>(path: string, body: unknown): Promise<T>;
}

/** How long one request may take, from connecting to the answer's last byte. */
export const REQUEST_TIMEOUT_MS = 8000;
/** The largest answer read for one object (and for discovery, `/version` and reviews): etcd stores at most 1.5 MiB per object. */
export const OBJECT_MAX_BYTES = 4 * 1024 * 1024;
/** The largest answer read for a list (every pod of a big cluster). */
export const LIST_MAX_BYTES = 64 * 1024 * 1024;

/** Options of {@link kubeClient}. */
export interface KubeClientOptions {
    /** Milliseconds one request may take; default {@link REQUEST_TIMEOUT_MS}. */
    readonly timeoutMs?: number;
    /** A time (ms since the epoch) after which no request runs and those running end: the command's own bound. */
    readonly deadline?: number;
    /** The bound's name in messages, e.g. "mara doctor's 60 s bound". */
    readonly deadlineName?: string;
    /** Environment an exec plugin runs with; default the process's. */
    readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Loads the kubeconfig and selects the context.
 *
 * @param baseDir - the kubeconfig file's directory, which relative paths in it are relative to.
 * @throws Error naming the context when it does not exist, or what is malformed.
 */
export function kubeConfigFrom(text: string, context?: string, baseDir: string = process.cwd()): KubeContext {
    return readKubeconfig(text, context, baseDir);
}

/**
 * Whether a GET of `path` answers a list: `/api/v1/<resource>`, `/apis/<group>/<version>/<resource>`, and the same
 * under `namespaces/<namespace>/`. Lists get the larger byte cap and their items are checked.
 */
export function isListPath(path: string): boolean {
    const segments = path.split("?")[0]!.split("/").filter((s) => s !== "");
    let rest: string[];
    if (segments[0] === "api" && segments.length >= 2) rest = segments.slice(2);
    else if (segments[0] === "apis" && segments.length >= 3) rest = segments.slice(3);
    else return false;
    if (rest[0] === "namespaces" && rest.length >= 3) rest = rest.slice(2);
    return rest.length === 1;
}

/** What every request of one client shares: the TLS settings and the credentials, resolved once. */
interface Connection {
    readonly tls: ClusterTls;
    readonly credentials: ResolvedCredentials;
    readonly agent?: http.Agent;
}

/** A client for the context; also hands out its connection settings (the port-forward of `mara open` uses them). */
export interface KubeContextClient extends KubeClient {
    /** The TLS settings and credentials every request carries, resolved on first use. */
    connection(): Promise<Connection>;
    /** Milliseconds left before the client's own deadline (Infinity without one). */
    remaining(): number;
    /** DELETE of one object, with a body of DeleteOptions (preconditions); a 404 is an error, as the API answers it. */
    delete<T = unknown>(path: string, body?: unknown): Promise<T>;
    /** PATCH of one object with a JSON merge patch (RFC 7386: `null` removes a member). */
    mergePatch<T = unknown>(path: string, patch: unknown): Promise<T>;
}

/** A client for the context. */
export function kubeClient(ctx: KubeContext, opts: KubeClientOptions = {}): KubeContextClient {
    // A server written as host:port means https, as client-go reads it (rest.DefaultServerURL).
    const server = (ctx.cluster.server.includes("://") ? ctx.cluster.server : `https://${ctx.cluster.server}`).replace(/\/+$/, "");
    const timeoutMs = opts.timeoutMs ?? REQUEST_TIMEOUT_MS;
    const remaining = () => (opts.deadline === undefined ? Infinity : opts.deadline - Date.now());
    const deadlineError = (what: string) => new KubeApiError(0, `${what}: ${opts.deadlineName ?? "the command's time bound"} ran out`, "deadline", "the cluster answers too slowly for these checks; see what is slow with: kubectl get --raw /readyz?verbose");
    const reachFix = `check that the cluster runs and that ${server} is reachable from here (VPN, firewall, the address in the kubeconfig): kubectl --context ${ctx.name} get --raw /version`;

    let connecting: Promise<Connection> | undefined;
    const connection = (): Promise<Connection> =>
        (connecting ??= (async () => {
            let tls: ClusterTls;
            try {
                tls = clusterTls(ctx.cluster);
            } catch (e) {
                if (e instanceof TlsConfigError) throw new KubeApiError(0, e.message, "tls-config", e.fix);
                throw e;
            }
            const left = remaining();
            if (left <= 0) throw deadlineError("the credentials");
            let credentials: ResolvedCredentials;
            try {
                credentials = await resolveCredentials(ctx, { deadlineMs: Math.min(EXEC_PLUGIN_TIMEOUT_MS, left), env: opts.env ?? process.env });
            } catch (e) {
                if (e instanceof CredentialError) throw new KubeApiError(0, e.message, "credentials", e.fix);
                throw e;
            }
            return { tls, credentials, ...(ctx.cluster.proxyUrl ? { agent: proxyAgent(ctx, tls, credentials) } : {}) };
        })());

    const call = async <T>(method: string, path: string, body?: unknown, contentType = "application/json"): Promise<T> => {
        const what = `${method} ${path}`;
        if (remaining() <= 0) throw deadlineError(what);
        const conn = await connection();
        const left = remaining();
        if (left <= 0) throw deadlineError(what);
        const ms = Math.min(timeoutMs, left);
        const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
        const list = method === "GET" && isListPath(path);
        const maxBytes = list ? LIST_MAX_BYTES : OBJECT_MAX_BYTES;
        let url: URL | undefined;
        try {
            url = new URL(server + path);
        } catch {
            url = undefined;
        }
        if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) {
            throw new KubeApiError(0, `the kubeconfig's server address ${server} is not an https:// URL`, "tls-config", "write it as https://<host>:<port> in the cluster entry's server");
        }
        const secrets = conn.credentials.secrets;
        let answer;
        try {
            answer = await boundedRequest(
                {
                    url,
                    method,
                    headers: { accept: "application/json", ...conn.credentials.headers, ...(data ? { "content-type": contentType, "content-length": data.length } : {}) },
                    body: data,
                    tls: { ...conn.tls, ...(conn.credentials.cert ? { cert: conn.credentials.cert, key: conn.credentials.key } : {}) },
                    agent: conn.agent,
                },
                { deadlineMs: ms, maxBytes },
            );
        } catch (e) {
            if (!(e instanceof RequestFailure)) throw e;
            if (e.kind === "timeout") {
                if (ms < timeoutMs) throw deadlineError(what);
                throw new KubeApiError(0, `${what}: no complete answer from ${server} within ${secondsInWords(ms)}`, "timeout", reachFix);
            }
            if (e.kind === "too-large") throw new KubeApiError(0, `${what}: the answer of ${server} is larger than ${bytesInWords(maxBytes)}, more than is read`, "answer", `is ${server} the cluster's API server? ${reachFix}`);
            throw await networkError(e.network!, url, server, ctx, conn.tls, remaining, reachFix);
        }
        const status = answer.status;
        const type = String(answer.headers["content-type"] ?? "none");
        if (status >= 300 && status < 400) {
            const location = answer.headers.location ? redactKnown(String(answer.headers.location), secrets) : "nowhere";
            throw new KubeApiError(status, `${what}: ${server} answered ${status}${answer.statusText ? ` ${answer.statusText}` : ""}, a redirect to ${location}, where the API server answers directly`, "http", `put the API server's own address in the kubeconfig's server (a proxy or load balancer in front of it must pass requests on, not redirect them): kubectl --context ${ctx.name} get --raw /version`);
        }
        if (status >= 400) {
            throw new KubeApiError(status, `${what}: ${status} ${statusMessage(answer.body, answer.statusText, secrets)}`.trim(), "http", status >= 500 ? `the API server answers but fails: check its health (kubectl --context ${ctx.name} get --raw '/readyz?verbose') and its logs` : undefined);
        }
        let parsed: unknown;
        try {
            parsed = JSON.parse(answer.body.toString("utf8"));
        } catch {
            throw new KubeApiError(status, `${what}: the answer of ${server} is not JSON (HTTP ${status}, content-type ${type}; it begins ${excerpt(answer.body, secrets)})`, "answer", `is ${server} the cluster's API server? It answers, but not as one does. ${reachFix}`);
        }
        const shape = shapeProblem(parsed, list);
        if (shape) throw new KubeApiError(status, `${what}: the answer of ${server} is JSON of the wrong shape: ${shape}`, "answer", `is ${server} the cluster's API server? It answers, but not as one does. ${reachFix}`);
        return parsed as T;
    };
    return {
        server,
        context: ctx.name,
        user: ctx.user,
        connection,
        remaining,
        get: (path) => call("GET", path),
        async find(path) {
            try {
                return await call("GET", path);
            } catch (e) {
                if (isKubeApiError(e) && e.status === 404) return undefined;
                throw e;
            }
        },
        post: (path, body) => call("POST", path, body),
        delete: (path, body) => call("DELETE", path, body),
        mergePatch: (path, patch) => call("PATCH", path, patch, "application/merge-patch+json"),
    };
}

/** The message of a Status answer, else the status text and the start of the body; never a credential. */
function statusMessage(body: Buffer, statusText: string, secrets: readonly string[]): string {
    try {
        const message = (JSON.parse(body.toString("utf8")) as { message?: unknown }).message;
        if (typeof message === "string" && message.trim() !== "") {
            const one = redactKnown(message.replace(/\s+/g, " ").trim(), secrets);
            return one.length > 300 ? `${one.slice(0, 300)}…` : one;
        }
    } catch {
        // Not a Status object.
    }
    return `${statusText}${body.length ? ` (the answer begins ${excerpt(body, secrets)})` : ""}`;
}

/** What is wrong with the shape of an answer, or undefined: every answer is a JSON object, a list's `items` a list of objects with metadata. */
function shapeProblem(value: unknown, list: boolean): string | undefined {
    const kindOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "a list" : typeof v === "object" ? "an object" : `a ${typeof v}`);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return `expected an object, found ${kindOf(value)}`;
    if (!list) return undefined;
    const items = (value as { items?: unknown }).items;
    // Go writes an empty list as null.
    if (items === null || items === undefined) {
        (value as { items: unknown[] }).items = [];
        return undefined;
    }
    if (!Array.isArray(items)) return `expected "items" to be a list, found ${kindOf(items)}`;
    const bad = items.findIndex((i) => typeof i !== "object" || i === null || Array.isArray(i) || typeof (i as { metadata?: unknown }).metadata !== "object" || (i as { metadata?: unknown }).metadata === null);
    return bad >= 0 ? `item ${bad + 1} of "items" is not an object with metadata` : undefined;
}

/** A connection failure as a KubeApiError, with the advice its kind needs; a refused certificate is described by what it is. */
async function networkError(failure: NetworkFailure, url: URL, server: string, ctx: KubeContext, tls: ClusterTls, remaining: () => number, reachFix: string): Promise<KubeApiError> {
    // About the server, not the request: every request would fail the same way.
    const at = `cannot reach ${server}`;
    if (!failure.kind.startsWith("tls-")) {
        const fix =
            failure.kind === "refused"
                ? `nothing listens on ${hostPort(url)}: check that the cluster runs and the address and port in the kubeconfig (the API server listens on 6443 or 443): kubectl --context ${ctx.name} get --raw /version`
                : failure.kind === "dns"
                  ? `check the host name in the kubeconfig's server, and that your DNS (or VPN) can resolve it`
                  : reachFix;
        return new KubeApiError(0, `${at}: ${failure.words}`, "unreachable", fix);
    }
    const cert: PeerCertificateFacts | undefined = isCertificateFailure(failure.kind) ? await peerCertificate(url, tls.servername, Math.min(3000, remaining())) : undefined;
    const caSource = tls.ca ? `the kubeconfig's certificate authority (cluster "${ctx.cluster.name}")` : "the system's certificate authorities (the kubeconfig names none for this cluster)";
    const getCa = "put the cluster's CA certificate in the kubeconfig's certificate-authority-data: get the kubeconfig again from the cluster's tooling (k3s: /etc/rancher/k3s/k3s.yaml; kind: kind get kubeconfig; kubeadm: /etc/kubernetes/admin.conf; a cloud: its CLI's update-kubeconfig)";
    const facts = cert ? ` (subject ${cert.subject}, issued by ${cert.issuer}, valid ${cert.validFrom.toISOString().slice(0, 10)} to ${cert.validTo.toISOString().slice(0, 10)})` : "";
    let detail: string;
    let fix: string;
    switch (failure.kind) {
        case "tls-unknown-ca":
            detail = `the API server's certificate${facts} is not signed by ${caSource}`;
            fix = `${getCa}; if the API server's certificate was reissued by a new authority, that authority's certificate`;
            break;
        case "tls-self-signed":
            detail = `the API server presents a self-signed certificate${facts} that is not ${caSource}`;
            fix = `${getCa}. For a lab cluster only, insecure-skip-tls-verify: true in the cluster entry skips the check`;
            break;
        case "tls-expired":
            detail = `the API server's certificate expired${cert ? ` on ${cert.validTo.toISOString()}` : ""}${facts}`;
            fix = "renew the cluster's certificates (kubeadm: kubeadm certs renew all, then restart the control plane; k3s renews them when restarted within 90 days of expiry), or check this machine's clock";
            break;
        case "tls-not-yet-valid":
            detail = `the API server's certificate is not valid yet${cert ? ` (from ${cert.validFrom.toISOString()})` : ""}`;
            fix = "check this machine's clock (and the cluster's): timedatectl";
            break;
        case "tls-hostname":
            detail = `the API server's certificate is for ${cert?.altNames ?? "other names"}, not for ${url.hostname}`;
            fix = `use in the kubeconfig's server an address the certificate names, or set tls-server-name in the cluster entry to one of its names (or add ${url.hostname} to the API server's certificate: kubeadm's apiServer.certSANs, k3s's --tls-san)`;
            break;
        case "tls-client-certificate":
            detail = "the API server refused the client certificate";
            fix = "get a fresh kubeconfig: the client certificate may have expired, or belong to another cluster";
            break;
        case "tls-not-tls":
            detail = `${hostPort(url)} does not speak TLS: it may serve plain http:// or another protocol there`;
            fix = "check the port in the kubeconfig's server (the API server listens with TLS on 6443 or 443), and its scheme";
            break;
        default:
            detail = failure.words;
            fix = reachFix;
    }
    return new KubeApiError(0, `${at}: ${detail}${failure.code && !detail.includes(failure.code) ? ` (${failure.code})` : ""}`, "tls", fix);
}

/**
 * An agent through the kubeconfig's `proxy-url` (http, https or socks), made by `@kubernetes/client-node`, which
 * implements the three; requests through it keep their deadline and cap. `createAgent` is private in the library's
 * types, hence the cast: it is what the library's own requests use.
 */
function proxyAgent(ctx: KubeContext, tls: ClusterTls, credentials: ResolvedCredentials): http.Agent {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const k8s = require("@kubernetes/client-node") as typeof import("@kubernetes/client-node");
    const kc = new k8s.KubeConfig();
    const c = ctx.cluster;
    kc.loadFromOptions({
        clusters: [{ name: c.name, server: c.server, skipTLSVerify: c.skipTLSVerify, proxyUrl: c.proxyUrl }],
        users: [{ name: "proxy" }],
        contexts: [{ name: "proxy", cluster: c.name, user: "proxy" }],
        currentContext: "proxy",
    });
    const agentOptions = { ca: tls.ca, cert: credentials.cert, key: credentials.key, rejectUnauthorized: tls.rejectUnauthorized, servername: tls.servername };
    return (kc as unknown as { createAgent(cluster: unknown, options: unknown): http.Agent }).createAgent(kc.getCurrentCluster(), agentOptions);
}

/** Runs `fn` over `items`, at most `limit` at a time, keeping the order of the results. */
export async function inBatches<I, O>(items: readonly I[], limit: number, fn: (item: I) => Promise<O>): Promise<O[]> {
    const out: O[] = new Array(items.length);
    let next = 0;
    const worker = async () => {
        while (next < items.length) {
            const i = next++;
            out[i] = await fn(items[i]!);
        }
    };
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
    return out;
}
