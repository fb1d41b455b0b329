/**
 * Exec credential plugins (client.authentication.k8s.io) as `mara doctor` runs them: small shell scripts written here
 * stand in for `aws eks get-token` and its kind — one that works (and checks what client-go hands a plugin), and ones
 * that fail, print garbage, print something other than an ExecCredential, print an expired credential, print without
 * end, are not installed or not executable, or ask for a terminal. Each gets its own message, naming the command
 * (never its arguments, which may hold a key), with the end of its standard error hidden where it looks like a token.
 * A plugin that never exits is stopped at its deadline, its children with it, and the process ends: run as users run
 * it, in a child process with a kill timer.
 */
import * as fs from "fs";
import * as path from "path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { EXEC_PLUGIN_MAX_BYTES, EXEC_PLUGIN_TIMEOUT_MS } from "../../cli/kube/execPlugin";
import { hostileServer, HostileServer, kubernetesAnswer } from "../support/hostileServer";
import { kubeconfigFile, removeKubeconfigDirs, tempDir, TEST_TOKEN } from "./support/kubeconfigFor";
import { JS_TEXT, maraProcess } from "./support/maraProcess";
import { runMara } from "./support/io";
import { makeStandin } from "./support/standin";

let server: HostileServer | undefined;
afterEach(async () => {
    await server?.close();
    server = undefined;
    removeKubeconfigDirs();
});

const PLUGIN_TOKEN = "plugin-issued-token-0123456789abcdef";

/** A new API server that accepts only the plugin's token. */
function pluginCluster(): Promise<HostileServer> {
    return hostileServer((m, p, headers) => (headers.authorization === `Bearer ${PLUGIN_TOKEN}` ? kubernetesAnswer(m, p) : { kind: "json", status: 401, body: { kind: "Status", message: "Unauthorized" } }));
}

/** The test's API server, closed after it. */
async function cluster(): Promise<HostileServer> {
    server = await pluginCluster();
    return server;
}

