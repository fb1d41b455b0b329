import { mkdtempSync, rmSync, writeFileSync } from "fs";
import * as http from "http";
import * as https from "https";
import type { AddressInfo } from "net";
import { tmpdir } from "os";
import { join } from "path";
import { Readable } from "stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Input } from "../../cli/kernel/io";
import { parseStackOutputs, verifyApplication } from "../../cli/verify/check";
import { runMara } from "../cli/support/io";

// Special characters on purpose: the form body must be URL-encoded, not concatenated.
const USER = "demo user&x=1";
const PASSWORD = "p&ss=w0rd +%é";

/**
 * A self-signed certificate for 127.0.0.1 and localhost, valid 2000-2100, standing in for the demo
 * ingress's self-signed one. Test-only key: it protects nothing.
 */
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg+hJPKEzMdyFODXeF
+4KxYF8Z4ZJrIMfEqXfelBKnyNWhRANCAAQ8fV42GbSSyAjRBNajWxJ5/urnhz9n
unN6XM5uQag/e1/tZo1IyimTc/hTzbpzN/lvjc+NI0x2b6P1aRJz75+k
-----END PRIVATE KEY-----
`;
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBZTCCAQqgAwIBAgIBATAKBggqhkjOPQQDAjAUMRIwEAYDVQQDDAlsb2NhbGhv
c3QwIBcNMDAwMTAxMDAwMDAwWhgPMjEwMDAxMDEwMDAwMDBaMBQxEjAQBgNVBAMM
CWxvY2FsaG9zdDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABDx9XjYZtJLICNEE
1qNbEnn+6ueHP2e6c3pczm5BqD97X+1mjUjKKZNz+FPNunM3+W+Nz40jTHZvo/Vp
EnPvn6SjSzBJMBoGA1UdEQQTMBGHBH8AAAGCCWxvY2FsaG9zdDAMBgNVHRMBAf8E
AjAAMB0GA1UdDgQWBBRg8T8JiPI0FkmUstV9eAj0/bWH4DAKBggqhkjOPQQDAgNJ
ADBGAiEAvdwZyZGb7+Ruxy8zEgItVYCo+UmhqIZ5uUEsIjeoO3wCIQD+YCMI4UXS
XqllKBxPADmyy3oYfUUgAOG5F5iWnyK/mQ==
-----END CERTIFICATE-----
`;

/** A request as the fake app saw it. */
interface Seen {
    method: string;
    path: string;
    contentType: string | undefined;
    body: string;
}

/** How the fake app answers; each field overrides the real Bank of Sirius behaviour. */
interface Behaviour {
    readiness?: number;
    login?: (form: URLSearchParams, res: http.ServerResponse) => void;
    /** Never answer at all, to exercise the timeout. */
    hang?: boolean;
}

/** The real frontend: 302 to /home with a token for the right login, 302 back to /login otherwise. */
function realLogin(form: URLSearchParams, res: http.ServerResponse): void {
    if (form.get("username") === USER && form.get("password") === PASSWORD) {
        res.writeHead(302, {
            location: "https://bank.example/home",
            "set-cookie": ["token=eyJhbGciOiJSUzI1NiJ9.e30.sig; Max-Age=3600; Path=/", "consent=true; Path=/"],
        });
    } else {
        res.writeHead(302, { location: "/login?msg=Login+Failed" });
    }
    res.end();
}

interface FakeApp {
    url: string;
    seen: Seen[];
}

const servers: http.Server[] = [];
const tempDirs: string[] = [];

async function listen(server: http.Server): Promise<number> {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return (server.address() as AddressInfo).port;
}

function handler(behaviour: Behaviour, seen: Seen[]): http.RequestListener {
    return (req, res) => {
        let body = "";
        req.setEncoding("utf8");
        req.on("data", (chunk: string) => (body += chunk));
        req.on("end", () => {
            seen.push({ method: req.method ?? "", path: req.url ?? "", contentType: req.headers["content-type"], body });
            if (behaviour.hang) return;
            if (req.method === "GET" && req.url === "/z/health/readiness") {
                const status = behaviour.readiness ?? 200;
                res.writeHead(status, { "content-type": "application/json" });
                res.end(JSON.stringify({ status: status === 200 ? "UP" : "DOWN" }));
            } else if (req.method === "POST" && req.url === "/login") {
                (behaviour.login ?? realLogin)(new URLSearchParams(body), res);
            } else {
                res.writeHead(404);
                res.end();
            }
        });
    };
}

