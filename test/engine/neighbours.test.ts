/**
 * The platform on a cluster it shares with other teams, by the real engine: nothing of theirs is taken over by
 * `pulumi up`, nor deleted by `pulumi destroy`, whichever way the program is run.
 *
 * First what the Kubernetes provider and Helm do on their own, through the small program of the negative cases
 * (test/engine/negative) with no ownership guard in front: a Namespace whose name is taken is taken over (the
 * provider's server-side apply creates by upserting, in the provider this tier builds) and `pulumi destroy` then
 * deletes it; a Helm release whose name is taken in its namespace fails to install (Helm's "cannot re-use a name"),
 * halfway through a run, and nothing of it enters the state.
 *
 * Then the real program, on one cluster where the application's namespace belongs to another team (a Deployment, a
 * claim bound to a volume whose reclaim policy is Delete, a LoadBalancer Service, a ConfigMap of data), a ClusterRole
 * of the platform's name with exactly the platform's rules exists, and a Helm release of one of the platform's names
 * is installed in its namespace: `pulumi up` run directly and `mara up --skip-doctor` both fail before anything is
 * created on the cluster, with the guard's message naming every object, its owner and the way out; `mara up` stops
 * at `mara doctor`, which refuses the same objects; `pulumi destroy` succeeds and every object of the neighbours is
 * there as it was (UIDs, labels, annotations, data, specs, the release's records).
 *
 * The platform deployed on a clean cluster, a second run showing no change, and an upgrade from a stack whose objects
 * carry only the platform's label are platform.test.ts's.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { helmBinary } from "../../render/helm";
import { ROOT, startCluster, TestCluster } from "./cluster";
import { getOrUndefined, request, waitFor } from "./kubeApi";
import { mara, pulumi, pulumiSandbox, PulumiSandbox, tail } from "./pulumiEnv";
import { airGappedCharts, baseConfig, createStack, TierStack } from "./stack";

const NEGATIVE = path.join(ROOT, "test", "engine", "negative");
let cluster: TestCluster;
let sandbox: PulumiSandbox;
let charts: string;
let stack: TierStack;
const started = Date.now();

/** The team's namespace that the application's default namespace collides with, and the namespace of their release. */
const THEIRS = "bos";
const THEIR_RELEASE = { name: "statsd", namespace: "prometheus" };
/** The NFS provisioner's ClusterRole as NfsStorage names it for its default namespace, with its rules. */
// The NFS provisioner chart's ClusterRole, with its rules (charts/nfs-subdir-external-provisioner/templates/clusterrole.yaml).
const CLUSTER_ROLE = "mara-nfs-provisioner-runner";
const NFS_RULES = [
    { apiGroups: [""], resources: ["nodes"], verbs: ["get", "list", "watch"] },
    { apiGroups: [""], resources: ["persistentvolumes"], verbs: ["get", "list", "watch", "create", "delete"] },
    { apiGroups: [""], resources: ["persistentvolumeclaims"], verbs: ["get", "list", "watch", "update"] },
    { apiGroups: ["storage.k8s.io"], resources: ["storageclasses"], verbs: ["get", "list", "watch"] },
    { apiGroups: [""], resources: ["events"], verbs: ["create", "update", "patch"] },
];

beforeAll(async () => {
    cluster = await startCluster({ nodes: 1 });
    sandbox = pulumiSandbox();
    charts = airGappedCharts();
    stack = await createStack(sandbox, `neighbours-${process.pid}`, {
        ...baseConfig(cluster, charts),
        "mara:nfsServer": "192.168.77.10",
        "mara:nfsPath": "/srv/nfs/mara",
    });
});

afterAll(async () => {
    stack?.dispose();
    for (const f of fs.readdirSync(NEGATIVE)) if (/^Pulumi\.neighbours-.+\.yaml$/.test(f)) fs.rmSync(path.join(NEGATIVE, f));
    sandbox?.dispose();
    if (charts) fs.rmSync(charts, { recursive: true, force: true });
    await cluster?.stop();
    console.log(`neighbours.test.ts: ${Math.round((Date.now() - started) / 1000)} s`);
});

/** `helm <args>` against the test cluster. */
function helm(args: readonly string[]): Promise<{ code: number; output: string }> {
    const env = { ...process.env, HELM_CACHE_HOME: path.join(cluster.dir, "helm-cache"), HELM_CONFIG_HOME: path.join(cluster.dir, "helm-config") };
    return new Promise((resolve) => {
        execFile(helmBinary().path, [...args, "--kubeconfig", cluster.kubeconfig], { env, timeout: 120_000 }, (err, stdout, stderr) =>
            resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: `${stdout}\n${stderr}` }),
        );
    });
}

