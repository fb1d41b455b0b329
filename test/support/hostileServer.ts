/**
 * A server on the loopback address that answers as a broken or hostile one would, per request: silence, an answer
 * dripped one byte at a time for ever, a body without end (or a Content-Length that promises one), text that is not
 * JSON, JSON of the wrong shape, any status, a redirect to itself for ever, or a connection closed at once. Plain HTTP,
 * or TLS with a certificate made in the test (testCertificates.ts). Everything it starts — timers, connections — ends
 * with `close()`, so a test that uses it has a bounded lifetime whatever the command under test does.
 */
import * as http from "http";
import * as https from "https";
import type { AddressInfo, Socket } from "net";

/** How to answer one request. */
export type Behaviour =
    /** A JSON answer, after `delayMs` when given. */
    | { readonly kind: "json"; readonly status?: number; readonly body: unknown; readonly headers?: Record<string, string>; readonly delayMs?: number }
    | { readonly kind: "text"; readonly status?: number; readonly body: string; readonly contentType?: string }
    /** Read the request, never answer. */
    | { readonly kind: "silent" }
    /** Status and headers at once, then one byte of a JSON-looking body every `intervalMs`, for ever. */
    | { readonly kind: "drip"; readonly intervalMs?: number }
    /** An endless body in 64 KiB chunks; `declared`: a Content-Length of 1 GiB, then silence. */
    | { readonly kind: "huge"; readonly declared?: boolean }
    /** A 302 to a new URL on this server, every time. */
    | { readonly kind: "redirectLoop" }
    /** Close the connection without a word. */
    | { readonly kind: "hangUp" };

/** A running server. */
export interface HostileServer {
    readonly url: string;
    readonly port: number;
    /** Every request's method and path, in order. */
    readonly requests: string[];
    close(): Promise<void>;
}

/** Starts a server answering each request as `route` says; with `tls`, over HTTPS with that certificate. */
export async function hostileServer(route: (method: string, path: string, headers: http.IncomingHttpHeaders) => Behaviour, tls?: { readonly cert: string; readonly key: string }): Promise<HostileServer> {
    const timers = new Set<NodeJS.Timeout>();
    const sockets = new Set<Socket>();
    const requests: string[] = [];
    const handler: http.RequestListener = (req, res) => {
        const path = req.url ?? "/";
        requests.push(`${req.method} ${path}`);
        req.resume();
        req.on("end", () => {
            const b = route(req.method ?? "GET", path, req.headers);
            switch (b.kind) {
                case "json": {
                    const answer = () => {
                        res.writeHead(b.status ?? 200, { "content-type": "application/json", ...(b.headers ?? {}) });
                        res.end(JSON.stringify(b.body));
                    };
                    if (!b.delayMs) return answer();
                    const timer = setTimeout(() => {
                        timers.delete(timer);
                        if (!res.destroyed) answer();
                    }, b.delayMs);
                    timers.add(timer);
                    return;
                }
                case "text":
                    res.writeHead(b.status ?? 200, { "content-type": b.contentType ?? "text/html" });
                    res.end(b.body);
                    return;
                case "silent":
                    return;
                case "drip": {
                    res.writeHead(200, { "content-type": "application/json" });
                    res.write("{");
                    const timer = setInterval(() => res.write(" "), b.intervalMs ?? 1000);
                    timers.add(timer);
                    res.on("close", () => {
                        clearInterval(timer);
                        timers.delete(timer);
                    });
                    return;
                }
                case "huge": {
                    res.writeHead(200, { "content-type": "application/json", ...(b.declared ? { "content-length": String(1024 ** 3) } : {}) });
                    res.write(`{"gitVersion":"${"v".repeat(1000)}`);
                    if (b.declared) return;
                    const chunk = Buffer.alloc(64 * 1024, 0x61);
                    const timer = setInterval(() => res.write(chunk), 1);
                    timers.add(timer);
                    res.on("close", () => {
                        clearInterval(timer);
                        timers.delete(timer);
                    });
                    return;
                }
                case "redirectLoop":
                    res.writeHead(302, { location: `/again/${requests.length}` });
                    res.end();
                    return;
                case "hangUp":
                    req.socket.destroy();
                    return;
            }
        });
    };
    const server = tls ? https.createServer({ cert: tls.cert, key: tls.key }, handler) : http.createServer(handler);
    server.on("connection", (s: Socket) => {
        sockets.add(s);
        s.on("close", () => sockets.delete(s));
    });
    // A TLS client that gives up on the certificate makes the server's handshake fail: expected here.
    server.on("tlsClientError", () => undefined);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    return {
        url: `${tls ? "https" : "http"}://127.0.0.1:${port}`,
        port,
        requests,
        close: () =>
            new Promise<void>((resolve) => {
                timers.forEach((t) => clearTimeout(t));
                timers.clear();
                sockets.forEach((s) => s.destroy());
                server.close(() => resolve());
            }),
    };
}

/** A loopback port that was free a moment ago: connecting to it is refused. */
export async function closedPort(): Promise<number> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
}

/** The answers of a healthy, empty Kubernetes API server for what the doctor asks: the base the hostile cases vary. */
export function kubernetesAnswer(method: string, path: string): Behaviour {
    if (path === "/version") return { kind: "json", body: { major: "1", minor: "35", gitVersion: "v1.35.4" } };
    if (method === "POST" && path.includes("selfsubjectaccessreviews")) return { kind: "json", status: 201, body: { kind: "SelfSubjectAccessReview", status: { allowed: true } } };
    if (method === "POST" && path.includes("selfsubjectreviews")) return { kind: "json", status: 201, body: { kind: "SelfSubjectReview", status: { userInfo: { username: "admin" } } } };
    if (path.startsWith("/api/v1/nodes")) {
        return { kind: "json", body: { kind: "NodeList", items: [{ metadata: { name: "node-1" }, status: { allocatable: { cpu: "16", memory: "64Gi" }, addresses: [{ type: "InternalIP", address: "192.168.50.11" }] } }] } };
    }
    if (path.startsWith("/apis/storage.k8s.io/v1/storageclasses")) {
        return { kind: "json", body: { items: [{ metadata: { name: "standard", annotations: { "storageclass.kubernetes.io/is-default-class": "true" } }, provisioner: "x" }] } };
    }
    if (/\/[a-z]+$/.test(path.split("?")[0]!) && !/\/namespaces\/[^/]+$/.test(path)) return { kind: "json", body: { items: [] } };
    return { kind: "json", status: 404, body: { kind: "Status", status: "Failure", reason: "NotFound", message: "not found", code: 404 } };
}
