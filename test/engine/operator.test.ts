/**
 * `mara:delivery: operator` against a real API server: `mara up` installs the Pulumi Kubernetes Operator as a Helm
 * release of its chart (from the archive in test/charts, as an air-gapped install does), applies the CRDs of the
 * chart's crds/ directory itself, and creates the workspace's ServiceAccount and bindings, the Secrets of the access
 * token, passphrase and repository credential, and the `Stack`: the API server checks every one of them against its
 * schema (the Stack against the operator's CRD, with strict field validation and the CRD's CEL rule). Then the switch
 * away (to `gitops` with a hub's Argo CD, which creates nothing in the cluster) leaves nothing of the operator behind
 * but its CRDs, which the program never deletes (components/chartCrds.ts).
 *
 * No container runs (kwok nodes report the operator's pod ready without running it), so nothing here reconciles the
 * Stack: that the operator clones the repository, signs in with the token and runs the in-cluster stack is what only a
 * running operator shows (docs/delivery-operator.md, "What the tests prove").
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { stringify } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR_NAMESPACE, OPERATOR_RELEASE, STACK_NAME } from "../../components/pulumiOperator/stack";
import { CHARTS } from "../../contracts";
import { ENGINE_BIN, startCluster, TestCluster } from "./cluster";
import { getOrUndefined, request } from "./kubeApi";
import { mara, pulumiSandbox, PulumiSandbox, tail } from "./pulumiEnv";
import { airGappedCharts, baseConfig, createStack, TierStack } from "./stack";

let cluster: TestCluster;
let sandbox: PulumiSandbox | undefined;
let stack: TierStack | undefined;
let charts: string | undefined;
let dir: string;

const ACCESS_TOKEN = "pul-engine-access-token-0123456789abcdef";
const PASSPHRASE = "engine-operator-passphrase-4242";
const REPO_TOKEN = "engine-operator-repo-token-0123456789";
const STACK = `engine-operator-${process.pid}`;
const CRDS = ["programs.pulumi.com", "stacks.pulumi.com", "updates.auto.pulumi.com", "workspaces.auto.pulumi.com"];

const OPERATOR = {
    "mara:delivery": "operator",
    "mara:gitopsRepoUrl": "https://git.example.com/platform-config.git",
    "mara:gitopsPath": "deploy/in-cluster",
    "mara:gitopsRevision": "release/1.x",
    "mara:operatorStack": "acme/mara/engine-in-cluster",
    "mara:gitopsRepoUsername": "robot",
};

/** `kubectl <args>` against the test cluster; resolves with its exit code and output. */
function kubectl(args: readonly string[], input?: string): Promise<{ code: number; out: string }> {
    return new Promise((resolve) => {
        const child = execFile(path.join(ENGINE_BIN, "kubectl"), ["--kubeconfig", cluster.kubeconfig, ...args], { maxBuffer: 64 * 1024 * 1024, timeout: 300_000 }, (err, stdout, stderr) =>
            resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
        );
        if (input !== undefined) child.stdin!.end(input);
    });
}

/** A server-side dry-run apply of `object`, with strict field validation (kubectl's default). */
const dryRun = (object: unknown) => kubectl(["apply", "--server-side", "--dry-run=server", "--field-manager", "engine-test", "-f", "-"], stringify(object));

/** The Secret's data, decoded. */
async function secretData(name: string): Promise<Record<string, string> | undefined> {
    const s = await getOrUndefined<{ data?: Record<string, string> }>(cluster, `/api/v1/namespaces/${OPERATOR_NAMESPACE}/secrets/${name}`);
    return s && Object.fromEntries(Object.entries(s.data ?? {}).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]));
}

beforeAll(async () => {
    cluster = await startCluster();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-engine-operator-"));
});

