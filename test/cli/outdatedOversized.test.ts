/**
 * `mara outdated` refuses an answer larger than it reads — declared too large, or growing past the limit — and ends
 * the connection there and then: the command finishes as soon as every source has answered or been refused, never
 * waiting out its timeout on a body it stopped reading.
 */
import { execFile } from "child_process";
import * as http from "http";
import type { AddressInfo } from "net";
import * as path from "path";
import { promisify } from "util";
import { afterEach, describe, expect, it } from "vitest";
import { httpGet } from "../../cli/outdated/http";
import { defaultPinSettings, pinsOf } from "../../cli/outdated/pins";

const ROOT = path.join(__dirname, "..", "..");

interface Flood {
    origin: string;
    /** Resolves when the server sees a response's connection closed by the client. */
    closed(): Promise<number>;
    close(): Promise<void>;
}

/** A server whose every answer is too large: `declared` says so in Content-Length, `streaming` never stops sending. */
async function flood(mode: "declared" | "streaming"): Promise<Flood> {
    const waiting: ((at: number) => void)[] = [];
    const timers = new Set<NodeJS.Timeout>();
    const server = http.createServer((_req, res) => {
        res.writeHead(200, mode === "declared" ? { "content-length": String(1024 ** 3), "content-type": "application/x-yaml" } : { "content-type": "application/x-yaml" });
        // Declared: a byte, then silence; streaming: 64 KiB after 64 KiB, for ever.
        const chunk = Buffer.alloc(mode === "declared" ? 1 : 64 * 1024, 0x61);
        res.write(chunk);
        const timer = setInterval(() => mode === "streaming" && res.write(chunk), 1);
        timers.add(timer);
        res.on("close", () => {
            clearInterval(timer);
            timers.delete(timer);
            waiting.splice(0).forEach((w) => w(Date.now()));
        });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return {
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        closed: () => new Promise((resolve) => waiting.push(resolve)),
        close: () =>
            new Promise((resolve) => {
                timers.forEach(clearInterval);
                server.closeAllConnections();
                server.close(() => resolve());
            }),
    };
}

let server: Flood | undefined;
afterEach(async () => {
    await server?.close();
    server = undefined;
});

describe("an answer larger than the limit", () => {
    it.each(["declared", "streaming"] as const)("%s too large: refused, and its connection ended at once", async (mode) => {
        server = await flood(mode);
        const closed = server.closed();
        const started = Date.now();
        await expect(httpGet(`${server.origin}/index.yaml`, { timeoutMs: 60_000, endpoints: new Map(), maxBytes: 1024 * 1024 })).rejects.toThrow("the answer is larger than 1 MiB, more than this command reads");
        const refusedAt = Date.now();
        const closedAt = await Promise.race([closed, new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), 5_000))]);
        expect(refusedAt - started).toBeLessThan(10_000);
        expect(closedAt - refusedAt, "the connection stayed open after the answer was refused").toBeLessThan(2_000);
    }, 30_000);

    it("the command ends long before its timeout when every source answers too much", async () => {
        server = await flood("declared");
        const hosts = new Set<string>();
        for (const pin of pinsOf(defaultPinSettings())) {
            if (pin.source.type === "helm-index" || pin.source.type === "oci-chart") hosts.add(new URL(pin.source.repositoryUrl).host);
            if (pin.source.type === "registry") hosts.add(pin.source.registry);
        }
        const env = { ...process.env, MARA_OUTDATED_ENDPOINTS: [...hosts].map((h) => `${h}=${server!.origin}`).join(",") };
        const started = Date.now();
        const run = await promisify(execFile)(process.execPath, [path.join(ROOT, "bin", "mara.js"), "outdated", "--timeout", "45"], { env, timeout: 60_000, killSignal: "SIGKILL" }).then(
            () => ({ code: 0, stderr: "" }),
            (e: { code?: number; killed?: boolean; stderr: string }) => ({ code: e.killed ? "killed" : e.code, stderr: e.stderr }),
        );
        expect(run.code, run.stderr).toBe(5);
        expect(run.stderr).toContain("the answer is larger than 128 MiB");
        expect(Date.now() - started).toBeLessThan(30_000);
    }, 90_000);
});
