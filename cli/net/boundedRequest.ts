/**
 * One HTTP(S) request with a total deadline and a byte cap: the deadline runs from before the connection is opened to
 * the answer's last byte, so a server that answers one byte a second cannot keep it going (a socket timeout counts
 * only silence, and would let it); the cap ends the connection as soon as the answer grows past it (or as soon as
 * its Content-Length says it will), so a huge answer is never held in memory. Failures are told apart: the deadline,
 * the cap, and each kind of connection failure (failure.ts).
 */
import type * as http from "http";
import type * as https from "https";
import { classifyNetworkError, NetworkFailure } from "./failure";

/** What one request may take. */
export interface RequestLimits {
    /** Milliseconds from the start to the answer's last byte. */
    readonly deadlineMs: number;
    /** Largest answer body read, in bytes. */
    readonly maxBytes: number;
    /** Past the cap: fail (the default), or end the answer there and keep what was read (a status check needs no more). */
    readonly overflow?: "fail" | "truncate";
}

/** The request. */
export interface RequestSpec {
    readonly url: URL;
    readonly method: string;
    readonly headers?: http.OutgoingHttpHeaders;
    readonly body?: Buffer | string;
    /** TLS settings for https: URLs (ca, cert, key, rejectUnauthorized, servername). */
    readonly tls?: Pick<https.RequestOptions, "ca" | "cert" | "key" | "rejectUnauthorized" | "servername">;
    /** An agent (a proxy's), else a connection of its own that ends with the answer. */
    readonly agent?: http.Agent;
}

/** An answer, read whole (or up to the cap, with `overflow: "truncate"`). */
export interface BoundedAnswer {
    readonly status: number;
    readonly statusText: string;
    readonly headers: http.IncomingHttpHeaders;
    readonly body: Buffer;
    /** True when the body was cut at the cap. */
    readonly truncated: boolean;
}

/** Why a request produced no answer. */
export class RequestFailure extends Error {
    constructor(
        /** `timeout`: the deadline passed; `too-large`: the answer is over the cap; `network`: the connection failed. */
        readonly kind: "timeout" | "too-large" | "network",
        message: string,
        /** For `network`: what failed, classified. */
        readonly network?: NetworkFailure,
        /** The error Node raised, for `network` (its code and, for TLS, its certificate). */
        readonly raw?: unknown,
    ) {
        super(message);
        this.name = "RequestFailure";
    }
}

/** A byte count in words: `4 MiB`, `512 KiB`, `100 bytes`. */
export function bytesInWords(n: number): string {
    if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / 1024 / 1024} MiB`;
    if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
    return `${n} bytes`;
}

/** Seconds in words: `8 s`, `0.5 s`. */
export const secondsInWords = (ms: number): string => `${Number((ms / 1000).toFixed(3))} s`;

/**
 * Sends the request and reads the answer within the limits.
 *
 * @throws RequestFailure when there is no complete answer.
 */
export function boundedRequest(spec: RequestSpec, limits: RequestLimits): Promise<BoundedAnswer> {
    return new Promise((resolve, reject) => {
        let settled = false;
        const chunks: Buffer[] = [];
        let size = 0;
        // Loaded here rather than at the top: `mara --help` loads modules that import this one, and must not load
        // Node's HTTP and TLS stacks for nothing.
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const transport: typeof http | typeof https = spec.url.protocol === "https:" ? require("https") : require("http");
        const options: https.RequestOptions = { method: spec.method, headers: spec.headers ?? {}, agent: spec.agent ?? false, ...(spec.url.protocol === "https:" ? spec.tls ?? {} : {}) };
        let req: http.ClientRequest;
        try {
            req = transport.request(spec.url, options, onResponse);
        } catch (e) {
            // Refused before anything is sent: a header HTTP does not allow (a token with a line break), a bad option.
            const code = (e as { code?: unknown }).code;
            const failure = { kind: "other" as const, code: typeof code === "string" ? code : undefined, words: code === "ERR_INVALID_CHAR" || code === "ERR_INVALID_HTTP_TOKEN" ? "a request header (the credentials?) holds characters HTTP does not allow, so nothing was sent" : `the request could not be made${typeof code === "string" ? ` (${code})` : ""}` };
            reject(new RequestFailure("network", failure.words, failure, e));
            return;
        }
        function onResponse(res: http.IncomingMessage): void {
            const answer = (truncated: boolean) => ({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", headers: res.headers, body: Buffer.concat(chunks), truncated });
            const declared = Number(res.headers["content-length"] ?? "0");
            if (declared > limits.maxBytes && limits.overflow !== "truncate") {
                fail(tooLarge());
                return;
            }
            res.on("data", (chunk: Buffer) => {
                if (settled) return;
                const room = limits.maxBytes - size;
                if (chunk.length > room) {
                    if (limits.overflow !== "truncate") return fail(tooLarge());
                    chunks.push(chunk.subarray(0, room));
                    size = limits.maxBytes;
                    settle();
                    req.destroy();
                    return resolve(answer(true));
                }
                chunks.push(chunk);
                size += chunk.length;
            });
            res.on("end", () => {
                if (settled) return;
                settle();
                resolve(answer(false));
            });
            res.on("error", (e) => fail(networkFailure(e)));
            res.on("aborted", () => fail(networkFailure(Object.assign(new Error("aborted"), { code: "ECONNRESET" }))));
        }
        const timer = setTimeout(() => fail(new RequestFailure("timeout", `no complete answer within ${secondsInWords(limits.deadlineMs)}`)), Math.max(0, limits.deadlineMs));
        function settle(): void {
            settled = true;
            clearTimeout(timer);
        }
        function tooLarge(): RequestFailure {
            return new RequestFailure("too-large", `the answer is larger than ${bytesInWords(limits.maxBytes)}, more than is read`);
        }
        function networkFailure(e: unknown): RequestFailure {
            const failure = classifyNetworkError(e, spec.url);
            return new RequestFailure("network", failure.words, failure, e);
        }
        function fail(failure: RequestFailure): void {
            if (settled) return;
            settle();
            // Ending the request ends its connection: an answer that is refused or late must not keep the process alive.
            req.destroy();
            reject(failure);
        }
        req.on("error", (e) => fail(networkFailure(e)));
        req.end(spec.body);
    });
}
