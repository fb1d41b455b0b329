/**
 * An interrupted `mara up` (issue 33, item 1), on the real engine and API server. A first deploy is killed three
 * times, each time with SIGKILL to the CLI's whole process group (mara, the Pulumi CLI, the language host, the
 * providers: what a closed terminal or a cancelled CI job ends), at the three points where a run leaves something
 * different behind:
 * 1. while the first Helm installs run: a release stuck in `pending-install`, the creates of its Release (and of
 *    whatever else was under way, the application's first objects among them) pending in the state, the backend's
 *    lock behind;
 * 2. while CRDs and custom resources are applied: the ECK operator's CRDs on the API server (its chart installs
 *    them) and its custom resource, the Elasticsearch cluster, not yet. The charts' other CRDs are no such point in
 *    this stack: the program applies kube-prometheus-stack's and the ingress controller's before any Helm install, and
 *    cert-manager's come with its release, so they exist from kill 1 on;
 * 3. while the application deploys: its Helm releases (the database exporters) installing. Bank of Sirius's workloads
 *    are created from the start of a deploy, beside the platform's (kill 1 already cuts some of them off); its
 *    exporter releases and their ServiceMonitors wait for Prometheus and are the last of the deploy.
 * The kills come one after another on the one stack, as a first deploy interrupted three times: each next `mara up`
 * says what the last kill left, repairs it and goes on (until the next kill), and the last one converges: every
 * release deployed, no pending operation, a preview with no changes. Another team's stuck release of the same name in
 * its own namespace is left as it was throughout.
 *
 * Between kill 1 and the next `mara up`, `pulumi up` is run directly, as a user who does not know `mara` would: it is
 * refused at the stale lock with Pulumi's own message (which names `pulumi cancel`); after that, the program stops the
 * run before anything is deployed with the stuck release and the `mara up` command that repairs it
 * (components/ownership/stuckReleases.ts), where Helm alone would say "cannot re-use a name that is still in use".
 *
 * A second case puts the state as a kill leaves it when it falls after a Helm install finished and before the engine
 * recorded it (too narrow a window to aim a kill at): the next `mara up` removes the release's records and installs it
 * again over the same objects. A third presses Ctrl-C (SIGINT to the terminal's process group, not the plugins') during a Helm upgrade: the
 * next `mara up` rolls the release back and converges.
 *
 * Kill 1 also falls while Bank of Sirius's databases are created: it waits until the state records the create of a
 * StatefulSet under way and the StatefulSet is on the API server (the killed run's apply reached it); an admission
 * policy holds the databases' pods back until then, so that the window lasts (holdPods; the ECK operator's pods are
 * held from before kill 1 to kill 2, which keeps kill 2's window open however late kill 1 falls; kill 3 holds the
 * exporters' pods the same way, and the Ctrl-C the new controller pods, released at once after it so its cancellation
 * can end). The next `mara up` clears that pending create and creates the StatefulSet again; it applies as the field manager the killed run
 * did (components/ownership/fieldManager.ts), so the API server takes it as the same owner's apply rather than a
 * conflict on `.spec.volumeClaimTemplates` (an atomic list it fills with defaults). The StatefulSets keep their UIDs,
 * their claims (the databases' data) theirs, and the stable manager is their only applier at the end.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startCluster, TestCluster } from "./cluster";
import { request } from "./kubeApi";
import { holdPods as holdPodsOn } from "./podHold";
import { mara, pulumiSandbox, PulumiSandbox, STATE_SAVED_AT_EVERY_STEP, STATE_SAVED_AT_THE_END, tail } from "./pulumiEnv";
import { airGappedCharts, baseConfig, initStack, TierStack } from "./stack";

let cluster: TestCluster;
let sandbox: PulumiSandbox;
let stack: TierStack;
let charts: string;
/**
 * For the runs no kill falls in (each case's last `mara up`): nothing reads their state before they end, and the engine
 * saves it when they end, so they save it once, as every other file of the tier does. Each killed run, and the run
 * each kill cuts short, keeps the state saved after every step.
 */
