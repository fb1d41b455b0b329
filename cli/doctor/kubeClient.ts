/**
 * The doctor's connection to a cluster: JSON over HTTPS, authenticated from a kubeconfig exactly as kubectl would
 * (bearer token, token file, client certificate, exec plugin), through `@kubernetes/client-node`'s own handling of
 * the kubeconfig. The checks need a few dozen reads and access reviews, each bounded by a short timeout, so a slow
 * or absent cluster is reported in seconds rather than after a TCP timeout.
 */
import * as https from "https";
import type { KubeConfig, User } from "@kubernetes/client-node";

/** An answer of 400 or more, or no answer at all (`status` 0). */
export class KubeApiError extends Error {
    constructor(
        readonly status: number,
        message: string,
    ) {
        super(message);
        this.name = "KubeApiError";
    }
}

/** What the checks call. */
export interface KubeClient {
    /** The API server's address, as the kubeconfig names it. */
    readonly server: string;
    /** The context in use. */
    readonly context: string;
    /** The kubeconfig's entry for the user (credentials), for the expiry check. */
    readonly user: User | null;
    get<T = any>(path: string): Promise<T>;
    /** GET that answers undefined for 404 (a kind the cluster does not serve, an object that does not exist). */
    find<T = any>(path: string): Promise<T | undefined>;
    post<T = any>(path: string, body: unknown): Promise<T>;
}

/** How long one request may take. */
export const REQUEST_TIMEOUT_MS = 8000;

/**
 * Loads the kubeconfig and selects the context.
 *
 * @throws Error naming the context when it does not exist, or when the kubeconfig has no cluster for it.
 */
export function kubeConfigFrom(text: string, context?: string): KubeConfig {
    // Loaded here, not at the top: `mara --help` must not pay for the client.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const k8s = require("@kubernetes/client-node") as typeof import("@kubernetes/client-node");
    const kc = new k8s.KubeConfig();
    kc.loadFromString(text);
    if (context) {
        if (!kc.getContextObject(context)) throw new Error(`the kubeconfig has no context "${context}" (it has: ${kc.getContexts().map((c) => c.name).join(", ") || "none"})`);
        kc.setCurrentContext(context);
    }
    if (!kc.getCurrentCluster()?.server) throw new Error(`the kubeconfig's context "${kc.getCurrentContext()}" names no cluster with a server address`);
    return kc;
}

/** A client for the kubeconfig's current context. */
export function kubeClient(kc: KubeConfig, timeoutMs = REQUEST_TIMEOUT_MS): KubeClient {
    const server = kc.getCurrentCluster()!.server.replace(/\/+$/, "");
    const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
        const opts: https.RequestOptions = { method, headers: { accept: "application/json" } };
        await kc.applyToHTTPSOptions(opts);
        const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
        if (data) opts.headers = { ...opts.headers, "content-type": "application/json", "content-length": data.length };
        const url = new URL(server + path);
        return new Promise<T>((resolve, reject) => {
            const req = https.request(url, { ...opts, timeout: timeoutMs }, (res) => {
                const chunks: Buffer[] = [];
                res.on("data", (c: Buffer) => chunks.push(c));
                res.on("end", () => {
                    const text = Buffer.concat(chunks).toString("utf8");
                    const status = res.statusCode ?? 0;
                    if (status >= 400) {
                        let message = text.trim() || res.statusMessage || "";
                        try {
                            message = (JSON.parse(text) as { message?: string }).message ?? message;
                        } catch {
                            // not a Status object
                        }
                        reject(new KubeApiError(status, `${method} ${path}: ${status} ${message}`.trim()));
                        return;
                    }
                    try {
                        resolve((text ? JSON.parse(text) : undefined) as T);
                    } catch {
                        resolve(text as T);
                    }
                });
            });
            req.on("timeout", () => req.destroy(new KubeApiError(0, `no answer from ${server} within ${timeoutMs / 1000} s`)));
            req.on("error", (e: NodeJS.ErrnoException) => reject(e instanceof KubeApiError ? e : new KubeApiError(0, `cannot reach ${server}: ${e.code ? `${e.message.replace(/^.*?: /, "")}` : e.message}`)));
            if (data) req.write(data);
            req.end();
        });
    };
    return {
        server,
        context: kc.getCurrentContext(),
        user: kc.getCurrentUser(),
        get: (path) => call("GET", path),
        async find(path) {
            try {
                return await call("GET", path);
            } catch (e) {
                if (e instanceof KubeApiError && e.status === 404) return undefined;
                throw e;
            }
        },
        post: (path, body) => call("POST", path, body),
    };
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
