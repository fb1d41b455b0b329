/**
 * `mara outdated` refuses an answer larger than it reads — declared too large, or growing past the limit — and ends
 * the connection there and then: the command finishes as soon as every source has answered or been refused, never
 * waiting out its timeout on a body it stopped reading. Proved without a clock: the timeouts are longer than the test
 * may run, the servers never end an answer, and every answer `fetch` returns is kept reachable (so the garbage
 * collector, which cancels an unread body once its answer is collected, cannot end the connection either): a
 * connection that closes, or a command that ends, in the test's time was ended by the refusal.
 */
import * as http from "http";
import type { AddressInfo } from "net";
import * as path from "path";
import { afterEach, describe, expect, it } from "vitest";
import { httpGet } from "../../cli/outdated/http";
import { defaultPinSettings, pinsOf } from "../../cli/outdated/pins";
import { maraProcess } from "./support/maraProcess";

interface Flood {
    origin: string;
    /** Resolves when the server sees a response's connection closed (it never ends one itself). */
    closed(): Promise<void>;
    close(): Promise<void>;
}

/** A server whose every answer is too large: `declared` says so in Content-Length, `streaming` never stops sending. */
async function flood(mode: "declared" | "streaming"): Promise<Flood> {
    const waiting: (() => void)[] = [];
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
            waiting.splice(0).forEach((w) => w());
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

const RETAIN_ANSWERS = path.join(__dirname, "support", "retainFetchAnswers.cjs");

let server: Flood | undefined;
const originalFetch = globalThis.fetch;
/** This process's fetch keeps every answer reachable until the test ends, as the preload does for the command below. */
function retainAnswers(): void {
    const kept: Response[] = [];
    globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
        const answer = await originalFetch(...args);
        kept.push(answer);
        return answer;
    };
}
afterEach(async () => {
    globalThis.fetch = originalFetch;
    await server?.close();
    server = undefined;
});

describe("an answer larger than the limit", () => {
    it.each(["declared", "streaming"] as const)("%s too large: refused, and its connection ended at once", async (mode) => {
        server = await flood(mode);
        const closed = server.closed();
        retainAnswers();
        // A timeout of an hour, which cannot be what ends the connection while the test runs: the refusal must.
        await expect(httpGet(`${server.origin}/index.yaml`, { timeoutMs: 3_600_000, endpoints: new Map(), maxBytes: 1024 * 1024 })).rejects.toThrow("the answer is larger than 1 MiB, more than this command reads");
        // A connection left open after the refusal never closes, and the test's timeout fails the test.
        await closed;
    }, 60_000);

    it("the command ends long before its timeout when every source answers too much", async () => {
        server = await flood("declared");
        const hosts = new Set<string>();
        for (const pin of pinsOf(defaultPinSettings())) {
            if (pin.source.type === "helm-index" || pin.source.type === "oci-chart") hosts.add(new URL(pin.source.repositoryUrl).host);
            if (pin.source.type === "registry") hosts.add(pin.source.registry);
        }
        const env = { ...process.env, MARA_OUTDATED_ENDPOINTS: [...hosts].map((h) => `${h}=${server!.origin}`).join(","), NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${RETAIN_ANSWERS}` };
        // The largest --timeout (ten minutes, so a bound of forty): the command ends by itself, every source refused for
        // its size and none for its time. The kill timer is a safety net: a command still waiting on the bodies it
        // refused would be killed by it and fail the test, not hang the suite.
        const run = await maraProcess(["outdated", "--timeout", "600"], { env, killAfterMs: 240_000 });
        expect(run.killed, "still running: the refused answers' connections kept it waiting").toBe(false);
        expect(run.code, run.stderr).toBe(5);
        expect(run.stderr).toContain("the answer is larger than 128 MiB");
        expect(run.stderr).not.toMatch(/no answer within|ran out before this source answered/);
    }, 300_000);
});
