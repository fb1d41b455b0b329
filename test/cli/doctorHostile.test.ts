/**
 * `mara doctor` against API servers that misbehave, each a real server on the loopback address (support/
 * hostileServer.ts): refused, silent, dripping one byte at a time, answering without end, not JSON, JSON of the wrong
 * shape, an error status, a redirect loop, a hang-up; over TLS with certificates made in the test that are
 * self-signed, from an unknown authority, expired, or for another host; and kubeconfigs whose certificate-authority
 * data is garbage. Each run ends with its documented exit code and its own message, with no stack trace, none of
 * JavaScript's own error text and no credential. Where what is tested is that the process ends (silence, a drip), the
 * real command runs as a child process with a kill timer; the bound asserted is several times the documented one.
 */
import { afterEach, describe, expect, it } from "vitest";
import { DOCTOR_BOUND_MS, runDoctor } from "../../cli/doctor/run";
import { kubeClient, kubeConfigFrom, LIST_MAX_BYTES, OBJECT_MAX_BYTES, REQUEST_TIMEOUT_MS } from "../../cli/doctor/kubeClient";
import { doctorPlan } from "../../cli/doctor/plan";
import { doctorExitCode } from "../../cli/doctor/report";
import { Behaviour, closedPort, hostileServer, HostileServer, kubernetesAnswer } from "../support/hostileServer";
import { makeCertificate, testPki } from "../support/testCertificates";
import { kubeconfigFile, kubeconfigText, removeKubeconfigDirs, TEST_TOKEN } from "./support/kubeconfigFor";
import { JS_TEXT, maraProcess } from "./support/maraProcess";
import { runMara } from "./support/io";

let server: HostileServer | undefined;
afterEach(async () => {
    await server?.close();
    server = undefined;
    removeKubeconfigDirs();
});

interface Report {
    findings: { id: string; verdict: string; detail: string; fix?: string }[];
    exitCode: number;
}

/** Serves `route` (over TLS with `tls`), falling back to a healthy API server's answers. */
async function serve(route: (method: string, path: string) => Behaviour | undefined, tls?: { cert: string; key: string }): Promise<HostileServer> {
    server = await hostileServer((m, p) => route(m, p) ?? kubernetesAnswer(m, p), tls);
    return server;
}

/** `mara doctor --kubeconfig <file> --json`, in-process; the report, and checks common to every run. */
async function doctor(file: string): Promise<{ code: number; report: Report; all: string }> {
    const r = await runMara(["doctor", "--kubeconfig", file, "--json"]);
    const all = `${r.stdout}\n${r.stderr}`;
    expect(all).not.toMatch(JS_TEXT);
    expect(all).not.toContain(TEST_TOKEN);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.exitCode).toBe(r.code);
    return { code: r.code, report, all };
}
const finding = (r: Report, id: string) => r.findings.find((f) => f.id === id)!;