let convergingEnv: NodeJS.ProcessEnv;

beforeAll(async () => {
    cluster = await startCluster();
    // It reads the state a killed run left: the state saved after every step, as a user's run saves it.
    sandbox = pulumiSandbox(STATE_SAVED_AT_EVERY_STEP);
    convergingEnv = { ...sandbox.env, ...STATE_SAVED_AT_THE_END };
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
 * `when` holds (polled against the cluster and what the run printed so far). Resolves with what it printed and whether it was killed; a run that
 * ends by itself first, or a condition that does not hold within `boundMs` (far above normal), is the test's failure.
 * `afterSignal` runs right after the signal is sent, before the group's end is awaited: a hold a SIGINT'd run must see
 * lifted to finish its cancellation is released there.
 */
async function upKilledWhen(
    when: (output: string) => Promise<boolean>,
    signal: NodeJS.Signals,
    wholeTree: boolean,
    boundMs = 10 * 60_000,
    afterSignal?: () => Promise<void>,
): Promise<{ killed: boolean; output: string; code: number | null; pid: number; survivors: number[] }> {
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
        if (await when(output).catch(() => false)) {
            // The Pulumi CLI starts its plugins in process groups of their own: a killed runner takes them too.
            tree = wholeTree ? descendants(child.pid!) : [];
            process.kill(-child.pid!, signal);
            for (const pid of tree) killQuietly(pid, signal);
            killed = true;
            await afterSignal?.();
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

/** The newest revision of each of our releases (another team's in team-a aside), by `<namespace>/<name>`. */
async function newestOfOurs(): Promise<Map<string, { status: string; version: number }>> {
    const newest = new Map<string, { status: string; version: number }>();
    for (const r of await helmRecords()) if (r.namespace !== "team-a" && (newest.get(`${r.namespace}/${r.name}`)?.version ?? 0) < r.version) newest.set(`${r.namespace}/${r.name}`, r);
    return newest;
}

/** Whether a custom resource of `plural` (`<group>/<version>`) exists in `namespace`; false when its CRD does not. */
async function anyObject(groupVersion: string, plural: string, namespace: string): Promise<boolean> {
    try {
        return (await request(cluster, "GET", `/apis/${groupVersion}/namespaces/${namespace}/${plural}`)).items.length > 0;
    } catch {
        return false;
    }
}

async function crdExists(name: string): Promise<boolean> {
    try {
        await request(cluster, "GET", `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
        return true;
    } catch {
        return false;
    }
}

const STATEFUL_SET = "kubernetes:apps/v1:StatefulSet";

/**
 * The pending operations of the running update, as it writes them: read from the local backend's state file, which
 * the engine rewrites at each step (a poll through `pulumi stack export` takes a second or more, longer than some
 * creates are under way); `pulumi stack export` when the file cannot be read.
 */
async function pendingNow(): Promise<any[]> {
    try {
        return JSON.parse(fs.readFileSync(stateFile(), "utf8")).checkpoint?.latest?.pending_operations ?? [];
    } catch {
        return pendingOperations();
    }
}

/** The local backend's state file of the stack, which the engine rewrites at each step. */
const stateFile = () => path.join(sandbox.dir, "state", ".pulumi", "stacks", "mara", `${stack.name}.json`);

/** Whether the running update has operations under way: a kill then cuts work off. */
async function workUnderWay(): Promise<boolean> {
    return (await pendingNow()).length > 0;
}

/** The application's StatefulSets on the API server, by name. */
async function statefulSets(): Promise<Map<string, any>> {
    const list = await request<{ items: any[] }>(cluster, "GET", `/apis/apps/v1/namespaces/bos/statefulsets`);
    return new Map(list.items.map((o) => [o.metadata.name, o]));
}

/** The claims in the application's namespace, by name. */
async function claims(): Promise<Map<string, any>> {
    const list = await request<{ items: any[] }>(cluster, "GET", `/api/v1/namespaces/bos/persistentvolumeclaims`);
    return new Map(list.items.map((o) => [o.metadata.name, o]));
}

/**
 * Whether a StatefulSet's create is under way in the state and the StatefulSet is on the API server: the killed run's
 * apply reached it, and the next run must take over what it made.
 */
async function statefulSetCreateUnderWay(): Promise<boolean> {
    const made = await statefulSets();
    if (made.size === 0) return false;
    return (await pendingNow()).some((p) => p.type === "creating" && p.resource?.type === STATEFUL_SET && made.has(p.resource?.inputs?.metadata?.name));
}

/** The claims of `names`, once the StatefulSet controller has made them all (within a bound far above normal). */
async function waitForClaims(names: readonly string[], boundMs = 2 * 60_000): Promise<Map<string, any>> {
    const deadline = Date.now() + boundMs;
    for (;;) {
        const found = await claims();
        if (names.every((n) => found.has(n))) return new Map(names.map((n) => [n, found.get(n)]));
        if (Date.now() > deadline) throw new Error(`the StatefulSet controller made no claim ${names.filter((n) => !found.has(n)).join(", ")} within ${boundMs / 1000} s (it has ${[...found.keys()].join(", ") || "none"})`);
        await new Promise((r) => setTimeout(r, 500));
    }
}

/** {@link holdPodsOn} on this file's cluster. */
const holdPods = (name: string, namespace: string, ownerKind: string, labels: Record<string, string> = {}) => holdPodsOn(cluster, name, namespace, ownerKind, labels);

/** The lines of what `mara up` printed that say what the recovery found and did. */
const recoveryLines = (output: string) =>
    output
        .slice(Math.max(0, output.indexOf("The last run on stack")))
        .split("\n")
        .filter((l) => /^(The last run|The stack's lock|  - |  ✓ |  Checking )/.test(l))
        .join("\n");

/** Pulumi's first line of an update: what `mara up` prints once its recovery is done. */
const UPDATING = /^Updating \(/m;

/** What the next `mara up` must say about the pending operations and stuck releases a kill left. */
function expectFound(said: string, pending: readonly any[], stuck: readonly { namespace: string; name: string; version: number }[], staleLock = true): void {
    expect(said).toMatch(/The last run on stack ".+" was interrupted:/);
    if (staleLock) expect(said).toMatch(/lock from an interrupted run \(pid \d+ on .+\) is stale/);
    for (const p of pending) expect(said).toContain(`${p.resource.type} "${p.resource.urn.slice(p.resource.urn.lastIndexOf("::") + 2)}" was being created when the last run stopped`);
    for (const r of stuck) expect(said).toContain(`Helm release ${r.namespace}/${r.name} is stuck in pending-install (revision ${r.version}) and was never deployed: removing its Helm records`);
    expect(said).toContain("cleared the interrupted operations");
}

describe("an interrupted mara up", () => {
    it("killed (SIGKILL) during the first Helm installs, while CRDs and custom resources are applied, and while the app deploys: each next mara up repairs what the kill left; pulumi up run directly names mara up; the last converges", async () => {
        // Another team's release stuck in pending-install, of the same name as one of ours, in a namespace of theirs.
        await request(cluster, "POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "team-a" } });
        const theirs = await request(cluster, "POST", "/api/v1/namespaces/team-a/secrets", {
            apiVersion: "v1",
            kind: "Secret",
            type: "helm.sh/release.v1",
            metadata: { name: "sh.helm.release.v1.certmgr.v1", labels: { name: "certmgr", owner: "helm", status: "pending-install", version: "1" } },
            data: { release: Buffer.from("not a real release").toString("base64") },
        });
        // For the report: where each kill fell, and what came next.
        const report = (text: string) => console.log(text);

        // The ECK operator's pods held back until kill 2: its install stays pending with its CRDs applied, so the
        // Elasticsearch cluster (created once the operator is ready) cannot come before kill 2, however late kill 1 falls.
        const releaseEckOperator = await holdPods("hold-eck-operator-pods", "logstore", "StatefulSet", { "app.kubernetes.io/name": "elastic-operator" });

        // Kill 1: the first Helm installs, while the databases' StatefulSets are created (their pods held back until then).
        const releaseDatabases = await holdPods("hold-database-pods", "bos", "StatefulSet");
        const first = await upKilledWhen(async () => (await helmRecords("pending-install")).some((r) => r.namespace !== "team-a") && (await statefulSetCreateUnderWay()), "SIGKILL", true);
        await releaseDatabases();
        expect(first.killed, `mara up ended before any Helm install started with a StatefulSet's create under way\n${first.output.slice(-4000)}`).toBe(true);
        expect(groupAlive(first.pid), "a process of the killed run's group is still running").toBe(false);
        expect(first.survivors, "processes of the killed run still running").toEqual([]);
        const stuck1 = (await helmRecords("pending-install")).filter((r) => r.namespace !== "team-a");
        expect(stuck1.length, "the kill left no release in pending-install").toBeGreaterThan(0);
        const pending1 = await pendingOperations();
        expect(pending1.map((p) => p.resource.type)).toContain("kubernetes:helm.sh/v3:Release");
        expect(pending1.filter((p) => p.type === "creating").map((p) => p.resource.type)).toContain(STATEFUL_SET);
        // The StatefulSets as the kill left them, and their claims: the controller (not killed) makes one per
        // StatefulSet from its template, and the data on them must outlive the recovery.
        const setsAfterKill = await statefulSets();
        const claimsAfterKill = await waitForClaims([...setsAfterKill.keys()].map((n) => `data-${n}-0`));

        // pulumi up run directly: refused at the stale lock with Pulumi's own words; once the lock is gone (pulumi
        // cancel, as those words say), stopped by the program before it deploys anything, naming mara up.
        const left = (await helmRecords()).filter((r) => r.namespace !== "team-a");
        const locked = await stack.pulumi(["up", "--yes", "--skip-preview"], 10 * 60_000);
        expect(locked.code, tail(locked)).not.toBe(0);
        expect(locked.stdout + locked.stderr).toMatch(/the stack is currently locked by 1 lock\(s\).*`pulumi cancel`/);
        const cancel = await stack.pulumi(["cancel", "--yes"]);
        expect(cancel.code, tail(cancel)).toBe(0);
        const direct = await stack.pulumi(["up", "--yes", "--skip-preview"], 10 * 60_000);
        const directSaid = direct.stdout + direct.stderr;
        report(`pulumi up run directly after kill 1 (exit ${direct.code}, ${direct.wallSeconds.toFixed(0)} s) said:\n${directSaid.split("\n").filter((l) => /stuck|mara up|another operation|re-use|error:/i.test(l) && !/ running /.test(l)).join("\n")}`);
        expect(direct.code, tail(direct)).not.toBe(0);
        expect(directSaid).toContain(`Run \`npx mara up --stack ${stack.name}\`: it repairs what an interrupted run left`);
        for (const r of stuck1) expect(directSaid).toContain(`  - ${r.namespace}/${r.name} is stuck in pending-install (revision ${r.version})`);
        // A message of the program's, not a crash: no stack trace, and Helm was never asked.
        expect(directSaid).not.toMatch(/unhandled exception|error serializing|\n\s+at .+\(.+:\d+:\d+\)/);
        expect(directSaid).toMatch(/error: Helm release\(s\) of this stack on https:\/\/127\.0\.0\.1:\d+ are stuck from an interrupted run/);
        expect(directSaid).not.toContain("cannot re-use a name that is still in use");
        // It deployed nothing: the same Helm records as the kill left, and the same pending operations.
        expect((await helmRecords()).filter((r) => r.namespace !== "team-a")).toEqual(left);
        expect((await pendingOperations()).map((p) => p.resource.urn).sort()).toEqual(pending1.map((p) => p.resource.urn).sort());

        // Kill 2: the next mara up repairs kill 1, and is killed while the ECK operator's CRDs exist but its Elasticsearch does not.
        const second = await upKilledWhen(async (output) => UPDATING.test(output) && (await crdExists("elasticsearches.elasticsearch.k8s.elastic.co")) && !(await anyObject("elasticsearch.k8s.elastic.co/v1", "elasticsearches", "logstore")) && (await workUnderWay()), "SIGKILL", true);
        await releaseEckOperator();
        report(`kill 1 left ${stuck1.map((r) => `${r.namespace}/${r.name}`).join(", ")} in pending-install and ${pending1.length} pending operation(s); the next mara up said:\n${recoveryLines(second.output)}`);
        expect(second.killed, `mara up ended before the ECK CRDs were applied\n${second.output.slice(-4000)}`).toBe(true);
        expect(second.survivors, "processes of the killed run still running").toEqual([]);
        // pulumi up's own run ended and released the lock: no stale lock this time.
        expectFound(second.output, pending1.filter((p) => p.type === "creating"), stuck1, false);
        expect(await anyObject("elasticsearch.k8s.elastic.co/v1", "elasticsearches", "logstore"), "the Elasticsearch was created before the kill").toBe(false);
        const pending2 = await pendingOperations();
        const stuck2 = (await helmRecords("pending-install")).filter((r) => r.namespace !== "team-a");

        // Kill 3: the next mara up repairs kill 2, and is killed while the application's Helm releases install.
        const appNamespace = "bos";
        // The database exporters' pods held back until then, so that their installs stay pending until the kill.
        const releaseExporters = await holdPods("hold-exporter-pods", appNamespace, "ReplicaSet", { "app.kubernetes.io/name": "prometheus-postgres-exporter" });
        const third = await upKilledWhen(async (output) => UPDATING.test(output) && (await helmRecords("pending-install")).some((r) => r.namespace === appNamespace) && (await workUnderWay()), "SIGKILL", true, 15 * 60_000);
        await releaseExporters();
        report(`kill 2 left ${stuck2.map((r) => `${r.namespace}/${r.name}`).join(", ") || "no release"} in pending-install and ${pending2.length} pending operation(s) (${pending2.map((p) => p.resource.type.split(":").pop()).join(", ")}); the next mara up said:\n${recoveryLines(third.output)}`);
        expect(third.killed, `mara up ended before the application's releases installed\n${third.output.slice(-4000)}`).toBe(true);
        expect(third.survivors, "processes of the killed run still running").toEqual([]);
        expectFound(third.output, pending2.filter((p) => p.type === "creating"), stuck2);
        const pending3 = await pendingOperations();
        const stuck3 = (await helmRecords("pending-install")).filter((r) => r.namespace !== "team-a");
        expect(stuck3.filter((r) => r.namespace === appNamespace).length, "the kill left no release of the application in pending-install").toBeGreaterThan(0);

        // The last mara up repairs kill 3 and converges.
        const last = await mara(["up", "--stack", stack.name, "--yes"], convergingEnv, { timeoutMs: 20 * 60_000 });
        report(`kill 3 left ${stuck3.map((r) => `${r.namespace}/${r.name}`).join(", ")} in pending-install and ${pending3.length} pending operation(s) (${pending3.map((p) => p.resource.type.split(":").pop()).join(", ")}); the last mara up took ${last.wallSeconds.toFixed(0)} s and said:\n${recoveryLines(last.stderr)}`);
        expect(last.code, tail(last, 80)).toBe(0);
        expectFound(last.stdout + last.stderr, pending3.filter((p) => p.type === "creating"), stuck3);

        const newest = await newestOfOurs();
        expect([...newest].filter(([, r]) => r.status !== "deployed"), "releases not deployed").toEqual([]);
        for (const r of [...stuck1, ...stuck2, ...stuck3]) expect(newest.get(`${r.namespace}/${r.name}`)?.status).toBe("deployed");
        expect(await anyObject("elasticsearch.k8s.elastic.co/v1", "elasticsearches", "logstore")).toBe(true);
        // Theirs is untouched: the same record, the same status.
        expect((await helmRecords()).filter((r) => r.namespace === "team-a")).toEqual([{ name: "certmgr", namespace: "team-a", status: "pending-install", version: 1, uid: theirs.metadata.uid }]);
        expect(await pendingOperations()).toEqual([]);

        // The StatefulSets cut off by kill 1 were taken over, not made again, and their claims kept: the same UIDs.
        const setsAtEnd = await statefulSets();
        expect([...setsAtEnd.keys()].sort()).toEqual(["accounts-db", "ledger-db"]);
        for (const [name, set] of setsAfterKill) {
            expect(setsAtEnd.get(name)?.metadata.uid, `StatefulSet ${name}`).toBe(set.metadata.uid);
            // One applier left: the stable manager (no manager of a killed run beside it).
            const appliers = setsAtEnd.get(name).metadata.managedFields.filter((f: any) => f.operation === "Apply").map((f: any) => f.manager);
            expect(appliers, `StatefulSet ${name}'s server-side appliers`).toEqual([`mara-bank-of-sirius-${name}`]);
        }
        const claimsAtEnd = await claims();
        for (const [name, claim] of claimsAfterKill) {
            expect(claimsAtEnd.get(name)?.metadata.uid, `claim ${name}`).toBe(claim.metadata.uid);
            expect(claimsAtEnd.get(name)?.status?.phase, `claim ${name}`).toBe("Bound");
        }

        const preview = await stack.pulumi(["preview", "--expect-no-changes"], 10 * 60_000);
        expect(preview.code, tail(preview)).toBe(0);
    });

    it("a release an interrupted create installed but the state never recorded: the next mara up removes its Helm records and installs it again over the same objects", async () => {
        // The kill that leaves this falls between Helm's last write and the engine's record of the create: too narrow to
        // aim at (a rehearsal's kill 2 once fell there, and the engine's own --import-pending-creates then dropped the
        // release, cli/operation/recovery/interrupted.ts). So the state is put as that kill leaves it: a Release turned back into a
        // pending create, Helm's records as they are. What depends on it (the teardown's drain, a custom resource of its
        // chart's CRDs) is not yet created at that point; here it is, and its edges to the release go with it.
        const checkpoint = JSON.parse(fs.readFileSync(stateFile(), "utf8"));
        const latest = checkpoint.checkpoint.latest;
        const releases = latest.resources.filter((r: any) => r.type === "kubernetes:helm.sh/v3:Release");
        const dependents = (urn: string) => latest.resources.filter((r: any) => (r.dependencies ?? []).includes(urn) || Object.values(r.propertyDependencies ?? {}).some((d: any) => d.includes(urn)));
        const structural = (urn: string) => latest.resources.some((r: any) => r.parent === urn || r.deletedWith === urn);
        const leaf = releases.filter((r: any) => !structural(r.urn)).sort((a: any, b: any) => dependents(a.urn).length - dependents(b.urn).length)[0];
        expect(leaf, "a Helm release that is no resource's parent").toBeDefined();
        for (const r of dependents(leaf.urn)) {
            r.dependencies = r.dependencies?.filter((u: string) => u !== leaf.urn);
            for (const [k, d] of Object.entries(r.propertyDependencies ?? {})) r.propertyDependencies[k] = (d as string[]).filter((u) => u !== leaf.urn);
        }
        const { name, namespace } = leaf.outputs;
        const recordsBefore = (await helmRecords()).filter((r) => r.name === name && r.namespace === namespace);
        const newestBefore = recordsBefore.reduce((a, b) => (a.version > b.version ? a : b));
        expect(newestBefore.status).toBe("deployed");
        // What the release made, by Helm's marks: kept, not made again.
        const made = async () => {
            const found = new Map<string, string>();
            for (const kind of ["api/v1/namespaces/NS/serviceaccounts", "api/v1/namespaces/NS/services", "apis/apps/v1/namespaces/NS/deployments"]) {
                const list = await request<{ items: any[] }>(cluster, "GET", `/${kind.replace("NS", namespace)}`);
                for (const o of list.items) if (o.metadata.annotations?.["meta.helm.sh/release-name"] === name) found.set(`${kind.split("/").pop()}/${o.metadata.name}`, o.metadata.uid);
            }
            return found;
        };
        const madeBefore = await made();
        expect(madeBefore.size, `release ${namespace}/${name} made no ServiceAccount, Service or Deployment to follow`).toBeGreaterThan(0);
        const { id: _id, outputs: _outputs, ...pendingResource } = leaf;
        latest.resources = latest.resources.filter((r: any) => r !== leaf);
        latest.pending_operations = [{ resource: pendingResource, type: "creating" }];
        fs.writeFileSync(stateFile(), JSON.stringify(checkpoint));

        const next = await mara(["up", "--stack", stack.name, "--yes"], convergingEnv, { timeoutMs: 15 * 60_000 });
        console.log(`a release installed but never recorded (${namespace}/${name}); the next mara up took ${next.wallSeconds.toFixed(0)} s and said:\n${recoveryLines(next.stderr)}`);
        expect(next.code, tail(next, 80)).toBe(0);
        expect(next.stderr).toContain(`Helm release ${namespace}/${name} was installed (revision ${newestBefore.version}, deployed) but the state never recorded it: removing its Helm records`);
        expect(next.stdout + next.stderr).not.toContain("cannot re-use a name that is still in use");
        // Installed again (Helm's history starts over), over the same objects; the state records it.
        const recordsAfter = (await helmRecords()).filter((r) => r.name === name && r.namespace === namespace);
        expect(recordsAfter.map((r) => [r.version, r.status])).toEqual([[1, "deployed"]]);
        expect(recordsBefore.map((r) => r.uid)).not.toContain(recordsAfter[0]!.uid);
        expect(await made()).toEqual(madeBefore);
        expect(await pendingOperations()).toEqual([]);
        const preview = await stack.pulumi(["preview", "--expect-no-changes"], 10 * 60_000);
        expect(preview.code, tail(preview)).toBe(0);
    });

    it("interrupted with SIGINT (Ctrl-C: the terminal's process group, not the plugins') during a Helm upgrade: the next mara up converges", async () => {
        await stack.set("mara:ingressReplicas", "3");
        // The upgrade waits for the new replicas, whose pods are held back until the Ctrl-C, as kills 1 and 3 hold theirs;
        // released right after it, so that the CLI's cancellation does not wait on the hold.
        const releaseController = await holdPods("hold-controller-pods", "nginx-ingress", "ReplicaSet", { "app.kubernetes.io/instance": "kic" });
        const first = await upKilledWhen(async () => (await helmRecords("pending-upgrade")).length > 0, "SIGINT", false, 10 * 60_000, releaseController);
        expect(first.killed, `mara up ended before the upgrade started\n${first.output.slice(-4000)}`).toBe(true);
        expect(groupAlive(first.pid), "the interrupted run's group did not end within its bound").toBe(false);
        const left = (await helmRecords()).filter((r) => r.namespace === "nginx-ingress").map((r) => `v${r.version} ${r.status}`);
        const pending = await pendingOperations();

        const second = await mara(["up", "--stack", stack.name, "--yes"], convergingEnv, { timeoutMs: 20 * 60_000 });
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
