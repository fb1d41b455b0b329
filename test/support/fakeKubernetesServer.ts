/** Serves a {@link FakeKubernetes} over HTTP, so the official Kubernetes client talks to it as to an API server. */
import * as http from "http";
import type { AddressInfo } from "net";
import type { FakeKubernetes } from "./fakeClouds";

/** A running fake API server and a kubeconfig that reaches it. */
export interface FakeApiServer {
    readonly url: string;
    readonly kubeconfig: string;
    close(): Promise<void>;
}

/** Starts an HTTP server on a free local port answering with `k8s`. */
export async function serveKubernetes(k8s: FakeKubernetes): Promise<FakeApiServer> {
    const server = http.createServer((req, res) => {
        let body = "";
        req.on("data", (c: Buffer) => (body += c.toString()));
        req.on("end", () => {
            const r = k8s.handle(req.method ?? "GET", req.url ?? "/", body);
            res.writeHead(r.status, { "content-type": "application/json" });
            res.end(JSON.stringify(r.body));
        });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const kubeconfig = JSON.stringify({
        apiVersion: "v1",
        kind: "Config",
        clusters: [{ name: "fake", cluster: { server: url, "insecure-skip-tls-verify": true } }],
        users: [{ name: "admin", user: { token: "fake-token" } }],
        contexts: [{ name: "fake", context: { cluster: "fake", user: "admin" } }],
        "current-context": "fake",
    });
    return { url, kubeconfig, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