describe("no answer, or not the API server's", () => {
    it("a closed port: refused, exit 7, with the address and what to check", async () => {
        const port = await closedPort();
        const { code, report } = await doctor(kubeconfigFile({ server: `http://127.0.0.1:${port}` }));
        expect(code).toBe(7);
        expect(finding(report, "reachable")).toMatchObject({ verdict: "fail", detail: expect.stringContaining(`connection refused: nothing listens on 127.0.0.1:${port}`) });
        expect(finding(report, "reachable").fix).toContain("the address and port in the kubeconfig");
    });

    it("an answer without end: cut at the cap, exit 7, memory untouched", async () => {
        const s = await serve((_, p) => (p === "/version" ? { kind: "huge" } : undefined));
        const { code, report } = await doctor(kubeconfigFile({ server: s.url }));
        expect(code).toBe(7);
        expect(finding(report, "reachable").detail).toContain(`GET /version: the answer of ${s.url} is larger than ${OBJECT_MAX_BYTES / 1024 / 1024} MiB, more than is read`);
    });

    it("a Content-Length that promises a gigabyte: refused before reading", async () => {
        const s = await serve((_, p) => (p === "/version" ? { kind: "huge", declared: true } : undefined));
        const { code, report } = await doctor(kubeconfigFile({ server: s.url }));
        expect(code).toBe(7);
        expect(finding(report, "reachable").detail).toContain("is larger than 4 MiB");
    });

    it("HTML instead of JSON: says not JSON, the content type and how it begins", async () => {
        const s = await serve((_, p) => (p === "/version" ? { kind: "text", body: "<!DOCTYPE html>\n<html><title>Sign in</title>" } : undefined));
        const { code, report } = await doctor(kubeconfigFile({ server: s.url }));
        expect(code).toBe(7);
        expect(finding(report, "reachable").detail).toContain(`GET /version: the answer of ${s.url} is not JSON (HTTP 200, content-type text/html; it begins "<!DOCTYPE html>\\n<html><title>Sign in</title>")`);
        expect(finding(report, "reachable").fix).toContain("is " + s.url + " the cluster's API server?");
    });

    it("a server that echoes the credential it was sent: the excerpt hides it", async () => {
        const s = await serve((_, p) => (p === "/version" ? { kind: "text", body: `you sent Authorization: Bearer ${TEST_TOKEN} and ${TEST_TOKEN}` } : undefined));
        const { report } = await doctor(kubeconfigFile({ server: s.url }));
        expect(finding(report, "reachable").detail).toContain("[secret]");
    });

    it("JSON of the wrong shape: an array, an object without gitVersion", async () => {
        let body: unknown = [1, 2];
        const s = await serve((_, p) => (p === "/version" ? { kind: "json", body } : undefined));
        const list = await doctor(kubeconfigFile({ server: s.url }));
        expect(list.code).toBe(7);
        expect(finding(list.report, "reachable").detail).toContain("GET /version: the answer of " + s.url + " is JSON of the wrong shape: expected an object, found a list");
        body = { kind: "Status" };
        const noVersion = await doctor(kubeconfigFile({ server: s.url }));
        expect(noVersion.code).toBe(7);
        expect(finding(noVersion.report, "reachable").detail).toContain("has no gitVersion, so it is not the API server's");
    });

    it("500: the status and the Status message, and to look at the API server's health", async () => {
        const s = await serve((_, p) => (p === "/version" ? { kind: "json", status: 500, body: { kind: "Status", message: "etcdserver: request timed out" } } : undefined));
        const { code, report } = await doctor(kubeconfigFile({ server: s.url }));
        expect(code).toBe(7);
        expect(finding(report, "reachable")).toMatchObject({ detail: expect.stringContaining("GET /version: 500 etcdserver: request timed out"), fix: expect.stringContaining("readyz?verbose") });
    });

    it("a redirect (a loop, were it followed): named, with where it leads, not followed", async () => {
        const s = await serve((_, p) => (p === "/version" || p.startsWith("/again") ? { kind: "redirectLoop" } : undefined));
        const { code, report } = await doctor(kubeconfigFile({ server: s.url }));
        expect(code).toBe(7);
        expect(finding(report, "reachable").detail).toMatch(/GET \/version: .* answered 302 Found, a redirect to \/again\/1, where the API server answers directly/);
        expect(s.requests).toEqual(["GET /version"]);
    });

    it("a connection closed without an answer", async () => {
        const s = await serve((_, p) => (p === "/version" ? { kind: "hangUp" } : undefined));
        const { code, report } = await doctor(kubeconfigFile({ server: s.url }));
        expect(code).toBe(7);
        expect(finding(report, "reachable").detail).toContain(`127.0.0.1:${s.port} closed the connection before answering (ECONNRESET)`);
    });

    it("a server address without a scheme means https, as client-go reads it; another scheme is refused, nothing sent", async () => {
        const s = await serve(() => undefined);
        const bare = await doctor(kubeconfigFile({ server: `127.0.0.1:${s.port}`, insecure: true }));
        expect(finding(bare.report, "reachable").detail).toContain(`cannot reach https://127.0.0.1:${s.port}: 127.0.0.1:${s.port} does not speak TLS`);
        const ftp = await doctor(kubeconfigFile({ server: `ftp://127.0.0.1:${s.port}` }));
        expect(ftp.code).toBe(7);
        expect(finding(ftp.report, "reachable").detail).toContain(`the kubeconfig's server address ftp://127.0.0.1:${s.port} is not an https:// URL`);
        expect(s.requests).toEqual([]);
    });

    it("lists of the wrong shape, and objects with fields of the wrong type deep inside: no JavaScript error text", async () => {
        const s = await serve((_, p) => {
            if (p === "/api/v1/nodes") return { kind: "json", body: { items: "none" } };
            if (p.startsWith("/api/v1/pods")) return { kind: "json", body: { items: [{ metadata: { namespace: "x" }, spec: { containers: 7 } }] } };
            return undefined;
        });
        const { code, report } = await doctor(kubeconfigFile({ server: s.url }));
        expect(code).toBe(6);
        expect(finding(report, "distribution")).toMatchObject({ verdict: "fail", detail: expect.stringContaining('GET /api/v1/nodes: the answer of ' + s.url + ' is JSON of the wrong shape: expected "items" to be a list, found a string') });
    });
});

