/**
 * An interrupted `mara up` (issue 33, item 1), on the real engine and API server: the CLI's whole process group
 * (mara, the Pulumi CLI, the language host, the providers: what a closed terminal or a cancelled CI job ends) is
 * killed with SIGKILL while the first Helm installs run, which leaves a release stuck in `pending-install`, the
 * create of its Release pending in the state and the backend's lock behind. The next `mara up` says what it found,
 * repairs it (the stale lock, the stuck release's records, the pending creates) and converges: every release
 * deployed and a preview with no changes; another team's stuck release of the same name in its own namespace is
 * left as it was.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startCluster, TestCluster } from "./cluster";
import { request } from "./kubeApi";
import { mara, pulumiSandbox, PulumiSandbox, tail } from "./pulumiEnv";
import { airGappedCharts, baseConfig, initStack, TierStack } from "./stack";

let cluster: TestCluster;
let sandbox: PulumiSandbox;
let stack: TierStack;
let charts: string;

beforeAll(async () => {
    cluster = await startCluster();
    sandbox = pulumiSandbox();
    charts = airGappedCharts();
    const { "mara:infraType": _infraType, ...base } = baseConfig(cluster, charts);
    ({ stack } = await initStack(sandbox, `interrupted-${process.pid}`, base));
});

afterAll(async () => {
    stack?.dispose();
    sandbox?.dispose();
    if (charts) fs.rmSync(charts, { recursive: true, force: true });
    await cluster?.stop();
});

/** Helm's release records in the cluster, optionally only those of one status. */
async function helmRecords(status?: string): Promise<{ name: string; namespace: string; status: string; version: number; uid: string }[]> {
    const selector = encodeURIComponent(`owner=helm${status ? `,status=${status}` : ""}`);
    const list = await request<{ items: any[] }>(cluster, "GET", `/api/v1/secrets?labelSelector=${selector}`);
    return list.items.map((s) => ({ name: s.metadata.labels.name, namespace: s.metadata.namespace, status: s.metadata.labels.status, version: Number(s.metadata.labels.version), uid: s.metadata.uid }));
}

/**
 * Starts `mara up --yes` in a process group of its own and kills the whole group with `signal` as soon as
 * `when` holds (polled against the cluster). Resolves with what it printed and whether it was killed; a run that
 * ends by itself first, or a condition that does not hold within `boundMs` (far above normal), is the test's failure.
 */
async function upKilledWhen(when: () => Promise<boolean>, signal: NodeJS.Signals, wholeTree: boolean, boundMs = 10 * 60_000): Promise<{ killed: boolean; output: string; code: number | null; pid: number; survivors: number[] }> {
    const child = spawn(process.execPath, [path.join(ROOT, "bin", "mara.js"), "up", "--stack", stack.name, "--yes"], { cwd: ROOT, env: sandbox.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
    let exited = false;
    const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => ((exited = true), resolve(code))));
    const started = Date.now();
    let killed = false;
    let tree: number[] = [];
    while (!exited && Date.now() - started < boundMs) {
        if (await when().catch(() => false)) {
            // The Pulumi CLI starts its plugins in process groups of their own: a killed runner takes them too.
            tree = wholeTree ? descendants(child.pid!) : [];
            process.kill(-child.pid!, signal);
            for (const pid of tree) killQuietly(pid, signal);
            killed = true;
            break;
        }
        await new Promise((r) => setTimeout(r, 100));
    }
    if (!killed && !exited) process.kill(-child.pid!, "SIGKILL");
    const code = await exit;
    // Nothing of the group may outlive the kill (a provider finishing its install would hide what the kill left);
    // after SIGINT the Pulumi CLI cancels and exits by itself, within seconds normally, within minutes loaded.
    const deadline = Date.now() + 5 * 60_000;
    const alive = () => [child.pid!, ...tree].filter((pid) => running(pid));
    while (Date.now() < deadline && (groupAlive(child.pid!) || alive().length)) await new Promise((r) => setTimeout(r, 200));
    return { killed, output, code, pid: child.pid!, survivors: alive() };
}

/** Every process under `root`, from /proc (Linux, where the tier runs). */
function descendants(root: number): number[] {
    const parents = new Map<number, number[]>();
    for (const entry of fs.readdirSync("/proc")) {
        if (!/^\d+$/.test(entry)) continue;
        try {
            // The command may hold spaces and parentheses: the parent pid is the second field after the last ")".
            const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
            const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
            parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
        } catch {
            // It ended while the list was read.
        }
    }
    const out: number[] = [];
    const walk = (pid: number) => {
        for (const c of parents.get(pid) ?? []) {
            out.push(c);
            walk(c);
        }
    };
    walk(root);
    return out;
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
    try {
        process.kill(pid, signal);
    } catch {
        // Already gone.
    }
}

function running(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return true;
    } catch {
        return false;
    }
}

function groupAlive(pgid: number): boolean {
    try {
        process.kill(-pgid, 0);
        return true;
    } catch {
        return false;
    }
}

/** `pulumi stack export`'s pending operations. */
async function pendingOperations(): Promise<any[]> {
    const r = await stack.pulumi(["stack", "export"]);
    expect(r.code, tail(r)).toBe(0);
    return JSON.parse(r.stdout).deployment?.pending_operations ?? [];
}

