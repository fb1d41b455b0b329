/**
 * The HTTP side of `mara outdated`: Node's fetch with a timeout per request, a size limit, errors that
 * name the URL and what failed, and optional endpoint overrides.
 *
 * Overrides come from one environment variable, {@link ENDPOINTS_VARIABLE}, rather than a command-line
 * option: they are for pointing a registry or Helm repository host at a mirror (or, in this project's
 * tests, at a server on the loopback address), which is a property of the network the command runs in,
 * not of one run. Because the CLI receives its environment through `CliIo.env`, tests set it in-process
 * without touching `process.env`.
 */

import { hostPortProblem, urlProblem } from "../../contracts/names";
import { classifyNetworkError } from "../net/failure";

/** `host=base-url` pairs, comma-separated, e.g. `ghcr.io=https://ghcr-mirror.example.com`. */
export const ENDPOINTS_VARIABLE = "MARA_OUTDATED_ENDPOINTS";

/** How requests are made. */
export interface HttpSettings {
    /** Milliseconds one request (including reading its body) may take. */
    readonly timeoutMs: number;
    /** Host (as in the URL, `name[:port]`, or an image's registry name) → base URL that replaces scheme and host. */
    readonly endpoints: ReadonlyMap<string, string>;
    /** Largest body read, in bytes. */
    readonly maxBytes: number;
    /** A time (ms since the epoch) after which no request runs and those running end: the command's own bound. */
    readonly deadline?: number;
}

/** Redirects fetch follows before it gives up (the Fetch standard's limit, which undici keeps). */
export const MAX_REDIRECTS = 20;

/** The default largest body: big Helm repository indexes reach tens of megabytes. */
export const DEFAULT_MAX_BYTES = 128 * 1024 * 1024;

/** A failed request: which URL, and what went wrong, in words. */
export class SourceError extends Error {
    constructor(
        /** The URL requested (after any endpoint override). */
        public readonly url: string,
        message: string,
    ) {
        super(message);
        this.name = "SourceError";
    }
}

/** A malformed {@link ENDPOINTS_VARIABLE}: a usage error, reported before any request. */
export class EndpointsError extends Error {
    constructor(message: string) {
        super(message);
        this.name = "EndpointsError";
    }
}

/**
 * Reads {@link ENDPOINTS_VARIABLE}.
 *
 * @throws EndpointsError naming the variable and the entry when an entry is not `host=http(s)://…`.
 */
export function parseEndpoints(value: string | undefined): Map<string, string> {
    const map = new Map<string, string>();
    for (const entry of (value ?? "").split(",").map((e) => e.trim()).filter((e) => e !== "")) {
        const eq = entry.indexOf("=");
        const host = eq > 0 ? entry.slice(0, eq).trim().toLowerCase() : "";
        const base = eq > 0 ? entry.slice(eq + 1).trim() : "";
        // The same rules as a registry server and a chart repository in the configuration.
        const why = eq <= 0 ? "has no '='" : hostPortProblem(host) ? `has a host that ${hostPortProblem(host)}` : urlProblem(base, ["http", "https"]) ? `has a base URL that ${urlProblem(base, ["http", "https"])}` : undefined;
        if (why) {
            throw new EndpointsError(
                `${ENDPOINTS_VARIABLE} entry "${entry}" is not host=base-url: it ${why}; write e.g. ${ENDPOINTS_VARIABLE}=ghcr.io=https://ghcr-mirror.example.com,helm.nginx.com=https://mirror.example.com/nginx`,
            );
        }
        map.set(host, base.replace(/\/+$/, ""));
    }
    return map;
}

/** The URL actually requested: an override for the URL's host replaces its scheme and host, and prefixes its path. */
export function rewriteUrl(url: string, endpoints: ReadonlyMap<string, string>): string {
    const u = new URL(url);
    const base = endpoints.get(u.host.toLowerCase());
    return base === undefined ? url : `${base}${u.pathname}${u.search}`;
}

/** An HTTP answer with its body read. */
export interface HttpAnswer {
    /** The URL that answered: after overrides and redirects. */
    readonly url: string;
    readonly status: number;
    readonly statusText: string;
    readonly headers: Headers;
    readonly body: string;
}

/**
 * GETs a URL (after overrides) and reads the body, within the timeout and size limit. Any HTTP status
 * is returned; callers decide which ones are failures.
 *
 * @throws SourceError for network failures, timeouts and oversized bodies.
 */