/** A stack of the negative program for `which`, with `config`, and a runner of pulumi commands on it. */
async function negativeStack(which: string, config: Record<string, string>) {
    const name = `neighbours-${which}`;
    fs.rmSync(path.join(NEGATIVE, `Pulumi.${name}.yaml`), { force: true });
    const run = (args: string[]) => pulumi([...args, "--stack", name, "--non-interactive"], sandbox.env, { cwd: NEGATIVE, timeoutMs: 5 * 60_000 });
    expect((await pulumi(["stack", "init", name, "--secrets-provider", "passphrase", "--non-interactive"], sandbox.env, { cwd: NEGATIVE })).code).toBe(0);
    for (const [k, v] of Object.entries({ case: which, kubeconfig: cluster.kubeconfig, ...config })) expect((await run(["config", "set", k, v])).code).toBe(0);
    return run;
}

/** The Kubernetes objects (not providers) a stack's state holds. */
async function kubernetesInState(run: (args: string[]) => ReturnType<typeof pulumi>): Promise<string[]> {
    const exported = await run(["stack", "export"]);
    expect(exported.code, tail(exported)).toBe(0);
    const resources = (JSON.parse(exported.stdout).deployment.resources ?? []) as { type: string; urn: string }[];
    return resources.filter((r) => r.type.startsWith("kubernetes:")).map((r) => r.urn);
}

/** The Helm release records of `name` in `namespace`: name, status and UID of each Secret. */
async function releaseRecords(name: string, namespace: string) {
    const list = await request<{ items: any[] }>(cluster, "GET", `/api/v1/namespaces/${namespace}/secrets?labelSelector=${encodeURIComponent(`owner=helm,name=${name}`)}`);
    return list.items.map((s) => ({ name: s.metadata.name, uid: s.metadata.uid, status: s.metadata.labels.status }));
}

describe("without a guard, the provider and Helm on their own (the negative program)", () => {
    it("a Namespace of a taken name is taken over by the create (server-side apply upserts), and destroy deletes it with what it holds", async () => {
        await request(cluster, "POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "upserted", labels: { team: "shop" } } });
        await request(cluster, "POST", "/api/v1/namespaces/upserted/configmaps", { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "data" }, data: { a: "b" } });
        const before = await request(cluster, "GET", "/api/v1/namespaces/upserted");
        const run = await negativeStack("upsert", { namespace: "upserted" });
        const up = await run(["up", "--yes", "--skip-preview"]);
        // The January 2026 provider this tier builds reports a create and takes the namespace over; newer providers
        // (pulumi/pulumi-kubernetes#4278) refuse with AlreadyExists unless upsertExistingObjects is set.
        expect(up.code, tail(up)).toBe(0);
        const after = await request(cluster, "GET", "/api/v1/namespaces/upserted");
        expect(after.metadata.uid, "the same namespace, not a new one").toBe(before.metadata.uid);
        expect(after.metadata.labels).toMatchObject({ team: "shop", "app.kubernetes.io/part-of": "mara" });
        const down = await run(["destroy", "--yes", "--skip-preview"]);
        expect(down.code, tail(down)).toBe(0);
        await waitFor("the taken-over namespace to be deleted", async () => ((await getOrUndefined(cluster, "/api/v1/namespaces/upserted")) ? undefined : true));
    });

    it("a Helm release of a taken name fails to install (Helm's 'cannot re-use a name'), records nothing in the state, and destroy leaves the other release", async () => {
        const installed = await helm(["install", "taken", path.join(NEGATIVE, "chart"), "--namespace", "taken-ns", "--create-namespace"]);
        expect(installed.code, installed.output).toBe(0);
        const before = await releaseRecords("taken", "taken-ns");
        expect(before.map((r) => r.status)).toEqual(["deployed"]);
        const run = await negativeStack("existing-release", { release: "taken", namespace: "taken-ns" });
        const up = await run(["up", "--yes", "--skip-preview"]);
        expect(up.code, tail(up)).not.toBe(0);
        expect(up.stdout + up.stderr).toMatch(/cannot re-use a name that is still in use/);
        expect(await kubernetesInState(run), "no Release in the state, so destroy has nothing to uninstall").toEqual([]);
        const down = await run(["destroy", "--yes", "--skip-preview"]);
        expect(down.code, tail(down)).toBe(0);
        expect(await releaseRecords("taken", "taken-ns")).toEqual(before);
    });
});