describe("an interrupted mara up", () => {
    it("killed (SIGKILL) during the first Helm installs: the next mara up repairs the stuck release, the lock and the state, and converges", async () => {
        // Another team's release stuck in pending-install, of the same name as one of ours, in a namespace of theirs.
        await request(cluster, "POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "team-a" } });
        const theirs = await request(cluster, "POST", "/api/v1/namespaces/team-a/secrets", {
            apiVersion: "v1",
            kind: "Secret",
            type: "helm.sh/release.v1",
            metadata: { name: "sh.helm.release.v1.certmgr.v1", labels: { name: "certmgr", owner: "helm", status: "pending-install", version: "1" } },
            data: { release: Buffer.from("not a real release").toString("base64") },
        });

        const first = await upKilledWhen(async () => (await helmRecords("pending-install")).some((r) => r.namespace !== "team-a"), "SIGKILL", true);
        expect(first.killed, `mara up ended before any Helm install started\n${first.output.slice(-4000)}`).toBe(true);
        expect(groupAlive(first.pid), "a process of the killed run's group is still running").toBe(false);
        expect(first.survivors, "processes of the killed run still running").toEqual([]);

        const stuck = (await helmRecords("pending-install")).filter((r) => r.namespace !== "team-a");
        expect(stuck.length, "the kill left no release in pending-install").toBeGreaterThan(0);
        const pending = await pendingOperations();
        expect(pending.map((p) => p.resource.type)).toContain("kubernetes:helm.sh/v3:Release");

        const second = await mara(["up", "--stack", stack.name, "--yes"], sandbox.env, { timeoutMs: 20 * 60_000 });
        const said = second.stdout + second.stderr;
        // For the report: where the kill fell, and what the repair said.
        console.log(`killed with ${stuck.map((r) => `${r.namespace}/${r.name}`).join(", ")} in pending-install and ${pending.length} pending operation(s); the next mara up took ${second.wallSeconds.toFixed(0)} s and said:\n${second.stderr.split("\n").filter((l) => /interrupted|stuck|import|clear|stale|repaired/i.test(l)).join("\n")}`);
        expect(second.code, tail(second, 80)).toBe(0);
        expect(said).toMatch(/The last run on stack ".+" was interrupted:/);
        expect(said).toMatch(/lock from an interrupted run \(pid \d+ on .+\) is stale/);
        for (const r of stuck) expect(said).toContain(`Helm release ${r.namespace}/${r.name} is stuck in pending-install (revision ${r.version}) and was never deployed`);
        expect(said).toMatch(/kubernetes:helm\.sh\/v3:Release ".+" was being created when the last run stopped/);
        expect(said).toContain("cleared the interrupted operations");

        const records = await helmRecords();
        const ours = records.filter((r) => r.namespace !== "team-a");
        const newest = new Map<string, string>();
        for (const r of ours.sort((a, b) => a.version - b.version)) newest.set(`${r.namespace}/${r.name}`, r.status);
        expect([...newest].filter(([, s]) => s !== "deployed"), "releases not deployed").toEqual([]);
        for (const r of stuck) expect(newest.get(`${r.namespace}/${r.name}`)).toBe("deployed");
        // Theirs is untouched: the same record, the same status.
        expect(records.filter((r) => r.namespace === "team-a")).toEqual([{ name: "certmgr", namespace: "team-a", status: "pending-install", version: 1, uid: theirs.metadata.uid }]);
        expect(await pendingOperations()).toEqual([]);

        const preview = await stack.pulumi(["preview", "--expect-no-changes"], 10 * 60_000);
        expect(preview.code, tail(preview)).toBe(0);
    });

    it("interrupted with SIGINT (Ctrl-C: the terminal's process group, not the plugins') during a Helm upgrade: the next mara up converges", async () => {
        await stack.set("mara:ingressReplicas", "3");
        const first = await upKilledWhen(async () => (await helmRecords("pending-upgrade")).length > 0, "SIGINT", false);
        expect(first.killed, `mara up ended before the upgrade started\n${first.output.slice(-4000)}`).toBe(true);
        expect(groupAlive(first.pid), "the interrupted run's group did not end within its bound").toBe(false);
        const left = (await helmRecords()).filter((r) => r.namespace === "nginx-ingress").map((r) => `v${r.version} ${r.status}`);
        const pending = await pendingOperations();

        const second = await mara(["up", "--stack", stack.name, "--yes"], sandbox.env, { timeoutMs: 20 * 60_000 });
        console.log(`after SIGINT: kic's records ${left.join(", ")}, ${pending.length} pending operation(s), exit ${first.code}; the next mara up took ${second.wallSeconds.toFixed(0)} s and said:\n${second.stderr.split("\n").filter((l) => /interrupted|stuck|import|clear|stale|repaired|rolling/i.test(l)).join("\n")}`);
        expect(second.code, tail(second, 80)).toBe(0);
        const newest = new Map<string, { status: string; version: number }>();
        for (const r of await helmRecords()) if (r.namespace !== "team-a" && (newest.get(`${r.namespace}/${r.name}`)?.version ?? 0) < r.version) newest.set(`${r.namespace}/${r.name}`, r);
        expect([...newest].filter(([, r]) => r.status !== "deployed"), "releases not deployed").toEqual([]);
        const controller = await request(cluster, "GET", "/apis/apps/v1/namespaces/nginx-ingress/deployments?labelSelector=" + encodeURIComponent("app.kubernetes.io/instance=kic"));
        expect(controller.items.map((d: any) => d.spec.replicas)).toContain(3);
        expect(await pendingOperations()).toEqual([]);
        const preview = await stack.pulumi(["preview", "--expect-no-changes"], 10 * 60_000);
        expect(preview.code, tail(preview)).toBe(0);
    });
});