async function fakeApp(behaviour: Behaviour = {}): Promise<FakeApp> {
    const seen: Seen[] = [];
    const port = await listen(http.createServer(handler(behaviour, seen)));
    return { url: `http://127.0.0.1:${port}`, seen };
}

async function fakeTlsApp(): Promise<FakeApp> {
    const seen: Seen[] = [];
    const port = await listen(https.createServer({ key: TEST_KEY, cert: TEST_CERT }, handler({}, seen)));
    return { url: `https://127.0.0.1:${port}`, seen };
}

/** A port that was just free: nothing listens there, so connecting is refused. */
async function closedPort(): Promise<number> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
}

const outputs = (url: string, login: unknown = { username: USER, password: PASSWORD }): string =>
    JSON.stringify({ application_url: url, demo_login: login, cluster_name: "mara-dev" });

/** Runs `mara verify` with a fake stdin holding `input`, returning the exit code and what it printed. */
async function run(argv: string[], input: string | Input): Promise<{ code: number; out: string; err: string }> {
    const stdin = typeof input === "string" ? Readable.from(input === "" ? [] : [input]) : input;
    const { code, stdout, stderr } = await runMara(["verify", ...argv], { stdin });
    return { code, out: stdout, err: stderr };
}

let good: FakeApp;
let notReady: FakeApp;
let brokenLogin: FakeApp;
let noToken: FakeApp;
let hanging: FakeApp;
let tls: FakeApp;
let refusedUrl: string;

beforeAll(async () => {
    good = await fakeApp();
    notReady = await fakeApp({ readiness: 503 });
    brokenLogin = await fakeApp({
        login: (_form, res) => {
            res.writeHead(500, { "content-type": "text/plain" });
            res.end("Internal Server Error");
        },
    });
    noToken = await fakeApp({
        login: (_form, res) => {
            res.writeHead(302, { location: "/home" });
            res.end();
        },
    });
    hanging = await fakeApp({ hang: true });
    tls = await fakeTlsApp();
    refusedUrl = `http://127.0.0.1:${await closedPort()}`;
});

