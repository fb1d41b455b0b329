/**
 * The ownership guard's reads of a cluster (components/ownership/clusterReader.ts) against hostile API servers on
 * loopback, each with a bounded lifetime: a server that answers a byte at a time, one that never answers, a huge
 * answer, answers that are not JSON or not Kubernetes objects, every refusal status, a redirect, a closed port, an
 * endless list, an exec credential plugin that never exits or prints garbage, and kubeconfigs that are not. Every
 * case ends within the check's total deadline (asserted against a bound far above it, so a loaded machine passes)
 * with a message of its own that names no credential.
 */
import { ChildProcess } from "child_process";
import * as fs from "fs";
import * as http from "http";
import type { AddressInfo } from "net";
import * as os from "os";
import * as path from "path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { kubeconfigReader, kubeconfigText, ReadBounds, serverOf } from "../../components/ownership/clusterReader";

const BOUNDS: ReadBounds = { totalMs: 1500, answerBytes: 4096, concurrency: 2 };
/** Far above the deadline: a case that hangs fails this, one that ends at its deadline on a loaded machine does not. */
const HANG = 20_000;

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const servers: http.Server[] = [];
const children: ChildProcess[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-reader-"));

async function serve(handler: Handler): Promise<string> {
    const server = http.createServer(handler);
    // A hostile server's open connections must not keep the test alive: each lives at most as long as the test.
    server.keepAliveTimeout = 1;
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
    for (const s of servers.splice(0)) {
        s.closeAllConnections();
        await new Promise<void>((r) => s.close(() => r()));
    }
    for (const c of children.splice(0)) c.kill("SIGKILL");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const kubeconfig = (server: string, user: Record<string, unknown> = { token: "secret-token-123" }) =>
    JSON.stringify({
        apiVersion: "v1",
        kind: "Config",
        clusters: [{ name: "c", cluster: { server, "insecure-skip-tls-verify": true } }],
        users: [{ name: "u", user }],
        contexts: [{ name: "ctx", context: { cluster: "c", user: "u" } }],
        "current-context": "ctx",
    });

/** The error a read of `path` ends with, and how long it took. */
async function failure(server: string, read: "get" | "list" = "get", user?: Record<string, unknown>): Promise<{ message: string; ms: number }> {
    const started = Date.now();
    const reader = kubeconfigReader({ kubeconfig: kubeconfig(server, user) }, BOUNDS);
    try {
        await (read === "get" ? reader.get("/api/v1/namespaces/bos") : reader.list("/api/v1/namespaces/prometheus/secrets?labelSelector=owner%3Dhelm"));
    } catch (e) {
        const message = (e as Error).message;
        expect(message).not.toContain("secret-token-123");
        return { message, ms: Date.now() - started };
    }
    throw new Error("the read did not fail");
}

const status = (code: number, body: unknown, type = "application/json"): Handler => (_req, res) => {
    res.writeHead(code, { "content-type": type });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
};

describe("the guard's reads of a hostile API server", () => {
    it("bounds the whole read, not the silence: a server that drips a byte at a time fails at the deadline", async () => {
        const url = await serve((_req, res) => {
            res.writeHead(200, { "content-type": "application/json" });
            const t = setInterval(() => res.write(" "), 100);
            res.on("close", () => clearInterval(t));
        });
        const f = await failure(url);
        expect(f.message).toBe(`${url} did not finish answering within 1.5 s (the whole check's deadline)`);
        expect(f.ms).toBeLessThan(HANG);
    });

    it("fails a server that never answers at the deadline, and every read queued behind it too", async () => {
        const url = await serve(() => undefined);
        const reader = kubeconfigReader({ kubeconfig: kubeconfig(url) }, BOUNDS);
        const started = Date.now();
        const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => reader.get(`/api/v1/namespaces/n${i}`)));
        expect(results.map((r) => r.status)).toEqual(Array(6).fill("rejected"));
        expect(Date.now() - started).toBeLessThan(HANG);
    });

    it("stops reading a huge answer at its byte cap", async () => {
        const url = await serve(status(200, JSON.stringify({ metadata: { name: "bos", annotations: { big: "x".repeat(100_000) } } })));
        expect((await failure(url)).message).toBe(`${url} answered GET /api/v1/namespaces/bos with more than 4096 bytes`);
    });

    it("says an answer is not JSON, or not a Kubernetes object or list, in words of its own", async () => {
        expect((await failure(await serve(status(200, "<html>proxy login</html>", "text/html")))).message).toMatch(/answered GET \/api\/v1\/namespaces\/bos with something that is not JSON \(HTTP 200, text\/html\)$/);
        expect((await failure(await serve(status(200, [1, 2])))).message).toMatch(/answered GET \/api\/v1\/namespaces\/bos with JSON that is not a Kubernetes object$/);
        expect((await failure(await serve(status(200, { kind: "Status" })), "list")).message).toMatch(/answered GET \/api\/v1\/namespaces\/prometheus\/secrets with JSON that is not a Kubernetes list$/);
    });

    it("tells refusals apart: credentials refused, reading forbidden, a server error, a redirect", async () => {
        const k8sStatus = (code: number, message: string) => status(code, { kind: "Status", status: "Failure", code, message });
        expect((await failure(await serve(k8sStatus(401, "Unauthorized")))).message).toMatch(/refused the kubeconfig's credentials \(GET \/api\/v1\/namespaces\/bos\): Unauthorized$/);
        expect((await failure(await serve(k8sStatus(403, 'namespaces "bos" is forbidden: User "dev" cannot get resource "namespaces"')))).message).toMatch(
            /does not let the kubeconfig's user read it \(GET \/api\/v1\/namespaces\/bos\): namespaces "bos" is forbidden/,
        );
        expect((await failure(await serve(k8sStatus(500, "etcdserver: request timed out")))).message).toMatch(/answered HTTP 500 \(GET \/api\/v1\/namespaces\/bos\): etcdserver: request timed out$/);
        expect((await failure(await serve(status(502, "bad gateway", "text/plain")))).message).toMatch(/answered HTTP 502 \(GET \/api\/v1\/namespaces\/bos\): bad gateway$/);
        const redirect: Handler = (_req, res) => {
            res.writeHead(302, { location: "http://198.51.100.1/" });
            res.end();
        };
        expect((await failure(await serve(redirect))).message).toMatch(/answered with a redirect, which the check does not follow \(GET \/api\/v1\/namespaces\/bos\)$/);
    });

    it("reports a closed port as unreachable, naming the server without its user information", async () => {
        const url = await serve(() => undefined);
        const port = new URL(url).port;
        servers.pop()!.close();
        const f = await failure(`http://admin:hunter2@127.0.0.1:${port}`);
        expect(f.message).toBe(`cannot reach http://127.0.0.1:${port}: ECONNREFUSED`);
        expect(f.message).not.toContain("hunter2");
    });

    it("follows a list's pages, and refuses one that never ends", async () => {
        let pages = 0;
        const url = await serve((_req, res) => {
            pages++;
            res.writeHead(200, { "content-type": "application/json" });
            res.end(JSON.stringify({ items: [{ metadata: { name: `r${pages}` } }], metadata: { continue: `token-${pages}` } }));
        });
        expect((await failure(url, "list")).message).toMatch(/with more than 10 pages$/);
        expect(pages).toBe(10);
        let served = 0;
        const finite = await serve((_req, res) => {
            served++;
            res.writeHead(200, { "content-type": "application/json" });
            res.end(JSON.stringify({ items: [{ metadata: { name: `r${served}` } }], metadata: served < 3 ? { continue: `t${served}` } : {} }));
        });
        expect((await kubeconfigReader({ kubeconfig: kubeconfig(finite) }, BOUNDS).list("/api/v1/namespaces/x/secrets")).map((m) => m.name)).toEqual(["r1", "r2", "r3"]);
        // An empty list as Kubernetes 1.35's API server encodes a PartialObjectMetadataList: no items at all (seen in the engine tier).
        const empty = await serve(status(200, { kind: "PartialObjectMetadataList", apiVersion: "meta.k8s.io/v1", metadata: { resourceVersion: "42" } }));
        expect(await kubeconfigReader({ kubeconfig: kubeconfig(empty) }, BOUNDS).list("/api/v1/namespaces/x/secrets")).toEqual([]);
    });

    it("bounds an exec credential plugin that never exits, and reports one that prints garbage", async () => {
        const url = await serve(status(200, { metadata: { name: "bos" } }));
        const stuck = path.join(dir, "stuck.sh");
        fs.writeFileSync(stuck, "#!/bin/sh\nexec sleep 30\n", { mode: 0o755 });
        const f = await failure(url, "get", { exec: { apiVersion: "client.authentication.k8s.io/v1", command: stuck, interactiveMode: "Never" } });
        expect(f.message).toBe(`${url} did not finish answering within 1.5 s (the whole check's deadline)`);
        expect(f.ms).toBeLessThan(HANG);
        const garbage = path.join(dir, "garbage.sh");
        fs.writeFileSync(garbage, "#!/bin/sh\necho 'not a credential'\n", { mode: 0o755 });
        const g = await failure(url, "get", { exec: { apiVersion: "client.authentication.k8s.io/v1", command: garbage, interactiveMode: "Never" } });
        expect(g.message).toMatch(/^the kubeconfig's credentials could not be used: /);
    });
});

describe("the kubeconfig the provider was given", () => {
    it("is read as the provider reads it: the file a path names (~ expanded), else the text itself", () => {
        const file = path.join(dir, "config.yaml");
        fs.writeFileSync(file, kubeconfig("http://127.0.0.1:1"));
        expect(kubeconfigText(file)).toBe(kubeconfig("http://127.0.0.1:1"));
        expect(kubeconfigText(kubeconfig("http://127.0.0.1:2"))).toBe(kubeconfig("http://127.0.0.1:2"));
        expect(kubeconfigText(undefined)).toBeUndefined();
        expect(kubeconfigText("")).toBeUndefined();
        expect(serverOf({ kubeconfig: file })).toBe("http://127.0.0.1:1");
    });

    it("refuses what is not a kubeconfig (without quoting it: it may hold a token), a context or cluster it does not have, by name", () => {
        expect(() => kubeconfigReader({ kubeconfig: "{ not json" })).toThrow("the Kubernetes provider's kubeconfig is not a kubeconfig document (YAML or JSON with clusters, users and contexts)");
        expect(() => kubeconfigReader({ kubeconfig: kubeconfig("http://127.0.0.1:1"), context: "prod" })).toThrow('the kubeconfig has no context "prod"');
        expect(() => kubeconfigReader({ kubeconfig: kubeconfig("http://127.0.0.1:1"), cluster: "other" })).toThrow('the kubeconfig has no cluster "other"');
        const noServer = JSON.stringify({ ...JSON.parse(kubeconfig("x")), clusters: [{ name: "c", cluster: {} }] });
        expect(() => kubeconfigReader({ kubeconfig: noServer })).toThrow("the Kubernetes provider's kubeconfig is not a kubeconfig document");
        expect(() => kubeconfigReader({ kubeconfig: "token: secret-token-123\n  bad: [indent" })).toThrow(/^the Kubernetes provider's kubeconfig is not a kubeconfig document \(YAML or JSON with clusters, users and contexts\)$/);
    });

    it("reads the cluster the provider's `cluster` setting names, not the context's", async () => {
        const a = await serve(status(200, { metadata: { name: "from-a" } }));
        const b = await serve(status(200, { metadata: { name: "from-b" } }));
        const text = JSON.stringify({ ...JSON.parse(kubeconfig(a)), clusters: [{ name: "c", cluster: { server: a, "insecure-skip-tls-verify": true } }, { name: "other", cluster: { server: b, "insecure-skip-tls-verify": true } }] });
        expect((await kubeconfigReader({ kubeconfig: text, cluster: "other" }, BOUNDS).get("/api/v1/namespaces/x"))?.name).toBe("from-b");
        expect((await kubeconfigReader({ kubeconfig: text }, BOUNDS).get("/api/v1/namespaces/x"))?.name).toBe("from-a");
    });
});
