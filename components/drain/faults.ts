/**
 * How the drain reads an error from a cloud API: a transient fault that a later attempt may get past
 * (throttling, a 5xx, a dropped connection), an answer that the thing is already gone (which, for a
 * delete or a look-up, is success), or anything else, which no retry can fix (bad credentials, a
 * refused permission, a bug). The clients throw what their SDK throws; this module knows their shapes:
 * the AWS SDK v3's (`name`, `$metadata.httpStatusCode`, `$retryable`), axios' under @linode/api-v4
 * (`response.status`, `response.headers`), `fetch`'s (`cause.code`) and the DigitalOcean client's
 * ({@link HttpStatusError}).
 */

/** What an error means to the drain. */
export type FaultKind = "transient" | "gone" | "fatal";

/** An HTTP answer that was not a success, as the DigitalOcean client reports it. */
export class HttpStatusError extends Error {
    /**
     * @param message what was asked and what came back, for the log
     * @param status the HTTP status code
     * @param retryAfterMs how long the API asked to wait (its `Retry-After` header), when it did
     */
    constructor(
        message: string,
        readonly status: number,
        readonly retryAfterMs?: number,
    ) {
        super(message);
        this.name = "HttpStatusError";
    }
}

// AWS error codes that mean "too many requests" or "try again": the SDK's own list of throttling and
// transient codes (its retry middleware already retried them; the drain retries again within its deadline).
const AWS_TRANSIENT = new Set([
    "Throttling",
    "ThrottlingException",
    "ThrottledException",
    "RequestThrottledException",
    "RequestThrottled",
    "TooManyRequestsException",
    "RequestLimitExceeded",
    "BandwidthLimitExceeded",
    "SlowDown",
    "PriorRequestNotComplete",
    "EC2ThrottledException",
    "RequestTimeout",
    "RequestTimeoutException",
    "InternalError",
    "InternalFailure",
    "ServiceUnavailable",
    "ServiceUnavailableException",
    "Unavailable",
    "TimeoutError",
]);

// Codes of a connection that failed or dropped: Node's sockets and undici's (fetch's) errors.
const NETWORK_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "ECONNABORTED", "ETIMEDOUT", "EPIPE", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

type ErrorShape = {
    name?: string;
    code?: string;
    Code?: string;
    status?: number;
    $fault?: string;
    $retryable?: unknown;
    $metadata?: { httpStatusCode?: number };
    $response?: { headers?: Record<string, string | undefined> };
    response?: { status?: number; headers?: Record<string, unknown> };
    cause?: { code?: string };
};

/** The HTTP status an error carries, whatever client raised it. */
export function statusOf(e: unknown): number | undefined {
    const x = (e ?? {}) as ErrorShape;
    return x.$metadata?.httpStatusCode ?? x.response?.status ?? (typeof x.status === "number" ? x.status : undefined);
}

/** The error's code: the AWS error code (an SDK error's name), or a socket's. */
function codeOf(e: unknown): string {
    const x = (e ?? {}) as ErrorShape;
    const aws = x.$metadata !== undefined ? (x.Code ?? x.name) : undefined;
    return aws ?? (x.code && NETWORK_CODES.has(x.code) ? x.code : undefined) ?? x.cause?.code ?? "";
}

/** What an error from a cloud call means. */
export function classify(e: unknown): FaultKind {
    const x = (e ?? {}) as ErrorShape;
    const code = x.Code ?? x.name ?? "";
    const status = statusOf(e);
    // A look-up or delete of something no longer there: "InvalidVolume.NotFound", "LoadBalancerNotFound",
    // the SDK's "AccessPointNotFoundException" and "LoadBalancerNotFoundException", an HTTP 404.
    if (status === 404 || /NotFound(Exception)?$/.test(code)) return "gone";
    if (AWS_TRANSIENT.has(code) || x.$retryable !== undefined || x.$fault === "server") return "transient";
    if (status === 429 || status === 408 || (status !== undefined && status >= 500)) return "transient";
    if (NETWORK_CODES.has(x.code ?? "") || NETWORK_CODES.has(x.cause?.code ?? "")) return "transient";
    return "fatal";
}

/** How long the API asked the caller to wait before the next request (`Retry-After`), in ms, when it did. */
export function retryAfterMs(e: unknown, now: number = Date.now()): number | undefined {
    const x = (e ?? {}) as ErrorShape & { retryAfterMs?: number };
    if (typeof x.retryAfterMs === "number") return x.retryAfterMs;
    const header = x.response?.headers?.["retry-after"] ?? x.$response?.headers?.["retry-after"];
    return typeof header === "string" ? parseRetryAfter(header, now) : undefined;
}

/** A `Retry-After` value (RFC 9110 §10.2.3: delay in seconds, or an HTTP date) in ms from `now`. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
    if (!value) return undefined;
    const trimmed = value.trim();
    if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
    const at = Date.parse(trimmed);
    return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Why an error happened, in one line for the log: an SDK error's code and message, the reasons a Linode error gives. */
export function describeError(e: unknown): string {
    const code = codeOf(e);
    const message = (e as Error | undefined)?.message ?? String(e);
    const reasons = ((e as { response?: { data?: { errors?: { reason?: string }[] } } } | undefined)?.response?.data?.errors ?? []).map((r) => r.reason).filter(Boolean);
    return `${code && !message.includes(code) ? `${code}: ` : ""}${message}${reasons.length ? ` (${reasons.join("; ")})` : ""}`;
}

/** Calls `call`; an error that says the resource is already gone counts as success. */
export async function unlessGone(call: () => Promise<unknown>): Promise<void> {
    try {
        await call();
    } catch (e) {
        if (classify(e) !== "gone") throw e;
    }
}