/** Writes `script` as an executable shell script in `dir`; returns its path. */
function plugin(dir: string, script: string, name = "get-token"): string {
    const file = path.join(dir, name);
    fs.writeFileSync(file, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
    return file;
}

const credential = (status: Record<string, unknown>, apiVersion = "client.authentication.k8s.io/v1") => JSON.stringify({ apiVersion, kind: "ExecCredential", status });

/** A kubeconfig in `dir` whose user runs `exec`. */
function withPlugin(s: HostileServer, dir: string, exec: Record<string, unknown>): string {
    return kubeconfigFile({ server: s.url, user: { exec: { apiVersion: "client.authentication.k8s.io/v1", interactiveMode: "Never", args: ["--key", "argument-secret-0123456789"], ...exec } } }, dir);
}

interface Report {
    findings: { id: string; verdict: string; detail: string; fix?: string }[];
}

async function doctor(file: string, cwd?: string): Promise<{ code: number; credentials: Report["findings"][number]; reachable: Report["findings"][number] }> {
    const r = await runMara(["doctor", "--kubeconfig", file, "--json"], cwd ? { cwd } : {});
    const all = `${r.stdout}${r.stderr}`;
    expect(all).not.toMatch(JS_TEXT);
    for (const secret of [TEST_TOKEN, PLUGIN_TOKEN, "argument-secret-0123456789"]) expect(all).not.toContain(secret);
    const report = JSON.parse(r.stdout) as Report;
    return { code: r.code, credentials: report.findings.find((f) => f.id === "credentials")!, reachable: report.findings.find((f) => f.id === "reachable")! };
}

describe("a plugin that works", () => {
    it("gets what client-go gives a plugin (KUBERNETES_EXEC_INFO, the entry's env), and its token is what the requests carry", async () => {
        const s = await cluster();
        const dir = tempDir();
        const cmd = plugin(
            dir,
            [
                `case "$KUBERNETES_EXEC_INFO" in *'"kind":"ExecCredential"'*'"interactive":false'*) ;; *) echo "no exec info: $KUBERNETES_EXEC_INFO" >&2; exit 9;; esac`,
                `[ "$REGION" = "eu-west-1" ] || { echo "no REGION" >&2; exit 8; }`,
                `echo '${credential({ token: PLUGIN_TOKEN, expirationTimestamp: "2099-01-01T00:00:00Z" })}'`,
            ].join("\n"),
        );
        const { code, reachable, credentials } = await doctor(withPlugin(s, dir, { command: cmd, env: [{ name: "REGION", value: "eu-west-1" }] }));
        expect(reachable.verdict).toBe("pass");
        expect(credentials).toMatchObject({ verdict: "pass", detail: expect.stringContaining("exec plugin") });
        expect(code).toBe(0);
    }, 120_000);

    it("a command written as a relative path runs from the kubeconfig's directory, as client-go resolves it", async () => {
        const s = await cluster();
        const dir = tempDir();
        plugin(dir, `echo '${credential({ token: PLUGIN_TOKEN })}'`, "token.sh");
        const { reachable } = await doctor(withPlugin(s, dir, { command: "./token.sh" }), tempDir());
        expect(reachable.verdict).toBe("pass");
    });
});

describe("a plugin that gives no credential: exit 7, the credentials finding says why", () => {
    const cases: [string, string, Record<string, unknown>, string, string?][] = [
        ["exits with an error: the end of what it said, a token in it hidden", `echo "loading profile" >&2; echo "error: token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl expired" >&2; exit 3`, {}, "failed (exit code 3); it said: loading profile | error: token [secret] expired"],
        ["prints garbage", `echo "hello, not json"`, {}, 'printed something that is not JSON (it begins "hello, not json"), so not an ExecCredential'],
        ["prints nothing", `exit 0`, {}, "printed something that is not JSON (nothing at all)"],
        ["prints JSON that is not an ExecCredential", `echo '{"token": "x"}'`, {}, 'printed JSON that is not an ExecCredential (no "kind": "ExecCredential")'],
        ["prints another apiVersion than asked", `echo '${credential({ token: PLUGIN_TOKEN }, "client.authentication.k8s.io/v1beta1")}'`, {}, 'printed an ExecCredential of apiVersion "client.authentication.k8s.io/v1beta1", but the kubeconfig asks for client.authentication.k8s.io/v1'],
        ["prints no status", `echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential"}'`, {}, "printed an ExecCredential without a status"],
        ["prints neither token nor certificate", `echo '${credential({})}'`, {}, "printed an ExecCredential with neither a token nor a client certificate and key"],
        ["prints a certificate without its key", `echo '${credential({ clientCertificateData: "-----BEGIN CERTIFICATE-----" })}'`, {}, "printed only a client certificate, not both"],
        ["prints a token HTTP cannot carry (a line break in it): nothing is sent", `cat <<'END'\n{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"abc\\ndef"}}\nEND`, {}, "__sent__"],
        ["prints a credential that has expired", `echo '${credential({ token: PLUGIN_TOKEN, expirationTimestamp: "2020-01-01T00:00:00Z" })}'`, {}, "printed a credential that expired at 2020-01-01T00:00:00.000Z", "log in again"],
        ["prints an expiry that is not a time", `echo '${credential({ token: PLUGIN_TOKEN, expirationTimestamp: "soon" })}'`, {}, "printed an expirationTimestamp that is not a time"],
        ["prints without end", `head -c ${EXEC_PLUGIN_MAX_BYTES * 3} /dev/zero`, {}, `printed more than ${EXEC_PLUGIN_MAX_BYTES / 1024 / 1024} MiB, which is no credential; it was stopped`],
        ["is configured with a removed apiVersion", `echo never`, { apiVersion: "client.authentication.k8s.io/v1alpha1" }, 'asks for ExecCredential apiVersion "client.authentication.k8s.io/v1alpha1", which kubectl no longer runs'],
        ["asks for a terminal", `touch ran; echo never`, { interactiveMode: "Always" }, "asks for a terminal (interactiveMode: Always), which mara does not give it", "log in once with kubectl"],
    ];
    it.each(cases)("%s", async (_, script, exec, message, fix) => {
        const s = await cluster();
        const dir = tempDir();
        const cmd = plugin(dir, `cd "$(dirname "$0")"\n${script}`);
        const { code, credentials, reachable } = await doctor(withPlugin(s, dir, { command: cmd, ...exec }));
        expect(code).toBe(7);
        if (message === "__sent__") {
            // The plugin did its part; the request could not carry its token.
            expect(reachable).toMatchObject({ verdict: "fail", detail: expect.stringContaining("a request header (the credentials?) holds characters HTTP does not allow, so nothing was sent") });
            expect(s.requests).toEqual([]);
            return;
        }
        expect(credentials).toMatchObject({ verdict: "fail", detail: expect.stringContaining(`user "admin": the exec credential plugin \`${cmd}\``) });
        expect(credentials.detail).toContain(message);
        if (fix) expect(credentials.fix).toContain(fix);
        expect(reachable).toMatchObject({ verdict: "skip" });
        expect(s.requests).toEqual([]);
        expect(fs.existsSync(path.join(dir, "ran"))).toBe(false);
    });

    it("is not installed: the kubeconfig's installHint is the fix", async () => {
        const s = await cluster();
        const { code, credentials } = await doctor(withPlugin(s, tempDir(), { command: "mara-test-no-such-plugin", installHint: "brew install mara-test-no-such-plugin" }));
        expect(code).toBe(7);
        expect(credentials).toMatchObject({ detail: expect.stringContaining("the exec credential plugin `mara-test-no-such-plugin` is not installed (not found on PATH)"), fix: "brew install mara-test-no-such-plugin" });
    });

    it("is not executable", async () => {
        const s = await cluster();
        const dir = tempDir();
        const cmd = plugin(dir, "echo never");
        fs.chmodSync(cmd, 0o644);
        const { credentials } = await doctor(withPlugin(s, dir, { command: cmd }));
        expect(credentials.detail).toContain("cannot be run (permission denied)");
        expect(credentials.fix).toBe(`make it executable: chmod +x ${cmd}`);
    });
});

describe("a plugin that never exits", () => {
    /** A plugin that starts a child holding its output open, records the child's id, and waits for ever. */
    function hangingPlugin(dir: string): string {
        return plugin(dir, `echo "waiting for the browser login" >&2\nsleep 3600 &\necho $! > "${path.join(dir, "child.pid")}"\nwait`);
    }
    /** Whether the process has ended: no such process, or a zombie waiting for a parent that is not us to reap it. */
    const gone = (pid: number) => {
        try {
            process.kill(pid, 0);
        } catch {
            return true;
        }
        const stat = fs.existsSync(`/proc/${pid}/stat`) ? fs.readFileSync(`/proc/${pid}/stat`, "utf8") : "";
        return / Z /.test(stat.slice(stat.lastIndexOf(")")));
    };
    // A safety net, not a measure of speed: only the plugin's deadline can end these runs by themselves, and its message
    // says it did; a run still going after many times the deadline is killed, and fails its test, rather than hanging.
    const killAfterMs = (EXEC_PLUGIN_TIMEOUT_MS * 3 + 30_000) * 2;

    // Both commands wait out the same deadline, so they run at the same time, each in its own process against its own
    // server and plugin; each test then checks its own run. The folders stay until the first test has read its child's id.
    let doctorRun: { run: Awaited<ReturnType<typeof maraProcess>>; childPidFile: string };
    let upRun: { run: Awaited<ReturnType<typeof maraProcess>>; calls: string[] };
    const servers: HostileServer[] = [];
    beforeAll(async () => {
        const ownCluster = async () => {
            const s = await pluginCluster();
            servers.push(s);
            return s;
        };
        const runDoctor = async () => {
            const dir = tempDir();
            const file = withPlugin(await ownCluster(), dir, { command: hangingPlugin(dir) });
            return { run: await maraProcess(["doctor", "--kubeconfig", file], { killAfterMs }), childPidFile: path.join(dir, "child.pid") };
        };
        const runUp = async () => {
            const dir = tempDir();
            const file = withPlugin(await ownCluster(), dir, { command: hangingPlugin(dir) });
            const config = { "mara:infraType": { value: "kubeconfig", secret: false }, "mara:kubeconfig": { value: file, secret: false }, "mara:fqdn": { value: "mara.example.com", secret: false } };
            const standin = makeStandin({ current: "lab", stacks: { lab: { config, outputs: {} } } });
            try {
                const run = await maraProcess(["up", "--yes", "--stack", "lab"], { env: { ...process.env, PATH: standin.path, HOME: standin.home }, killAfterMs });
                return { run, calls: standin.calls().map((c) => c.args[0] ?? "") };
            } finally {
                standin.remove();
            }
        };
        [doctorRun, upRun] = await Promise.all([runDoctor(), runUp()]);
    }, 600_000);
    afterAll(async () => {
        for (const s of servers.splice(0)) await s.close();
    });

    it("mara doctor stops it (and what it started) at its deadline and ends with exit 7", async () => {
        const { run, childPidFile } = doctorRun;
        expect(run.killed, `still running after ${killAfterMs} ms`).toBe(false);
        expect(run.code, run.stderr).toBe(7);
        expect(run.stdout).toContain(`did not finish within ${EXEC_PLUGIN_TIMEOUT_MS / 1000} s and was stopped; it said: waiting for the browser login`);
        expect(run.stdout).toContain("log in once with kubectl");
        expect(`${run.stdout}${run.stderr}`).not.toMatch(JS_TEXT);
        // The plugin's child (an hour's sleep) was killed with its group: it goes, or the test's timeout fails the test.
        const pid = Number(fs.readFileSync(childPidFile, "utf8"));
        while (!gone(pid)) await new Promise((r) => setTimeout(r, 100));
    }, 600_000);

    it("mara up's pre-flight (the doctor) ends too: exit 3, nothing deployed", () => {
        const { run, calls } = upRun;
        expect(run.killed, `still running after ${killAfterMs} ms`).toBe(false);
        expect(run.code, run.stderr).toBe(3);
        expect(run.stderr).toContain("mara doctor (skip with --skip-doctor):");
        expect(run.stderr).toContain(`did not finish within ${EXEC_PLUGIN_TIMEOUT_MS / 1000} s and was stopped`);
        expect(run.stderr).toContain("mara: mara doctor found the cluster unreachable with the stack's kubeconfig (above); nothing was run.");
        expect(run.stderr).not.toMatch(JS_TEXT);
        expect(calls).not.toContain("up");
    });
});