/** What the neighbours own, as the checks compare it: identity, marks and content of each object. */
async function neighbours(): Promise<Record<string, unknown>> {
    const get = (p: string) => request<any>(cluster, "GET", p);
    const meta = (o: any) => ({ uid: o.metadata.uid, labels: o.metadata.labels ?? {}, annotations: o.metadata.annotations ?? {} });
    const claim = await get(`/api/v1/namespaces/${THEIRS}/persistentvolumeclaims/ledger-data`);
    const volume = await get(`/api/v1/persistentvolumes/${claim.spec.volumeName}`);
    return {
        namespace: meta(await get(`/api/v1/namespaces/${THEIRS}`)),
        configMap: { ...meta(await get(`/api/v1/namespaces/${THEIRS}/configmaps/ledger-settings`)), data: (await get(`/api/v1/namespaces/${THEIRS}/configmaps/ledger-settings`)).data },
        deployment: { ...meta(await get(`/apis/apps/v1/namespaces/${THEIRS}/deployments/ledger`)), spec: (await get(`/apis/apps/v1/namespaces/${THEIRS}/deployments/ledger`)).spec },
        claim: { ...meta(claim), spec: claim.spec, phase: claim.status.phase },
        volume: { ...meta(volume), reclaim: volume.spec.persistentVolumeReclaimPolicy, claimRef: volume.spec.claimRef.uid },
        service: { ...meta(await get(`/api/v1/namespaces/${THEIRS}/services/ledger`)), spec: (await get(`/api/v1/namespaces/${THEIRS}/services/ledger`)).spec },
        clusterRole: { ...meta(await get(`/apis/rbac.authorization.k8s.io/v1/clusterroles/${encodeURIComponent(CLUSTER_ROLE)}`)), rules: (await get(`/apis/rbac.authorization.k8s.io/v1/clusterroles/${encodeURIComponent(CLUSTER_ROLE)}`)).rules },
        releaseNamespace: meta(await get(`/api/v1/namespaces/${THEIR_RELEASE.namespace}`)),
        release: await releaseRecords(THEIR_RELEASE.name, THEIR_RELEASE.namespace),
    };
}

/** What the platform would have created on the cluster: objects with its label, Helm records outside the neighbours' release. */
async function platformObjects(): Promise<string[]> {
    const labelled = encodeURIComponent("app.kubernetes.io/part-of=mara");
    const out: string[] = [];
    for (const p of [
        "/api/v1/namespaces",
        "/apis/rbac.authorization.k8s.io/v1/clusterroles",
        "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
        "/apis/storage.k8s.io/v1/storageclasses",
        "/apis/networking.k8s.io/v1/ingressclasses",
    ]) {
        for (const o of (await request<{ items: any[] }>(cluster, "GET", `${p}?labelSelector=${labelled}`)).items) out.push(`${o.kind ?? p} ${o.metadata.name}`);
    }
    for (const s of (await request<{ items: any[] }>(cluster, "GET", "/api/v1/secrets?labelSelector=owner%3Dhelm")).items) {
        if (s.metadata.labels.name !== THEIR_RELEASE.name && s.metadata.labels.name !== "taken") out.push(`Helm release ${s.metadata.namespace}/${s.metadata.labels.name}`);
    }
    return out.sort();
}