afterAll(async () => {
    for (const server of servers) {
        // The hanging server still holds its connections; close() alone would wait for them forever.
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe("verifyApplication", () => {
    it("passes when readiness is 200 and the login redirects to /home with a token", async () => {
        const before = good.seen.length;
        const result = await verifyApplication({ url: good.url, username: USER, password: PASSWORD });
        expect(result).toEqual({ ok: true, message: expect.stringContaining(USER) });
        expect(result.message).not.toContain(PASSWORD);
        expect(good.seen.slice(before).map((s) => `${s.method} ${s.path}`)).toEqual(["GET /z/health/readiness", "POST /login"]);
    });

    it("sends the login as a URL-encoded form, special characters included", async () => {
        const before = good.seen.length;
        await verifyApplication({ url: good.url, username: USER, password: PASSWORD });
        const login = good.seen.slice(before).find((s) => s.method === "POST")!;
        expect(login.contentType).toBe("application/x-www-form-urlencoded");
        expect(login.body).toBe("username=demo+user%26x%3D1&password=p%26ss%3Dw0rd+%2B%25%C3%A9");
        const form = new URLSearchParams(login.body);
        expect([form.get("username"), form.get("password")]).toEqual([USER, PASSWORD]);
    });

    it("accepts an application URL with a trailing slash", async () => {
        const result = await verifyApplication({ url: `${good.url}/`, username: USER, password: PASSWORD });
        expect(result.ok).toBe(true);
    });

    it("reports rejected credentials, without the password", async () => {
        const wrong = `${PASSWORD}-old`;
        const result = await verifyApplication({ url: good.url, username: USER, password: wrong });
        expect(result.ok).toBe(false);
        expect(result.message).toContain("was rejected");
        expect(result.message).toContain('("Login Failed")');
        expect(result.message).toContain("credentials");
        expect(result.message).not.toContain(wrong);
    });

    it("fails a login that redirects to /home without a token cookie", async () => {
        const result = await verifyApplication({ url: noToken.url, username: USER, password: PASSWORD });
        expect(result.ok).toBe(false);
        expect(result.message).toContain("set no token cookie");
    });

    it("reports a readiness 503 and does not try to log in", async () => {
        const result = await verifyApplication({ url: notReady.url, username: USER, password: PASSWORD });
        expect(result.ok).toBe(false);
        expect(result.message).toMatch(/readiness check GET \/z\/health\/readiness answered 503 .*\(status DOWN\).*not ready/);
        expect(notReady.seen.some((s) => s.method === "POST")).toBe(false);
    });

    it("reports another readiness status as a wrong target", async () => {
        const result = await verifyApplication({ url: `${good.url}/elsewhere`, username: USER, password: PASSWORD });
        expect(result.ok).toBe(false);
        expect(result.message).toContain("answered HTTP 404 instead of 200");
    });

    it("reports an unexpected login status", async () => {
        const result = await verifyApplication({ url: brokenLogin.url, username: USER, password: PASSWORD });
        expect(result.ok).toBe(false);
        expect(result.message).toContain("answered HTTP 500; expected a 302 redirect to /home");
    });

    it("reports a refused connection", async () => {
        const result = await verifyApplication({ url: refusedUrl, username: USER, password: PASSWORD });
        expect(result.ok).toBe(false);
        expect(result.message).toContain("connection refused");
        expect(result.message).toContain(new URL(refusedUrl).host);
    });

    it("reports a host that does not resolve", async () => {
        // .invalid is reserved (RFC 6761): resolvers answer at once that it does not exist.
        const result = await verifyApplication({ url: "http://bank.invalid", username: USER, password: PASSWORD });
        expect(result.ok).toBe(false);
        expect(result.message).toMatch(/cannot resolve host "bank\.invalid" \(DNS (ENOTFOUND|EAI_AGAIN)\)/);
    });

    it("times out on a server that never answers", async () => {
        // The server never answers, so only the 0.2 s deadline can produce this verdict (its message says so).
        const result = await verifyApplication({ url: hanging.url, username: USER, password: PASSWORD, timeoutMs: 200 });
        expect(result.ok).toBe(false);
        expect(result.message).toContain("no answer within 0.2 s (timed out)");
    });

    it("rejects a self-signed certificate unless insecure, and suggests --insecure", async () => {
        const strict = await verifyApplication({ url: tls.url, username: USER, password: PASSWORD });
        expect(strict.ok).toBe(false);
        expect(strict.message).toContain("TLS certificate not trusted (DEPTH_ZERO_SELF_SIGNED_CERT");
        expect(strict.message).toContain("--insecure");
        expect(tls.seen).toHaveLength(0);

        const insecure = await verifyApplication({ url: tls.url, username: USER, password: PASSWORD, insecure: true });
        expect(insecure.ok).toBe(true);
    });
});

describe("parseStackOutputs", () => {
    it("reads the URL and the demo login", () => {
        expect(parseStackOutputs(outputs("https://a1b2.elb.us-east-1.amazonaws.com/"))).toEqual({
            url: "https://a1b2.elb.us-east-1.amazonaws.com",
            username: USER,
            password: PASSWORD,
        });
    });

    it("accepts a demo_login exported as JSON text", () => {
        const json = outputs("http://x.example", JSON.stringify({ username: "u", password: "p" }));
        expect(parseStackOutputs(json)).toEqual({ url: "http://x.example", username: "u", password: "p" });
    });

    it("says how to get the outputs when application_url is missing", () => {
        const withoutUrl = JSON.stringify({ demo_login: { username: USER, password: PASSWORD } });
        expect(() => parseStackOutputs(withoutUrl)).toThrow(
            "no application_url in the stack outputs; is the application deployed? Run: pulumi stack output --json --show-secrets | npx mara verify",
        );
        expect(() => parseStackOutputs(outputs(" "))).toThrow("no application_url in the stack outputs");
    });

    it.each([
        ["missing", JSON.stringify({ application_url: "https://x.example" })],
        ["still encrypted", outputs("https://x.example", "[secret]")],
        ["not an object", outputs("https://x.example", 42)],
    ])("says to pass --show-secrets when demo_login is %s", (_case, json) => {
        expect(() => parseStackOutputs(json)).toThrow(
            "demo_login is missing or still encrypted; pass --show-secrets",
        );
    });

    it("names the missing part of demo_login", () => {
        expect(() => parseStackOutputs(outputs("https://x.example", { username: USER }))).toThrow(
            'demo_login has no password; expected {"username": "...", "password": "..."}',
        );
    });

    it("rejects text that is not a JSON object", () => {
        expect(() => parseStackOutputs("Current stack outputs (2):")).toThrow(/^the stack outputs are not JSON \(.*\); run: pulumi stack output --json/);
        expect(() => parseStackOutputs("[]")).toThrow("the stack outputs are not a JSON object");
    });

    it("rejects a URL that is not http or https", () => {
        expect(() => parseStackOutputs(outputs("ftp://files.example"))).toThrow(
            'application_url "ftp://files.example" must start with http:// or https://, not ftp://',
        );
        expect(() => parseStackOutputs(outputs("a1b2.elb.amazonaws.com"))).toThrow('application_url "a1b2.elb.amazonaws.com" is not a valid URL');
    });
});

describe("mara verify", () => {
    it("prints the pass line and exits 0", async () => {
        const { code, out, err } = await run([], outputs(good.url));
        expect({ code, out, err }).toEqual({ code: 0, out: `Application passed health check: ${good.url}\n`, err: "" });
    });

    it("prints the failure reason and exits 1, never showing the password", async () => {
        const { code, out, err } = await run([], outputs(good.url, { username: USER, password: "wrong-one" }));
        expect(code).toBe(1);
        expect(out).toMatch(/^Application failed health check: login POST \/login as "demo user&x=1" was rejected/);
        expect(out.split("\n")).toHaveLength(2);
        expect(`${out}${err}`).not.toContain("wrong-one");
    });

    it("exits 1 with the explanation when application_url is missing", async () => {
        const { code, out } = await run([], JSON.stringify({ demo_login: { username: USER, password: PASSWORD } }));
        expect(code).toBe(1);
        expect(out).toBe(
            "Application failed health check: no application_url in the stack outputs; is the application deployed? Run: pulumi stack output --json --show-secrets | npx mara verify\n",
        );
    });

    it("exits 2 with a hint when stdin is empty", async () => {
        const { code, out, err } = await run([], "");
        expect(code).toBe(2);
        expect(out).toBe("");
        expect(err).toMatch(/^mara: the stack outputs are empty; run: pulumi stack output --json --show-secrets \| npx mara verify/);
    });

    it("exits 2 instead of waiting when stdin is a terminal", async () => {
        const terminal: Input = {
            isTTY: true,
            [Symbol.asyncIterator]: () => {
                throw new Error("read a terminal");
            },
        };
        const { code, err } = await run([], terminal);
        expect(code).toBe(2);
        expect(err).toContain("mara: nothing piped in;");
    });

    it.each([
        [["--bogus"], "error: unknown option '--bogus'"],
        [["--timeout", "soon"], "error: option '--timeout <seconds>' argument 'soon' is invalid. needs a positive number of seconds, at most 600, not \"soon\""],
        [["--timeout", "0"], 'needs a positive number of seconds, at most 600, not "0"'],
        // Past Node's largest timer a deadline would fire at once, with Node's own warning.
        [["--timeout", "601"], 'needs a positive number of seconds, at most 600, not "601"'],
        [["--timeout", "1e12"], 'needs a positive number of seconds, at most 600, not "1e12"'],
        [["--timeout"], "error: option '--timeout <seconds>' argument missing"],
        [["--outputs-file", "/nonexistent/outputs.json"], "mara: cannot read --outputs-file /nonexistent/outputs.json"],
    ])("exits 2 for %j", async (argv, message) => {
        const { code, out, err } = await run(argv, outputs(good.url));
        expect(code).toBe(2);
        expect(out).toBe("");
        expect(err).toContain(message);
    });

    it("reads --outputs-file instead of stdin", async () => {
        const dir = mkdtempSync(join(tmpdir(), "verify-test-"));
        tempDirs.push(dir);
        const file = join(dir, "outputs.json");
        writeFileSync(file, outputs(good.url));
        const { code, out } = await run([`--outputs-file=${file}`], "");
        expect(code).toBe(0);
        expect(out).toBe(`Application passed health check: ${good.url}\n`);
    });

    it("applies --timeout in seconds", async () => {
        const { code, out } = await run(["--timeout", "0.3"], outputs(hanging.url));
        expect(code).toBe(1);
        expect(out).toContain("no answer within 0.3 s (timed out)");
    });

    it("checks certificates by default and skips them only with --insecure, saying so", async () => {
        const strict = await run([], outputs(tls.url));
        expect(strict.code).toBe(1);
        expect(strict.out).toContain("rerun with --insecure");

        const insecure = await run(["--insecure"], outputs(tls.url));
        expect(insecure.code).toBe(0);
        expect(insecure.out).toBe(`Application passed health check: ${tls.url}\n`);
        expect(insecure.err).toBe(`mara: --insecure: not verifying the TLS certificate of ${new URL(tls.url).host}\n`);
        expect(`${strict.out}${strict.err}${insecure.out}${insecure.err}`).not.toContain(PASSWORD);
    });

    it("prints the usage for --help and exits 0", async () => {
        const { code, out } = await run(["--help"], "");
        expect(code).toBe(0);
        expect(out).toContain("--insecure");
    });
});