afterAll(async () => {
    stack?.dispose();
    sandbox?.dispose();
    if (charts) fs.rmSync(charts, { recursive: true, force: true });
    await cluster?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the Pulumi Kubernetes Operator's delivery, on a real API server", () => {
    it("mara up installs the operator's chart, its CRDs, the workspace's identity, the Secrets and the Stack, every one accepted; no credential in the state or the outputs", async () => {
        sandbox = pulumiSandbox();
        charts = airGappedCharts();
        stack = await createStack(sandbox, STACK, { ...baseConfig(cluster, charts), ...OPERATOR });
        await stack.set("mara:operatorAccessToken", ACCESS_TOKEN, true);
        await stack.set("mara:operatorPassphrase", PASSPHRASE, true);
        await stack.set("mara:gitopsRepoPassword", REPO_TOKEN, true);
        const up = await mara(["up", "--yes", "--stack", stack.name], sandbox.env);
        expect(up.code, tail(up, 80)).toBe(0);

        // Helm's release record: the chart at its pin, deployed; its CRDs applied by the program (Helm skipped crds/) and served.
        const records = (await request<{ items: { metadata: { namespace: string; labels: Record<string, string> } }[] }>(cluster, "GET", "/api/v1/secrets?labelSelector=owner%3Dhelm")).items;
        expect(records.map((r) => `${r.metadata.namespace}/${r.metadata.labels.name} ${r.metadata.labels.status}`)).toEqual([`${OPERATOR_NAMESPACE}/${OPERATOR_RELEASE} deployed`]);
        for (const crd of CRDS) {
            const w = await kubectl(["wait", "--for", "condition=Established", "--timeout", "60s", `crd/${crd}`]);
            expect(w.code, w.out).toBe(0);
            const got = await getOrUndefined(cluster, `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd}`);
            expect(got?.metadata.annotations?.["meta.helm.sh/release-name"], crd).toBeUndefined();
        }
        const deployments = (await request<{ items: { metadata: { name: string } }[] }>(cluster, "GET", `/apis/apps/v1/namespaces/${OPERATOR_NAMESPACE}/deployments`)).items.map((d) => d.metadata.name);
        expect(deployments).toEqual(["pulumi-kubernetes-operator-controller-manager"]);

        // The Stack as the API server stored it: what the CRD's schema kept of what Pulumi sent (a field it does not know would be pruned).
        const stored = await getOrUndefined<{ spec: Record<string, unknown> }>(cluster, `/apis/pulumi.com/v1/namespaces/${OPERATOR_NAMESPACE}/stacks/${STACK_NAME}`);
        expect(stored?.spec).toEqual({
            stack: "acme/mara/engine-in-cluster",
            projectRepo: OPERATOR["mara:gitopsRepoUrl"],
            repoDir: "deploy/in-cluster",
            branch: "release/1.x",
            gitAuthSecret: "mara-repository",
            envRefs: {
                PULUMI_ACCESS_TOKEN: { type: "Secret", secret: { name: "mara-operator-stack", key: "accessToken" } },
                PULUMI_CONFIG_PASSPHRASE: { type: "Secret", secret: { name: "mara-operator-stack", key: "passphrase" } },
            },
            serviceAccountName: STACK_NAME,
            useLocalStackOnly: true,
            destroyOnFinalize: false,
            refresh: true,
        });
        // Strict field validation and the CRD's CEL rule are live: a field it does not know, and a name over 42 characters, are refused.
        const base = { apiVersion: "pulumi.com/v1", kind: "Stack", metadata: { name: STACK_NAME, namespace: OPERATOR_NAMESPACE }, spec: stored!.spec };
        const unknown = await dryRun({ ...base, spec: { ...stored!.spec, destroyOnFinalise: true } });
        expect(unknown.code, unknown.out).not.toBe(0);
        expect(unknown.out).toContain("destroyOnFinalise");
        const long = await dryRun({ ...base, metadata: { ...base.metadata, name: "m".repeat(43) } });
        expect(long.code, long.out).not.toBe(0);
        expect(long.out).toContain("Stack name must be no more than 42 characters in length");

        // The workspace's identity and the Secrets, as the operator reads them (envRefs; resolveGitAuth's username and password).
        expect(await getOrUndefined(cluster, `/api/v1/namespaces/${OPERATOR_NAMESPACE}/serviceaccounts/${STACK_NAME}`)).toBeDefined();
        for (const role of ["system:auth-delegator", "cluster-admin"]) {
            const binding = await getOrUndefined<{ roleRef: { name: string }; subjects: unknown[] }>(cluster, `/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/${STACK_NAME}:${role}`);
            expect(binding?.roleRef.name).toBe(role);
            expect(binding?.subjects).toEqual([{ kind: "ServiceAccount", name: STACK_NAME, namespace: OPERATOR_NAMESPACE }]);
        }
        expect(await secretData("mara-operator-stack")).toEqual({ accessToken: ACCESS_TOKEN, passphrase: PASSPHRASE });
        expect(await secretData("mara-repository")).toEqual({ username: "robot", password: REPO_TOKEN });

        const state = await stack.pulumi(["stack", "export"]);
        expect(state.code, tail(state)).toBe(0);
        expect(state.stdout).toContain("mara-operator-stack");
        for (const secret of [ACCESS_TOKEN, PASSPHRASE, REPO_TOKEN]) expect(state.stdout).not.toContain(secret);
        const outputs = await stack.pulumi(["stack", "output", "--json", "--show-secrets"]);
        expect(outputs.code, tail(outputs)).toBe(0);
        for (const secret of [ACCESS_TOKEN, PASSPHRASE, REPO_TOKEN]) expect(outputs.stdout).not.toContain(secret);
        for (const secret of [ACCESS_TOKEN, PASSPHRASE, REPO_TOKEN]) expect(`${up.stdout}${up.stderr}`).not.toContain(secret);
        expect(JSON.parse(outputs.stdout)).toMatchObject({ delivery: "operator", operator_namespace: OPERATOR_NAMESPACE, operator_stack_resource: STACK_NAME, operator_version: CHARTS.pulumiOperator.version, operator_status: "deployed" });
    });

    it("pulumi preview --expect-no-changes right after: no permanent diff in the release, the CRDs or the Stack", async () => {
        expect(stack, "the stack of the test before").toBeDefined();
        const r = await stack!.pulumi(["preview", "--expect-no-changes", "--diff"]);
        expect(r.code, tail(r, 120)).toBe(0);
    });

    it("switching away leaves nothing of the operator behind but its CRDs: no release, namespace, Stack, Secret, ServiceAccount or binding", async () => {
        expect(stack, "the stack of the tests before").toBeDefined();
        await stack!.set("mara:delivery", "gitops");
        await stack!.set("mara:gitopsArgoCd", "external");
        await stack!.set("mara:fqdn", "mara.engine.test");
        const up = await mara(["up", "--yes", "--stack", stack!.name], sandbox!.env);
        expect(up.code, tail(up, 80)).toBe(0);
        expect(`${up.stdout}${up.stderr}`).toMatch(/mara:operatorStack.* do nothing while mara:delivery is gitops/);

        const records = (await request<{ items: unknown[] }>(cluster, "GET", "/api/v1/secrets?labelSelector=owner%3Dhelm")).items;
        expect(records).toEqual([]);
        expect(await getOrUndefined(cluster, `/api/v1/namespaces/${OPERATOR_NAMESPACE}`)).toBeUndefined();
        expect((await request<{ items: unknown[] }>(cluster, "GET", "/apis/pulumi.com/v1/stacks")).items).toEqual([]);
        for (const role of ["system:auth-delegator", "cluster-admin"]) expect(await getOrUndefined(cluster, `/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/${STACK_NAME}:${role}`)).toBeUndefined();
        const state = await stack!.pulumi(["stack", "export"]);
        expect(state.code, tail(state)).toBe(0);
        const types = ((JSON.parse(state.stdout) as { deployment: { resources?: { type: string; urn: string }[] } }).deployment.resources ?? []).filter((r) => r.urn.includes("PulumiOperator"));
        expect(types.map((r) => r.type)).toEqual([]);
        // The CRDs stay, as every CRD the program applies does: deleting one deletes every object of its kind, anyone's.
        for (const crd of CRDS) expect(await getOrUndefined(cluster, `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd}`), crd).toBeDefined();
    });
});
