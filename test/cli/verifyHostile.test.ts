/**
 * `mara verify` against ingresses that misbehave (support/hostileServer.ts): an answer dripped one byte at a time
 * (bounded by the request's whole deadline, not by silence), an answer without end (cut at its cap, so the verdict
 * comes at once), and TLS certificates made in the test that are expired, for another host, or from an authority this
 * machine does not trust — each told apart, with its own advice, and only the self-signed one called self-signed.
 * Its input is bounded too: piped outputs past the cap are refused, outputs that are not JSON are said to be so
 * without quoting them (they hold the demo password).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Readable } from "stream";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_OUTPUTS_BYTES } from "../../cli/commands/verify";
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, verifyApplication } from "../../cli/verify/check";
import { Behaviour, hostileServer, HostileServer } from "../support/hostileServer";
import { makeCertificate, testPki } from "../support/testCertificates";
import { JS_TEXT, maraProcess } from "./support/maraProcess";
import { runMara } from "./support/io";

let server: HostileServer | undefined;
afterEach(async () => {
    await server?.close();
    server = undefined;
});

const LOGIN = { username: "demo", password: "demo-password-never-shown" };

async function serve(readiness: Behaviour, tls?: { cert: string; key: string }): Promise<HostileServer> {
    server = await hostileServer((_, p) => (p === "/z/health/readiness" ? readiness : { kind: "text", status: 404, body: "" }), tls);
    return server;
}

describe("answers that would never end", () => {
    it("one byte at a time: the request's whole deadline ends it", async () => {
        // A byte every 20 ms, for ever: only a deadline over the whole request (not one that counts silence) ends it.
        const s = await serve({ kind: "drip", intervalMs: 20 });
        const r = await verifyApplication({ url: s.url, ...LOGIN, timeoutMs: 500 });
        expect(r).toMatchObject({ ok: false, message: expect.stringContaining("no answer within 0.5 s (timed out)") });
    });

    it("one byte at a time, as users run it: the process ends within several times --timeout, exit 1", async () => {
        const s = await serve({ kind: "drip", intervalMs: 100 });
        const outputs = `${JSON.stringify({ application_url: s.url, demo_login: LOGIN })}`;
        const file = path.join(os.tmpdir(), `mara-verify-${process.pid}.json`);
        fs.writeFileSync(file, outputs);
        try {
            // It ends by itself, with the deadline's message and exit code; the kill timer is only a safety net.
            const run = await maraProcess(["verify", "--outputs-file", file, "--timeout", "2"], { killAfterMs: 120_000 });
            expect(run.killed).toBe(false);
            expect(run.code).toBe(1);
            expect(run.stdout).toContain("no answer within 2 s (timed out)");
            expect(`${run.stdout}${run.stderr}`).not.toMatch(JS_TEXT);
        } finally {
            fs.rmSync(file, { force: true });
        }
    }, 180_000);

    it("an answer without end: cut at the cap, and the verdict comes at once, not at the deadline", async () => {
        server = await hostileServer((_, p) => (p === "/z/health/readiness" ? { kind: "huge" } : { kind: "text", status: 404, body: "" }));
        // The largest deadline (ten minutes): a verdict in the test's time came from the cap, not the deadline. The
        // readiness answered 200 (cut at 4 KiB); the login then met this server's 404.
        const r = await verifyApplication({ url: server.url, ...LOGIN, timeoutMs: MAX_TIMEOUT_MS });
        expect(r).toMatchObject({ ok: false, message: expect.stringContaining("answered HTTP 404; expected a 302 redirect to /home") });
        expect(DEFAULT_TIMEOUT_MS).toBe(10_000);
    });
});

describe("TLS failures told apart", () => {
    it("expired: says so and when, and that cert-manager renews it", async () => {
        const { ca } = testPki();
        const s = await serve({ kind: "json", body: { status: "UP" } }, makeCertificate({ commonName: "bank", altNames: ["IP:127.0.0.1"], issuer: ca, notBefore: new Date("2020-01-01T00:00:00Z"), notAfter: new Date("2021-01-01T00:00:00Z") }));
        const r = await verifyApplication({ url: s.url, ...LOGIN });
        expect(r.message).toContain("TLS certificate expired (CERT_HAS_EXPIRED: on 2021-01-01T00:00:00.000Z)");
        expect(r.message).toContain("kubectl get certificate -A");
        expect(r.message).not.toContain("self-signed");
    });

    it("for another host: names the certificate's names (the authority trusted through NODE_EXTRA_CA_CERTS, as the advice for an unknown one says)", async () => {
        const { ca } = testPki();
        const s = await serve({ kind: "json", body: { status: "UP" } }, makeCertificate({ commonName: "bank", altNames: ["DNS:bank.example.com"], issuer: ca }));
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-verify-"));
        try {
            fs.writeFileSync(path.join(dir, "ca.pem"), ca.cert);
            fs.writeFileSync(path.join(dir, "outputs.json"), JSON.stringify({ application_url: s.url, demo_login: LOGIN }));
            const run = await maraProcess(["verify", "--outputs-file", path.join(dir, "outputs.json")], { env: { ...process.env, NODE_EXTRA_CA_CERTS: path.join(dir, "ca.pem") }, killAfterMs: 120_000 });
            expect(run.code).toBe(1);
            expect(run.stdout).toContain("TLS certificate is for DNS:bank.example.com, not 127.0.0.1 (ERR_TLS_CERT_ALTNAME_INVALID");
            expect(run.stdout).toContain("mara:fqdn");
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    }, 180_000);

    it("from an authority not trusted here: names the issuer and NODE_EXTRA_CA_CERTS", async () => {
        const { server: cert } = testPki();
        const s = await serve({ kind: "json", body: { status: "UP" } }, cert);
        const r = await verifyApplication({ url: s.url, ...LOGIN });
        expect(r.message).toContain("TLS certificate not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE: it is signed by CN=mara test CA, which this machine does not trust)");
        expect(r.message).toContain("NODE_EXTRA_CA_CERTS");
        expect(r.message).not.toContain("self-signed");
        expect(s.requests).toEqual([]);
    });

    it("self-signed: the only one called so", async () => {
        const s = await serve({ kind: "json", body: { status: "UP" } }, makeCertificate({ commonName: "bank", altNames: ["IP:127.0.0.1"] }));
        const r = await verifyApplication({ url: s.url, ...LOGIN });
        expect(r.message).toContain("TLS certificate not trusted (DEPTH_ZERO_SELF_SIGNED_CERT: it is self-signed, for CN=bank)");
    });
});

describe("the outputs it reads", () => {
    it("refuses piped outputs past the cap, without reading on", async () => {
        let produced = 0;
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        const endless = new Readable({
            read() {
                produced += chunk.length;
                this.push(chunk);
            },
        });
        const r = await runMara(["verify"], { stdin: endless });
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(`mara: the stack outputs piped in are larger than ${MAX_OUTPUTS_BYTES / 1024 / 1024} MiB, which no stack's outputs are`);
        expect(produced).toBeLessThan(MAX_OUTPUTS_BYTES * 2);
    });

    it("says where outputs stop being JSON, never quoting them", async () => {
        const r = await runMara(["verify"], { stdin: Readable.from([`{"demo_login": {"password": "${LOGIN.password}"}, oops}`]) });
        expect(r.code).toBe(1);
        expect(r.stdout).toContain("Application failed health check: the stack outputs are not JSON (from line 1, column ");
        expect(`${r.stdout}${r.stderr}`).not.toContain(LOGIN.password);
        expect(`${r.stdout}${r.stderr}`).not.toMatch(JS_TEXT);
    });
});
