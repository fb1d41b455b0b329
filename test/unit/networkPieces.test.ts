/**
 * The pure pieces behind every network read of the command line: where a text stops being JSON (without quoting it),
 * the excerpt of an answer with credentials hidden, which paths are lists, Node's error codes by kind, the checks of a
 * kubeconfig's certificates and keys, and the kubeconfig read as client-go reads it (relative paths, an exec plugin's
 * command, auth providers).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { execFileSync } from "child_process";
import { afterAll, describe, expect, it } from "vitest";
import { isListPath } from "../../cli/doctor/kubeClient";
import { resolveCredentials } from "../../cli/kube/credentials";
import { readKubeconfig } from "../../cli/kube/kubeconfig";
import { excerpt, redactKnown } from "../../cli/net/excerpt";
import { classifyNetworkError } from "../../cli/net/failure";
import { parseJson } from "../../host/json";
import { certificateAuthority, clientKeyPair, readCredentialFile } from "../../cli/net/tlsMaterial";
import { makeCertificate, testPki } from "../support/testCertificates";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-net-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("where a text stops being JSON", () => {
    it.each([
        ["warning: x\n{}", "from line 1, column 1"],
        ['{"a": 1,\n x}', "from line 2, column 2"],
        ['{"a":1} trailing', "from line 1, column 9"],
        ['{"a": tru}', "from line 1, column 10"],
        ['"\\q"', "from line 1, column 3"],
        ['{"a":', "it ends too soon"],
        [" \n ", "it is empty"],
    ])("%j: %s", (text, where) => {
        expect(parseJson(text)).toEqual({ ok: false, where });
    });

    it("never throws, and agrees with JSON.parse on what is JSON", () => {
        const samples = ["{}", "[]", "0", "-1.5e3", '"x"', "null", "{", "}", "[1,]", '{"a":1,}', "01", "1.", "-", "\u0000", '"\\u12"', "[[[[[[[[]]]]]]]]"];
        for (const s of samples) {
            let valid = true;
            try {
                JSON.parse(s);
            } catch {
                valid = false;
            }
            expect(parseJson(s).ok, s).toBe(valid);
        }
    });
});

describe("the excerpt of an answer", () => {
    it("one line, cut, with control characters escaped", () => {
        expect(excerpt("<html>\n\t<body>")).toBe('"<html>\\n\\t<body>"');
        expect(excerpt("")).toBe("nothing");
        expect(excerpt("x".repeat(500))).toBe(`"${"x".repeat(80)}…"`);
        expect(excerpt(Buffer.from("<p> ".repeat(3 * 1024 * 1024)))).toBe(`"${"<p> ".repeat(20)}…"`);
    });

    it("hides the credentials it is told of, and anything shaped like a token", () => {
        expect(redactKnown("token abc-secret-123 here", ["abc-secret-123"])).toBe("token [secret] here");
        expect(redactKnown("Authorization: Bearer xyz")).toBe("Authorization: Bearer [secret]");
        expect(redactKnown("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln end")).toBe("jwt [secret] end");
        expect(redactKnown(`key ${"aB3".repeat(20)}`)).toBe("key [secret]");
        expect(redactKnown(`sha ${"0123456789abcdef".repeat(3)}`)).toBe("sha [secret]");
        // A long Kubernetes name is no token.
        expect(redactKnown('pods "prometheus-prometheus-kube-prometheus-prometheus-0" is forbidden')).toBe('pods "prometheus-prometheus-kube-prometheus-prometheus-0" is forbidden');
        expect(redactKnown("https://user:pw@host/x")).toBe("https://[secret]@host/x");
    });
});

describe("which GETs answer lists", () => {
    it.each([
        ["/api/v1/nodes", true],
        ["/api/v1/namespaces", true],
        ["/api/v1/namespaces/bos", false],
        ["/api/v1/namespaces/bos/pods?labelSelector=a%3Db", true],
        ["/api/v1/namespaces/bos/services/frontend", false],
        ["/apis/storage.k8s.io/v1/storageclasses", true],
        ["/apis/apiextensions.k8s.io/v1/customresourcedefinitions/certificates.cert-manager.io", false],
        ["/apis/discovery.k8s.io/v1/namespaces/default/endpointslices?labelSelector=x", true],
        ["/version", false],
        ["/apis", false],
    ])("%s: %s", (p, list) => expect(isListPath(p)).toBe(list));
});

describe("Node's errors by kind", () => {
    const url = new URL("https://api.lab.example:6443/version");
    const err = (code: string, message = "") => Object.assign(new Error(message), { code });
    it.each([
        ["ECONNREFUSED", "refused"],
        ["ENOTFOUND", "dns"],
        ["EAI_AGAIN", "dns"],
        ["EHOSTUNREACH", "unreachable"],
        ["ECONNRESET", "reset"],
        ["DEPTH_ZERO_SELF_SIGNED_CERT", "tls-self-signed"],
        ["SELF_SIGNED_CERT_IN_CHAIN", "tls-self-signed"],
        ["UNABLE_TO_VERIFY_LEAF_SIGNATURE", "tls-unknown-ca"],
        ["CERT_HAS_EXPIRED", "tls-expired"],
        ["CERT_NOT_YET_VALID", "tls-not-yet-valid"],
        ["ERR_TLS_CERT_ALTNAME_INVALID", "tls-hostname"],
        ["ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED", "tls-client-certificate"],
        ["ERR_SSL_SOMETHING_NEW", "tls-handshake"],
        ["EWHATEVER", "other"],
    ])("%s is %s", (code, kind) => expect(classifyNetworkError(err(code), url).kind).toBe(kind));

    it("a plain HTTP port behind https:// (OpenSSL's reason read, not shown), and undici's cause", () => {
        const notTls = classifyNetworkError(err("EPROTO", "error:0A00010B:SSL routines:ssl_get_record:wrong version number"), url);
        expect(notTls.kind).toBe("tls-not-tls");
        expect(notTls.words).not.toContain("ssl_get_record");
        expect(classifyNetworkError(Object.assign(new TypeError("fetch failed"), { cause: err("ECONNREFUSED") }), url).words).toBe("connection refused: nothing listens on api.lab.example:6443");
    });
});

describe("certificates and keys in a kubeconfig", () => {
    const { ca, server } = testPki();
    const b64 = (s: string) => Buffer.from(s).toString("base64");

    it("a certificate authority: PEM in base64, several certificates, or a file", () => {
        const two = certificateAuthority(b64(ca.cert + server.cert), undefined);
        expect(two?.ok && two.value.certificates.length).toBe(2);
        const file = path.join(dir, "ca.crt");
        fs.writeFileSync(file, ca.cert);
        expect(certificateAuthority(undefined, file)?.ok).toBe(true);
        expect(certificateAuthority(undefined, undefined)).toBeUndefined();
    });

    it("each way it is garbage, named", () => {
        const problem = (data: string) => {
            const r = certificateAuthority(data, undefined);
            return r && !r.ok ? r.problem : "ok";
        };
        expect(problem("%%%")).toBe("certificate-authority-data is not base64 (it should be the base64 of a PEM file)");
        expect(problem(b64("hello"))).toContain("certificate-authority-data holds no PEM certificate");
        expect(problem(b64("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----"))).toBe("certificate-authority-data holds a certificate that cannot be parsed (block 1 of 1)");
        expect(certificateAuthority(undefined, path.join(dir, "nope.crt"))).toEqual({ ok: false, problem: `certificate-authority names ${path.join(dir, "nope.crt")}, which does not exist` });
    });

    it("a client certificate and key: both, readable, and a pair", () => {
        const client = makeCertificate({ commonName: "admin", issuer: ca });
        expect(clientKeyPair({ data: b64(client.cert) }, { data: b64(client.key) })?.ok).toBe(true);
        expect(clientKeyPair({ data: b64(client.cert) }, {})).toEqual({ ok: false, problem: "client-certificate-data is set without client-key-data: a client certificate needs its key" });
        expect(clientKeyPair({ data: b64(client.cert) }, { data: b64(server.key) })).toEqual({ ok: false, problem: "client-key-data is not the key of the certificate in client-certificate-data" });
        expect(clientKeyPair({ data: b64(client.cert) }, { data: b64("not a key") })).toMatchObject({ ok: false, problem: expect.stringContaining("client-key-data holds no private key that can be read") });
    });

    it("a credential file that is a pipe, a directory or too large is refused, never read", () => {
        const fifo = path.join(dir, "token.fifo");
        execFileSync("mkfifo", [fifo]);
        expect(readCredentialFile(fifo, "tokenFile")).toEqual({ ok: false, problem: `tokenFile names ${fifo}, which is not a regular file` });
        expect(readCredentialFile(dir, "tokenFile")).toEqual({ ok: false, problem: `tokenFile names ${dir}, which is a directory` });
        const big = path.join(dir, "big");
        fs.writeFileSync(big, Buffer.alloc(2 * 1024 * 1024));
        expect(readCredentialFile(big, "tokenFile")).toMatchObject({ ok: false, problem: expect.stringContaining("larger than 1 MiB") });
    });
});

describe("the kubeconfig, read as client-go reads it", () => {
    const text = (user: Record<string, unknown>, cluster: Record<string, unknown> = { server: "https://10.0.0.1:6443/" }) =>
        JSON.stringify({ clusters: [{ name: "c", cluster }], users: [{ name: "u", user }], contexts: [{ name: "x", context: { cluster: "c", user: "u" } }], "current-context": "x" });

    it("relative files resolve against its directory; an exec command only when it names a path", () => {
        const ctx = readKubeconfig(text({ "client-certificate": "certs/admin.crt", tokenFile: "/abs/token", exec: { command: "./bin/get-token", apiVersion: "client.authentication.k8s.io/v1" } }, { server: "https://10.0.0.1:6443/", "certificate-authority": "ca.crt" }), undefined, "/home/me/.kube");
        expect(ctx.cluster).toMatchObject({ server: "https://10.0.0.1:6443", caFile: "/home/me/.kube/ca.crt" });
        expect(ctx.user).toMatchObject({ certFile: "/home/me/.kube/certs/admin.crt", tokenFile: "/abs/token", exec: { command: "/home/me/.kube/bin/get-token" } });
        expect(readKubeconfig(text({ exec: { command: "aws", args: ["eks", "get-token"] } }), undefined, "/k").user?.exec?.command).toBe("aws");
    });

    it("says what is malformed, without quoting a credential", () => {
        expect(() => readKubeconfig("a: [", undefined, "/")).toThrow("the kubeconfig is not valid YAML (line 1, column 5)");
        expect(() => readKubeconfig("a: &a [*a, *a]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b]", undefined, "/")).not.toThrow(/Maximum call stack|JavaScript/);
        expect(() => readKubeconfig(text({ token: 5 }), undefined, "/")).toThrow('user "u": token is not a string');
        expect(() => readKubeconfig(text({ exec: { args: [] } }), undefined, "/")).toThrow('user "u": exec has no command');
        expect(() => readKubeconfig(text({}), "other", "/")).toThrow('the kubeconfig has no context "other" (it has: x)');
    });

    it("auth providers: an OIDC id-token that has run out, and the removed GCP and Azure providers, each with what to do", async () => {
        const jwt = (exp: number) => `eyJhbGciOiJub25lIn0.${Buffer.from(JSON.stringify({ exp })).toString("base64url")}.`;
        const resolve = (user: Record<string, unknown>) => resolveCredentials(readKubeconfig(text(user), undefined, "/"), { deadlineMs: 1000, env: {} });
        await expect(resolve({ "auth-provider": { name: "oidc", config: { "id-token": jwt(1_600_000_000) } } })).rejects.toMatchObject({ message: 'user "u": the oidc auth provider\'s id-token expired at 2020-09-13T12:26:40.000Z; mara does not refresh it' });
        const live = await resolve({ "auth-provider": { name: "oidc", config: { "id-token": jwt(4_000_000_000) } } });
        expect(live.headers.authorization).toBe(`Bearer ${jwt(4_000_000_000)}`);
        await expect(resolve({ "auth-provider": { name: "gcp" } })).rejects.toMatchObject({ fix: expect.stringContaining("gke-gcloud-auth-plugin") });
        await expect(resolve({ "auth-provider": { name: "azure" } })).rejects.toMatchObject({ fix: expect.stringContaining("kubelogin") });
    });
});