describe("answers that never end: the whole request is bounded, and so is the process", () => {
    const bound = REQUEST_TIMEOUT_MS * 4 + 15_000;

    it.each([
        ["silence", { kind: "silent" } as Behaviour],
        ["one byte at a time, for ever", { kind: "drip", intervalMs: 200 } as Behaviour],
    ])("%s: the command ends with exit 7, naming the deadline", async (_, behaviour) => {
        const s = await serve((_m, p) => (p === "/version" ? behaviour : undefined));
        const file = kubeconfigFile({ server: s.url });
        const run = await maraProcess(["doctor", "--kubeconfig", file], { killAfterMs: bound * 3 });
        expect(run.killed, `still running after ${bound * 3} ms`).toBe(false);
        expect(run.code, run.stderr).toBe(7);
        expect(run.stdout).toContain(`GET /version: no complete answer from ${s.url} within ${REQUEST_TIMEOUT_MS / 1000} s`);
        expect(`${run.stdout}${run.stderr}`).not.toMatch(JS_TEXT);
        // Several times the documented 8 s, never a short duration: the machine may be loaded.
        expect(run.ms).toBeLessThan(bound);
    }, 240_000);

    it("a server that answers /version but drips everything else: the doctor's own bound ends the run, and the checks say so", async () => {
        const s = await serve((m, p) => (p === "/version" || m === "POST" ? undefined : { kind: "drip", intervalMs: 100 }));
        // The bound itself is 60 s (DOCTOR_BOUND_MS); the same code with a bound of 2 s, so the test stays short.
        const client = kubeClient(kubeConfigFrom(kubeconfigText({ server: s.url })), { timeoutMs: 60_000, deadline: Date.now() + 2000, deadlineName: "the test's 2 s bound" });
        const started = Date.now();
        const result = await runDoctor(client, doctorPlan());
        expect(Date.now() - started).toBeLessThan(2000 * 10);
        expect(doctorExitCode(result)).toBe(6);
        const stopped = result.findings.filter((f) => f.detail.includes("the test's 2 s bound ran out"));
        expect(stopped.map((f) => f.verdict)).toContain("fail");
        expect(stopped.length).toBeGreaterThan(0);
        expect(DOCTOR_BOUND_MS).toBe(60_000);
        expect(LIST_MAX_BYTES).toBe(64 * 1024 * 1024);
    }, 60_000);
});

