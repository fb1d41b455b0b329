/**
 * A minimal client for the test cluster's API server: JSON over HTTPS with the cluster's CA and a bearer token.
 * The tier's stand-in controllers and assertions need a handful of calls; this keeps them free of a client
 * library's typed surface and shows exactly what is sent.
 */
import * as https from "https";

/** Where the API server is and how to authenticate to it. */
export interface ApiEndpoint {
    /** https://127.0.0.1:<port> */
    readonly server: string;
    /** PEM of the CA that signed the server's certificate. */
    readonly ca: string;
    /** Bearer token. */
    readonly token: string;
}

/** An API error with its HTTP status, so callers can treat 404 and 409 as the states they mean. */
export class ApiError extends Error {
    constructor(
        readonly status: number,
        message: string,
    ) {
        super(message);
        this.name = "ApiError";
    }
}

/** One request; resolves to the parsed JSON body, rejects with {@link ApiError} for any status of 400 or more. */
export async function request<T = any>(ep: ApiEndpoint, method: string, path: string, body?: unknown, contentType = "application/json"): Promise<T> {
    return (await send<T>(ep, method, path, body, contentType)).body;
}

/** One request, with the `Warning` headers of the answer (admission policies in Warn mode speak through them). */
export function send<T = any>(ep: ApiEndpoint, method: string, path: string, body?: unknown, contentType = "application/json"): Promise<{ body: T; warnings: string[] }> {
    const url = new URL(path, ep.server);
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise<{ body: T; warnings: string[] }>((resolve, reject) => {
        const req = https.request(
            url,
            {
                method,
                ca: ep.ca,
                headers: {
                    authorization: `Bearer ${ep.token}`,
                    accept: "application/json",
                    ...(data ? { "content-type": contentType, "content-length": data.length } : {}),
                },
                timeout: 30_000,
            },
            (res) => {
                const chunks: Buffer[] = [];
                res.on("data", (c: Buffer) => chunks.push(c));
                res.on("end", () => {
                    const text = Buffer.concat(chunks).toString("utf8");
                    if ((res.statusCode ?? 0) >= 400) {
                        let message = text;
                        try {
                            message = JSON.parse(text).message ?? text;
                        } catch {
                            /* not JSON */
                        }
                        reject(new ApiError(res.statusCode!, `${method} ${path}: ${res.statusCode} ${message}`));
                        return;
                    }
                    const raw = res.headers.warning;
                    const warnings = (Array.isArray(raw) ? raw : raw ? [raw] : []).map(String);
                    try {
                        resolve({ body: (text ? JSON.parse(text) : undefined) as T, warnings });
                    } catch {
                        resolve({ body: text as unknown as T, warnings });
                    }
                });
            },
        );
        req.on("timeout", () => req.destroy(new Error(`${method} ${path}: no answer in 30 s`)));
        req.on("error", reject);
        if (data) req.write(data);
        req.end();
    });
}

/** GET that answers undefined for 404. */
export async function getOrUndefined<T = any>(ep: ApiEndpoint, path: string): Promise<T | undefined> {
    try {
        return await request<T>(ep, "GET", path);
    } catch (e) {
        if (e instanceof ApiError && e.status === 404) return undefined;
        throw e;
    }
}

/** A JSON merge patch. */
export const mergePatch = <T = any>(ep: ApiEndpoint, path: string, patch: unknown) => request<T>(ep, "PATCH", path, patch, "application/merge-patch+json");

/** Polls `check` every `intervalMs` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000, intervalMs = 250): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let last: unknown;
    for (;;) {
        try {
            const v = await check();
            if (v !== undefined) return v;
        } catch (e) {
            last = e;
        }
        if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? `: ${(last as Error).message}` : ""}`);
        await new Promise((r) => setTimeout(r, intervalMs));
    }
}
