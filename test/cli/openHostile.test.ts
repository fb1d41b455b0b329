/**
 * `mara open` against API servers that misbehave while it looks for the interface's pod (support/hostileServer.ts):
 * an error status, an answer that is not JSON or not shaped as Kubernetes objects are, silence, no server at all,
 * credentials refused, garbage certificate-authority data. Each ends with the documented exit code (1: the API server
 * answered with an error; 7: it cannot be reached, or refuses the credentials) and a message of its own, never
 * "unexpected error" or a stack trace. And a port-forward the API server never opens is cut off at its bound.
 */
import * as net from "net";
import { afterEach, describe, expect, it } from "vitest";
import { kubeClient, kubeConfigFrom } from "../../cli/doctor/kubeClient";
import { apiServerForwarder } from "../../cli/open/forward";
import { Behaviour, closedPort, hostileServer, HostileServer } from "../support/hostileServer";
import { kubeconfigFile, kubeconfigText, removeKubeconfigDirs, TEST_TOKEN } from "./support/kubeconfigFor";
import { JS_TEXT } from "./support/maraProcess";
import { runMara } from "./support/io";

let server: HostileServer | undefined;
afterEach(async () => {
    await server?.close();
    server = undefined;
    removeKubeconfigDirs();
});

const SERVICE = "/api/v1/namespaces/prometheus/services/prometheus-grafana";

async function open(route: (method: string, path: string) => Behaviour): Promise<{ code: number; stderr: string; url: string }> {
    server = await hostileServer(route);
    const r = await runMara(["open", "grafana", "--kubeconfig", kubeconfigFile({ server: server.url })]);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(JS_TEXT);
    expect(r.stderr).not.toContain(TEST_TOKEN);
    expect(r.stdout).toBe("");
    return { code: r.code, stderr: r.stderr, url: server.url };
}

describe("mara open, before it listens", () => {
    it("500 from the API server: exit 1, the status and what to check, no trace", async () => {
        const r = await open(() => ({ kind: "json", status: 500, body: { kind: "Status", message: "Internal error occurred: etcd cluster is unavailable" } }));
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(`mara: GET ${SERVICE}: 500 Internal error occurred: etcd cluster is unavailable; the API server answers but fails: check its health`);
    });

    it("an answer that is not JSON: exit 1, says so", async () => {
        const r = await open(() => ({ kind: "text", body: "<html>proxy login</html>" }));
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(`the answer of ${r.url} is not JSON (HTTP 200, content-type text/html; it begins "<html>proxy login</html>")`);
    });

    it("a Service whose fields have the wrong types: exit 1, not shaped as Kubernetes objects are", async () => {
        const r = await open((_, p) =>
            p === SERVICE ? { kind: "json", body: { spec: { selector: { app: "grafana" }, ports: [{ port: 80, targetPort: 3000 }] } } } : { kind: "json", body: { items: [{ metadata: { name: "p" }, status: { phase: "Running", conditions: "Ready" } }] } },
        );
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(`Grafana: an answer of the API server at ${r.url} is not shaped as Kubernetes objects are`);
    });

    it("credentials refused (401): exit 7", async () => {
        const r = await open(() => ({ kind: "json", status: 401, body: { kind: "Status", message: "Unauthorized" } }));
        expect(r.code).toBe(7);
        expect(r.stderr).toContain(`mara: GET ${SERVICE}: 401 Unauthorized`);
    });

    it("nothing listening: exit 7", async () => {
        const port = await closedPort();
        const r = await runMara(["open", "grafana", "--kubeconfig", kubeconfigFile({ server: `https://127.0.0.1:${port}` })]);
        expect(r.code).toBe(7);
        expect(r.stderr).toContain(`connection refused: nothing listens on 127.0.0.1:${port}`);
        expect(r.stderr).not.toMatch(JS_TEXT);
    });

    it("garbage certificate-authority data: exit 7, the field named, nothing sent", async () => {
        server = await hostileServer(() => ({ kind: "silent" }));
        const r = await runMara(["open", "grafana", "--kubeconfig", kubeconfigFile({ server: server.url.replace("http:", "https:"), caData: "bm90IGEgY2VydGlmaWNhdGU=" })]);
        expect(r.code).toBe(7);
        expect(r.stderr).toContain('cluster "lab": certificate-authority-data holds no PEM certificate');
        expect(server.requests).toEqual([]);
    });
});

describe("the port-forward", () => {
    it("an API server that drips its WebSocket handshake one byte at a time: the connection is cut at the bound, with a message", async () => {
        // Raw TCP: the upgrade answer's status line, one byte every 50 ms, for ever; the WebSocket library's own
        // handshake timeout counts only silence, so only the total bound can end it.
        const line = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nX-Pad: " + "a".repeat(10_000);
        const timers = new Set<NodeJS.Timeout>();
        const raw = net.createServer((socket) => {
            let i = 0;
            const t = setInterval(() => socket.write(line[i++ % line.length]!), 50);
            timers.add(t);
            socket.on("close", () => clearInterval(t));
            socket.on("error", () => undefined);
        });
        await new Promise<void>((r) => raw.listen(0, "127.0.0.1", r));
        try {
            const client = kubeClient(kubeConfigFrom(kubeconfigText({ server: `http://127.0.0.1:${(raw.address() as net.AddressInfo).port}` })));
            const forward = apiServerForwarder(() => client, 500);
            const [local, remote] = await socketPair();
            const started = Date.now();
            await expect(forward({ namespace: "prometheus", pod: "grafana-0", containerPort: 3000 }, remote)).rejects.toThrow("the API server did not open the port-forward within 0.5 s");
            expect(Date.now() - started).toBeLessThan(500 * 20);
            local.destroy();
            remote.destroy();
        } finally {
            timers.forEach(clearInterval);
            raw.close();
        }
    });

    it("an API server that refuses the upgrade: its status, in words", async () => {
        server = await hostileServer(() => ({ kind: "json", status: 403, body: { kind: "Status", message: "forbidden" } }));
        const client = kubeClient(kubeConfigFrom(kubeconfigText({ server: server.url })));
        const [local, remote] = await socketPair();
        await expect(apiServerForwarder(() => client, 5000)({ namespace: "prometheus", pod: "grafana-0", containerPort: 3000 }, remote)).rejects.toThrow(
            "the API server refused the port-forward (HTTP 403: the kubeconfig's user may not create pods/portforward there)",
        );
        local.destroy();
        remote.destroy();
    });
});

/** Two connected sockets on the loopback address. */
async function socketPair(): Promise<[net.Socket, net.Socket]> {
    return new Promise((resolve) => {
        const srv = net.createServer((remote) => {
            srv.close();
            resolve([local, remote]);
        });
        let local: net.Socket;
        srv.listen(0, "127.0.0.1", () => {
            local = net.connect((srv.address() as net.AddressInfo).port, "127.0.0.1");
        });
    });
}