describe("TLS failures told apart, each with its own advice", () => {
    it("the authority in the kubeconfig signed the server's certificate: it passes", async () => {
        const { ca, server: cert } = testPki();
        const s = await serve(() => undefined, cert);
        const { report } = await doctor(kubeconfigFile({ server: s.url, caPem: ca.cert }));
        expect(finding(report, "reachable").verdict).toBe("pass");
    });

    it("a self-signed certificate that is not the kubeconfig's authority", async () => {
        const { ca } = testPki();
        const self = makeCertificate({ commonName: "apiserver-self", altNames: ["IP:127.0.0.1"] });
        const s = await serve(() => undefined, self);
        const { code, report } = await doctor(kubeconfigFile({ server: s.url, caPem: ca.cert }));
        expect(code).toBe(7);
        const r = finding(report, "reachable");
        expect(r.detail).toContain("the API server presents a self-signed certificate (subject CN=apiserver-self, issued by CN=apiserver-self");
        expect(r.detail).toContain("DEPTH_ZERO_SELF_SIGNED_CERT");
        expect(r.fix).toContain("certificate-authority-data");
        expect(s.requests).toEqual([]);
    });

    it("a certificate from another authority", async () => {
        const { server: cert } = testPki();
        const other = makeCertificate({ commonName: "another CA", ca: true });
        const s = await serve(() => undefined, cert);
        const { code, report } = await doctor(kubeconfigFile({ server: s.url, caPem: other.cert }));
        expect(code).toBe(7);
        expect(finding(report, "reachable").detail).toContain("the API server's certificate (subject CN=127.0.0.1, issued by CN=mara test CA");
        expect(finding(report, "reachable").detail).toContain(`is not signed by the kubeconfig's certificate authority (cluster "lab")`);
        expect(finding(report, "reachable").detail).not.toContain("self-signed");
        expect(s.requests).toEqual([]);
    });

    it("an expired certificate: when it expired, and how to renew", async () => {
        const { ca } = testPki();
        const old = makeCertificate({ commonName: "old apiserver", altNames: ["IP:127.0.0.1"], issuer: ca, notBefore: new Date("2020-01-01T00:00:00Z"), notAfter: new Date("2021-01-01T00:00:00Z") });
        const s = await serve(() => undefined, old);
        const { code, report } = await doctor(kubeconfigFile({ server: s.url, caPem: ca.cert }));
        expect(code).toBe(7);
        expect(finding(report, "reachable").detail).toContain("the API server's certificate expired on 2021-01-01T00:00:00.000Z");
        expect(finding(report, "reachable").fix).toContain("kubeadm certs renew all");
    });

    it("a certificate for another host name; tls-server-name set to it passes", async () => {
        const { ca } = testPki();
        const elsewhere = makeCertificate({ commonName: "api.lab.example", altNames: ["DNS:api.lab.example"], issuer: ca });
        const s = await serve(() => undefined, elsewhere);
        const { code, report } = await doctor(kubeconfigFile({ server: s.url, caPem: ca.cert }));
        expect(code).toBe(7);
        expect(finding(report, "reachable").detail).toContain("the API server's certificate is for DNS:api.lab.example, not for 127.0.0.1");
        expect(finding(report, "reachable").fix).toContain("tls-server-name");
        const named = await doctor(kubeconfigFile({ server: s.url, caPem: ca.cert, tlsServerName: "api.lab.example" }));
        expect(finding(named.report, "reachable").verdict).toBe("pass");
    });

    it("https:// to a port that speaks plain HTTP", async () => {
        const s = await serve(() => undefined);
        const { code, report } = await doctor(kubeconfigFile({ server: s.url.replace("http:", "https:"), insecure: true }));
        expect(code).toBe(7);
        expect(finding(report, "reachable").detail).toContain(`127.0.0.1:${s.port} does not speak TLS`);
    });

    it.each([
        ["not base64", "this is not base64 at all!", "certificate-authority-data is not base64"],
        ["base64 of garbage", Buffer.from("garbage, not a certificate").toString("base64"), "certificate-authority-data holds no PEM certificate"],
        ["a DER certificate", Buffer.from([0x30, 0x82, 0x01, 0x0a, 1, 2, 3]).toString("base64"), "it looks like a DER certificate"],
        ["a PEM block that does not parse", Buffer.from("-----BEGIN CERTIFICATE-----\nTUFSQQ==\n-----END CERTIFICATE-----\n").toString("base64"), "certificate-authority-data holds a certificate that cannot be parsed (block 1 of 1)"],
    ])("certificate-authority-data that is %s: refused before connecting, never called self-signed", async (_, caData, message) => {
        const { server: cert } = testPki();
        const s = await serve(() => undefined, cert);
        const { code, report } = await doctor(kubeconfigFile({ server: s.url, caData }));
        expect(code).toBe(7);
        expect(finding(report, "reachable").detail).toContain(`cluster "lab": certificate-authority-data `);
        expect(finding(report, "reachable").detail).toContain(message);
        expect(finding(report, "reachable").detail).not.toContain("self-signed");
        expect(finding(report, "reachable").fix).toContain("put the cluster's CA certificate there again");
        expect(s.requests).toEqual([]);
    });
});
