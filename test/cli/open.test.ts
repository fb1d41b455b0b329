/**
 * `mara open`: from a name to a Service, a ready pod and its container port, a local listener whose connections are
 * carried to it, and the URL printed. The cluster is a fake client here (test/engine/doctor.test.ts resolves against
 * a real API server); the carrying is a forwarder that connects to a local HTTP server standing in for the pod.
 */
import * as http from "http";
import * as net from "net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOpen } from "../../cli/commands/open";
import type { KubeClient } from "../../cli/doctor/kubeClient";
import type { CliIo } from "../../cli/kernel/io";
import type { Forwarder } from "../../cli/open/forward";
import { OPEN_TARGET_NAMES } from "../../cli/open/targets";
import { register } from "../../cli/register/open";
import { Command } from "commander";
import { noTerminal, runMara } from "./support/io";

let pod: http.Server;
let podPort: number;

beforeAll(async () => {
    pod = http.createServer((req, res) => res.end(`grafana answered ${req.url}`));
    await new Promise<void>((r) => pod.listen(0, "127.0.0.1", r));
    podPort = (pod.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => pod.close(() => r())));

/** A cluster with Grafana's Service (port 80 → the pod's port named "grafana", 3000) and one ready pod. */
function cluster(opts: { ready?: boolean; service?: boolean } = {}): KubeClient {
    const objects: Record<string, unknown> = {
        "/api/v1/namespaces/prometheus/services/prometheus-grafana": opts.service === false ? undefined : { spec: { selector: { "app.kubernetes.io/name": "grafana" }, ports: [{ port: 80, targetPort: "grafana" }] } },
        "/api/v1/namespaces/prometheus/pods?labelSelector=app.kubernetes.io%2Fname%3Dgrafana": {
            items: [
                {
                    metadata: { name: "prometheus-grafana-7d9c" },
                    spec: { containers: [{ ports: [{ name: "grafana", containerPort: 3000 }] }] },
                    status: { phase: "Running", conditions: [{ type: "Ready", status: opts.ready === false ? "False" : "True" }] },
                },
            ],
        },
    };
    const get = async (p: string) => objects[p];
    return { server: "https://lab:6443", context: "lab", user: null, get: get as KubeClient["get"], find: get as KubeClient["find"], post: async () => undefined as never };
}

function captureIo(): CliIo & { out: () => string; err: () => string } {
    let out = "";
    let err = "";
    return { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) }, prompter: noTerminal, env: {}, cwd: process.cwd(), projectDir: process.cwd(), colour: false, out: () => out, err: () => err };
}

describe("mara open", () => {
    it("forwards a local port to Grafana's ready pod, on the container port its Service's named port means, and prints the URL", async () => {
        const seen: string[] = [];
        const forward: Forwarder = async (t, socket) => {
            seen.push(`${t.namespace}/${t.pod}:${t.containerPort}`);
            const upstream = net.connect(podPort, "127.0.0.1");
            socket.pipe(upstream).pipe(socket);
        };
        const io = captureIo();
        const listener = await startOpen("grafana", "bos", cluster(), forward, 0, io);
        try {
            expect(io.out()).toBe(`Grafana: http://127.0.0.1:${listener.port}/\n`);
            expect(io.err()).toContain("Forwarding to prometheus/prometheus-grafana-7d9c port 3000 (Service prometheus-grafana:80); Ctrl+C stops.");
            expect(io.err()).toContain("Log in as admin");
            const body = await (await fetch(`http://127.0.0.1:${listener.port}/login`)).text();
            expect(body).toBe("grafana answered /login");
            expect(seen).toEqual(["prometheus/prometheus-grafana-7d9c:3000"]);
        } finally {
            await listener.close();
        }
    }, 120_000);

    it("says what is missing: no Service (not deployed), no ready pod", async () => {
        const forward: Forwarder = async () => undefined;
        await expect(startOpen("grafana", "bos", cluster({ service: false }), forward, 0, captureIo())).rejects.toMatchObject({
            exitCode: 1,
            message: "Grafana: there is no Service prometheus-grafana in namespace prometheus: is the platform deployed to this cluster? (kubectl -n prometheus get services)",
        });
        await expect(startOpen("grafana", "bos", cluster({ ready: false }), forward, 0, captureIo())).rejects.toMatchObject({
            exitCode: 1,
            message: "Grafana: no pod of Service prometheus/prometheus-grafana is ready (1 found); see: kubectl -n prometheus get pods -l app.kubernetes.io/name=grafana",
        });
    });

    it("refuses an unknown name and a bad port (exit 2); its help lists every name", async () => {
        const unknown = await runMara(["open", "grafanna", "--kubeconfig", "x"]);
        expect(unknown.code).toBe(2);
        expect(unknown.stderr).toContain(`"grafanna" is not one of the interfaces mara open knows: ${OPEN_TARGET_NAMES.join(", ")}`);
        const port = await runMara(["open", "grafana", "--kubeconfig", "x", "--port", "70000"]);
        expect(port.code).toBe(2);
        const program = new Command();
        register(program, { io: captureIo(), setExit: () => undefined });
        expect(program.commands[0]!.registeredArguments[0]!.description).toBe(`the interface: ${OPEN_TARGET_NAMES.join(", ")}`);
    });
});