export async function httpGet(url: string, settings: HttpSettings, headers: Record<string, string> = {}): Promise<HttpAnswer> {
    const target = rewriteUrl(url, settings.endpoints);
    const left = settings.deadline === undefined ? Infinity : settings.deadline - Date.now();
    if (left <= 0) throw new SourceError(target, BOUND_RAN_OUT);
    // The signal ends the whole request, the body's last byte included: a server that dribbles cannot stretch it.
    const ms = Math.min(settings.timeoutMs, left);
    // Refusing an answer also ends its connection: a body left unread keeps the socket, and so the command, alive
    // until the timeout, long after the answer was refused.
    const refused = new AbortController();
    try {
        const res = await fetch(target, {
            headers: { "user-agent": "mara-outdated", ...headers },
            redirect: "follow",
            signal: AbortSignal.any([refused.signal, AbortSignal.timeout(ms)]),
        });
        const body = await readCapped(res, target, settings.maxBytes);
        return { url: res.url || target, status: res.status, statusText: res.statusText, headers: res.headers, body };
    } catch (err) {
        refused.abort();
        if (err instanceof SourceError) throw err;
        if (ms < settings.timeoutMs && isTimeout(err)) throw new SourceError(target, BOUND_RAN_OUT);
        throw new SourceError(target, describeNetworkError(err, settings.timeoutMs, target));
    }
}

/** The whole command ends within this many times `--timeout`. */
export const RUN_BOUND_FACTOR = 4;

/** Said of a source still unread when the command's own bound runs out. */
export const BOUND_RAN_OUT = `the command's time bound (${RUN_BOUND_FACTOR} times --timeout) ran out before this source answered`;

function isTimeout(err: unknown): boolean {
    const e = err as { name?: string; cause?: { name?: string } };
    return e?.name === "TimeoutError" || e?.cause?.name === "TimeoutError";
}

/** A status that is not the expected one, as an error naming it. */
export function statusError(answer: HttpAnswer, what: string): SourceError {
    return new SourceError(answer.url, `${what}: HTTP ${answer.status}${answer.statusText ? ` ${answer.statusText}` : ""}`);
}

async function readCapped(res: Response, url: string, max: number): Promise<string> {
    const declared = Number(res.headers.get("content-length") ?? "0");
    if (declared > max) throw tooLarge(url, max);
    if (!res.body) return "";
    const chunks: Uint8Array[] = [];
    let total = 0;
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        total += chunk.byteLength;
        if (total > max) throw tooLarge(url, max);
        chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString("utf8");
}

function tooLarge(url: string, max: number): SourceError {
    const limit = max >= 1024 * 1024 ? `${Math.round(max / 1024 / 1024)} MiB` : `${max} bytes`;
    return new SourceError(url, `the answer is larger than ${limit}, more than this command reads`);
}

/**
 * Words for what fetch threw: a timeout, a redirect loop, or the system or TLS error under undici's "fetch failed"
 * (never undici's own text).
 *
 * @param url - the URL requested, for the words of a TLS failure.
 */
export function describeNetworkError(err: unknown, timeoutMs: number, url?: string): string {
    const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string; name?: string } };
    if (isTimeout(err)) return `no answer within ${timeoutMs / 1000} s (raise it with --timeout)`;
    if (/redirect count exceeded/i.test(e?.cause?.message ?? "")) return `more than ${MAX_REDIRECTS} redirects, one after another (a redirect loop?); not followed further`;
    const code = e?.cause?.code;
    const known: Record<string, string> = {
        ECONNREFUSED: "connection refused",
        ENOTFOUND: "host not found",
        EAI_AGAIN: "host name lookup failed",
        ECONNRESET: "connection reset",
        ETIMEDOUT: "connection timed out",
        EHOSTUNREACH: "host unreachable",
        ENETUNREACH: "network unreachable",
        UND_ERR_CONNECT_TIMEOUT: "connection timed out",
        UND_ERR_SOCKET: "connection closed",
    };
    if (code && known[code]) return `${known[code]} (${code})`;
    if (url) {
        const failure = classifyNetworkError(err, new URL(url));
        const proxyCa = failure.kind === "tls-unknown-ca" || failure.kind === "tls-self-signed" ? "; behind a proxy that inspects TLS, give Node.js its certificate authority: NODE_EXTRA_CA_CERTS=<ca.pem>" : "";
        if (failure.kind !== "other") return `${failure.words}${proxyCa}`;
    }
    return code ? `the request failed (${code})` : "the request failed, with no reason given by the network layer";
}