describe("the platform next to other teams, by the real engine", () => {
    let before: Record<string, unknown>;

    beforeAll(async () => {
        const post = (p: string, body: unknown) => request(cluster, "POST", p, body);
        await post("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: THEIRS, labels: { team: "shop" } } });
        await post(`/api/v1/namespaces/${THEIRS}/configmaps`, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "ledger-settings" }, data: { currency: "EUR", limit: "1000" } });
        const labels = { app: "ledger" };
        await post(`/apis/apps/v1/namespaces/${THEIRS}/deployments`, {
            apiVersion: "apps/v1",
            kind: "Deployment",
            metadata: { name: "ledger", labels },
            spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: "ledger", image: "ghcr.io/shop/ledger:1.0" }] } } },
        });
        // Their data: a volume whose reclaim policy is Delete, bound to their claim by the controller manager.
        await post("/api/v1/persistentvolumes", {
            apiVersion: "v1",
            kind: "PersistentVolume",
            metadata: { name: "shop-ledger-data" },
            spec: { capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"], persistentVolumeReclaimPolicy: "Delete", storageClassName: "shop-manual", hostPath: { path: "/srv/shop/ledger" } },
        });
        await post(`/api/v1/namespaces/${THEIRS}/persistentvolumeclaims`, {
            apiVersion: "v1",
            kind: "PersistentVolumeClaim",
            metadata: { name: "ledger-data" },
            spec: { accessModes: ["ReadWriteOnce"], storageClassName: "shop-manual", volumeName: "shop-ledger-data", resources: { requests: { storage: "1Gi" } } },
        });
        await post(`/api/v1/namespaces/${THEIRS}/services`, {
            apiVersion: "v1",
            kind: "Service",
            metadata: { name: "ledger" },
            spec: { type: "LoadBalancer", selector: labels, ports: [{ name: "http", port: 80, targetPort: 8080 }] },
        });
        // A ClusterRole of the platform's name with exactly its rules: a server-side apply would take it over silently.
        await post("/apis/rbac.authorization.k8s.io/v1/clusterroles", { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRole", metadata: { name: CLUSTER_ROLE }, rules: NFS_RULES });
        const installed = await helm(["install", THEIR_RELEASE.name, path.join(NEGATIVE, "chart"), "--namespace", THEIR_RELEASE.namespace, "--create-namespace"]);
        expect(installed.code, installed.output).toBe(0);
        // Wait for what the controllers settle (the claim bound, the Deployment's first revision), then take the picture.
        await waitFor("their claim to be bound", async () => ((await request(cluster, "GET", `/api/v1/namespaces/${THEIRS}/persistentvolumeclaims/ledger-data`)).status.phase === "Bound" ? true : undefined));
        await waitFor("their Deployment to be observed", async () => ((await request(cluster, "GET", `/apis/apps/v1/namespaces/${THEIRS}/deployments/ledger`)).metadata.annotations?.["deployment.kubernetes.io/revision"] ? true : undefined));
        before = await neighbours();
        expect(await platformObjects()).toEqual([]);
    });

    it("pulumi preview plans the creates and passes: the guard reads the cluster only when it is created or updated, never in a preview", async () => {
        const r = await stack.pulumi(["preview"]);
        expect(r.code, tail(r)).toBe(0);
        expect(r.stdout).toMatch(/platform-ownership/);
    });

    it("pulumi up run directly fails before creating anything, naming each object, whose it is and the way out", async () => {
        const up = await stack.pulumi(["up", "--yes", "--skip-preview"], 10 * 60_000);
        expect(up.code, tail(up)).not.toBe(0);
        const out = up.stdout + up.stderr;
        expect(out).toContain(`The platform will not take over objects it did not create on ${cluster.server}, so it created nothing there:`);
        expect(out).toMatch(new RegExp(`Namespace ${THEIRS} exists and is not the platform's \\([^)]*\\); give Bank of Sirius another namespace: pulumi config set mara:siriusNamespace <name>`));
        expect(out).toContain(`ClusterRole ${CLUSTER_ROLE} exists and is not the platform's`);
        expect(out).toContain(`Namespace ${THEIR_RELEASE.namespace} exists and is not the platform's (applied by helm)`);
        expect(out).toContain(`Helm release ${THEIR_RELEASE.name} in namespace ${THEIR_RELEASE.namespace} exists and is not the platform's (installed in a namespace the platform did not make, revision 1 deployed)`);
        expect(out).toContain("annotation mara.nginx.com/stack=<project>/<stack> (this stack: mara/");
        expect(out).not.toMatch(/ at .*\.(js|ts):\d+/);
        expect(await platformObjects(), "nothing of the platform's on the cluster").toEqual([]);
        expect(await kubernetesInState(stack.pulumi), "no Kubernetes object in the state").toEqual([]);
        expect(await neighbours()).toEqual(before);
    });

    it("mara up --skip-doctor fails the same way; mara up stops at mara doctor, which refuses the same objects", async () => {
        const skipped = await mara(["up", "--yes", "--skip-doctor", "--stack", stack.name], sandbox.env, { timeoutMs: 10 * 60_000 });
        expect(skipped.code, tail(skipped)).not.toBe(0);
        expect(skipped.stdout + skipped.stderr).toContain(`Namespace ${THEIRS} exists and is not the platform's`);
        expect(skipped.stdout + skipped.stderr).toContain(`ClusterRole ${CLUSTER_ROLE} exists and is not the platform's`);

        const checked = await mara(["up", "--yes", "--stack", stack.name], sandbox.env, { timeoutMs: 10 * 60_000 });
        expect(checked.code, tail(checked)).toBe(3);
        const doctor = checked.stdout + checked.stderr;
        expect(doctor).toMatch(new RegExp(`Namespace ${THEIRS} exists and is not the platform's`));
        expect(doctor).toMatch(new RegExp(`Namespace ${THEIR_RELEASE.namespace} exists and is not the platform's`));
        expect(doctor).toContain(`ClusterRole ${CLUSTER_ROLE} exists and is not the platform's`);
        expect(doctor).toContain("pulumi up run directly stops before creating anything");
        expect(doctor).not.toContain("creating it fails");
        expect(await platformObjects()).toEqual([]);
        expect(await neighbours()).toEqual(before);
    });

    it("pulumi destroy succeeds and leaves every object of the neighbours as it was", async () => {
        const down = await stack.pulumi(["destroy", "--yes", "--skip-preview"], 10 * 60_000);
        expect(down.code, tail(down)).toBe(0);
        expect(await neighbours()).toEqual(before);
        expect(await platformObjects()).toEqual([]);
    });
});
