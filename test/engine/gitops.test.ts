/**
 * GitOps delivery against a real API server: the render of a stack Argo CD delivers, applied with the real kubectl
 * (server-side, as Argo CD applies) Application by Application and wave by wave, as a root Application would sync
 * it; then `mara up` of that stack, which installs Argo CD as a Helm release of its chart (from the archive in
 * test/charts, as an air-gapped install does) and the root Application, and the render's Applications, which the
 * API server must accept. kubectl reads YAML as YAML 1.1 does, so a CRD whose enum of `on` and `off` were written
 * unquoted fails here. No container runs (kwok nodes) and admission webhooks are off, so what this shows is what the
 * API server accepts, in the order the sync model gives; the model itself covers health. Last, a fleet on that Argo CD:
 * the ApplicationSet, two cluster Secrets and the Applications the sync model's generator makes of what the API server
 * stored, all accepted (no ApplicationSet controller runs: the model stands in for it).
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parse, stringify } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import program from "../../index";
import { ARGOCD_NAMESPACE, ARGOCD_RELEASE } from "../../components/argoCd/applications";
import { CHARTS, DEFAULTS } from "../../contracts";
import { validateConfig } from "../../config";
import { renderPlatform, RenderResult } from "../../render/render";
import { applicationWaves, asOneSync } from "../../render/sync/check";
import { argoOrder } from "../../render/sync/replay";
import { syncObjectsOf } from "../../render/sync/objects";
import { generateFromClusters } from "../../render/sync/clusterGenerator";
import { fleetFiles } from "../../render/fleet";
import type { KubeObject } from "../../contracts/kubeObject";
import { FLEET_FOLDER } from "../../components/argoCd/applicationSet";
import { clusterSecretManifest } from "../../components/argoCd/clusterSecret";
import { rawConfig } from "../support/config";
import { ENGINE_BIN, ROOT, startCluster, TestCluster } from "./cluster";
import { getOrUndefined, request } from "./kubeApi";
import { mara, pulumi, pulumiSandbox, PulumiSandbox, tail } from "./pulumiEnv";
import { airGappedCharts, baseConfig, createStack, TierStack } from "./stack";

let cluster: TestCluster;
let rendered: RenderResult;
let dir: string;
let sandbox: PulumiSandbox | undefined;
let stack: TierStack | undefined;
let charts: string | undefined;

/** The private repository's token the stack stores encrypted. */
const REPO_TOKEN = "engine-repo-token-0123456789";

/**
 * The stack's name. The render is made from it too, as a user renders and deploys one stack: the objects Argo CD
 * applies carry its identity, so the doctor that `mara up` runs takes them for this stack's own.
 */
const STACK = `engine-gitops-${process.pid}`;

const GITOPS = {
    "mara:delivery": "gitops",
    "mara:gitopsRepoUrl": "https://git.example.com/platform-config.git",
    "mara:gitopsPath": "deploy/engine",
};

/** `kubectl <args>` against the test cluster; resolves with its exit code and output. */
function kubectl(args: readonly string[]): Promise<{ code: number; out: string }> {
    return new Promise((resolve) => {
        execFile(path.join(ENGINE_BIN, "kubectl"), ["--kubeconfig", cluster.kubeconfig, ...args], { maxBuffer: 64 * 1024 * 1024, timeout: 300_000 }, (err, stdout, stderr) =>
            resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
        );
    });
}

/** Writes texts to files and applies them in one server-side apply, as Argo CD's sync does. */
async function apply(name: string, texts: readonly string[]): Promise<{ code: number; out: string }> {
    const folder = fs.mkdtempSync(path.join(dir, `${name}-`));
    texts.forEach((t, i) => fs.writeFileSync(path.join(folder, `${String(i).padStart(4, "0")}.yaml`), t));
    return kubectl(["apply", "--server-side", "--field-manager", "argocd-controller", "-f", folder]);
}

beforeAll(async () => {
    cluster = await startCluster();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-engine-gitops-"));
    const raw = rawConfig({ ...baseConfig(cluster, path.join(ROOT, "test", "charts")), ...GITOPS }, { stack: STACK });
    // The cluster has no External Secrets Operator: the Secrets are left out, and created before the sync.
    rendered = await renderPlatform({ raw, config: validateConfig(raw).config!, program, secrets: { mode: "omit" } });
});

afterAll(async () => {
    // No destroy: the root Application's finalizer waits for an Argo CD that runs, and none does here.
    stack?.dispose();
    sandbox?.dispose();
    if (charts) fs.rmSync(charts, { recursive: true, force: true });
    await cluster?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("a render Argo CD delivers, on a real API server", () => {
    it("every object is accepted when applied Application by Application, wave by wave, in the order a root Application syncs them", async () => {
        for (const s of rendered.secrets.filter((e, i, all) => all.findIndex((x) => x.namespace === e.namespace && x.secret === e.secret) === i)) {
            const ns = await kubectl(["create", "namespace", s.namespace]);
            expect([0, 1]).toContain(ns.code);
            const keys = rendered.secrets.filter((x) => x.namespace === s.namespace && x.secret === s.secret).map((x) => `--from-literal=${x.key}=stand-in`);
            const r = await kubectl(["create", "secret", "generic", "-n", s.namespace, s.secret, ...keys]);
            expect(r.code, r.out).toBe(0);
        }
        const objects = asOneSync(syncObjectsOf(rendered.files), applicationWaves(rendered.files)).filter((o) => o.phases.includes("Sync"));
        const waves = [...new Set(objects.map((o) => o.wave))].sort((a, b) => a - b);
        expect(waves.length).toBeGreaterThan(4);
        for (const wave of waves) {
            const inWave = objects.filter((o) => o.wave === wave).sort(argoOrder);
            const r = await apply(`wave${wave}`, inWave.map((o) => rendered.files.get(o.file)!));
            expect(r.code, `wave ${wave}: ${r.out.split("\n").filter((l) => /error|Error|invalid/.test(l)).slice(0, 10).join("\n")}`).toBe(0);
            // Argo CD waits for a wave's CRDs to be served before the custom resources of a later one.
            for (const crd of inWave.filter((o) => o.object.kind === "CustomResourceDefinition")) {
                const w = await kubectl(["wait", "--for", "condition=Established", "--timeout", "60s", `crd/${crd.ref.name}`]);
                expect(w.code, w.out).toBe(0);
            }
        }
        const applied = await request<{ items: unknown[] }>(cluster, "GET", "/apis/monitoring.coreos.com/v1/servicemonitors");
        expect(applied.items.length).toBeGreaterThan(5);
    });

    it("mara up installs Argo CD as a Helm release of its chart (deployed, its CRDs served), the root Application and the private repository's Secret (its token secret in the state); the render's Applications are accepted", async () => {
        sandbox = pulumiSandbox();
        charts = airGappedCharts();
        stack = await createStack(sandbox, STACK, { ...baseConfig(cluster, charts), ...GITOPS, "mara:gitopsRepoUsername": "robot" });
        // A private repository's token, stored encrypted as the docs say; Pulumi writes it into Argo CD's repository Secret.
        await stack.set("mara:gitopsRepoPassword", REPO_TOKEN, true);
        // mara up runs the doctor first: the render's objects the test above applied as Argo CD does (its field
        // manager) are the platform's own, not another installation of its operators.
        const up = await mara(["up", "--yes", "--stack", stack.name], sandbox.env);
        expect(up.code, tail(up, 80)).toBe(0);
        expect(up.stderr).toMatch(/✓ No other cert-manager: certificates\.cert-manager\.io is the platform's own/);

        // Helm's release record: the argo-cd chart at its pin, deployed, in the argocd namespace.
        const records = (await request<{ items: { metadata: { namespace: string; labels: Record<string, string> } }[] }>(cluster, "GET", "/api/v1/secrets?labelSelector=owner%3Dhelm")).items;
        expect(records.map((r) => `${r.metadata.namespace}/${r.metadata.labels.name} ${r.metadata.labels.status}`)).toEqual([`${ARGOCD_NAMESPACE}/${ARGOCD_RELEASE} deployed`]);
        // The CRDs come from the chart: Helm owns them, and the API server serves them.
        for (const crd of ["applications.argoproj.io", "applicationsets.argoproj.io", "appprojects.argoproj.io"]) {
            const w = await kubectl(["wait", "--for", "condition=Established", "--timeout", "60s", `crd/${crd}`]);
            expect(w.code, w.out).toBe(0);
            const got = await getOrUndefined(cluster, `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd}`);
            expect(got?.metadata.annotations?.["meta.helm.sh/release-name"], crd).toBe(ARGOCD_RELEASE);
        }
        // argocd-cm as the values set it: annotation tracking, the Application health check, no placeholder URL.
        const cm = await getOrUndefined(cluster, `/api/v1/namespaces/${ARGOCD_NAMESPACE}/configmaps/argocd-cm`);
        expect(cm?.data?.["application.resourceTrackingMethod"]).toBe("annotation");
        expect(cm?.data?.["resource.customizations.health.argoproj.io_Application"]).toContain("obj.status.health.status");
        expect(cm?.data?.url).toBeUndefined();
        const deployments = (await request<{ items: { metadata: { name: string } }[] }>(cluster, "GET", `/apis/apps/v1/namespaces/${ARGOCD_NAMESPACE}/deployments`)).items.map((d) => d.metadata.name);
        expect(deployments).toContain("argocd-server");
        expect(deployments.filter((d) => d.includes("dex"))).toEqual([]);

        // The repository Secret as Argo CD's declarative setup documents it; the token only there, and secret in the state.
        const repository = await getOrUndefined(cluster, `/api/v1/namespaces/${ARGOCD_NAMESPACE}/secrets/mara-repository`);
        expect(repository?.metadata.labels).toMatchObject({ "argocd.argoproj.io/secret-type": "repository" });
        const data = Object.fromEntries(Object.entries((repository as { data?: Record<string, string> })?.data ?? {}).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]));
        expect(data).toEqual({ type: "git", url: GITOPS["mara:gitopsRepoUrl"], username: "robot", password: REPO_TOKEN });
        const state = await stack.pulumi(["stack", "export"]);
        expect(state.code, tail(state)).toBe(0);
        expect(state.stdout).toContain("mara-repository");
        expect(state.stdout).not.toContain(REPO_TOKEN);

        const outputs = await stack.pulumi(["stack", "output", "--json"]);
        expect(outputs.code, tail(outputs)).toBe(0);
        expect(outputs.stdout).not.toContain(REPO_TOKEN);
        expect(JSON.parse(outputs.stdout)).toMatchObject({ delivery: "gitops", argocd_namespace: ARGOCD_NAMESPACE, argocd_application: DEFAULTS.argoCd.applicationName, argocd_version: CHARTS.argoCd.version, argocd_status: "deployed" });

        // The render's Applications beside the root Application Pulumi created.
        const apps = [...rendered.files].filter(([f]) => f.startsWith("argocd/application-")).map(([, t]) => t);
        const r = await apply("applications", apps);
        expect(r.code, r.out).toBe(0);
        const listed = await request<{ items: { metadata: { name: string } }[] }>(cluster, "GET", `/apis/argoproj.io/v1alpha1/namespaces/${ARGOCD_NAMESPACE}/applications`);
        expect(listed.items.map((a) => a.metadata.name).sort()).toEqual([DEFAULTS.argoCd.applicationName, ...apps.map((t) => (parse(t) as { metadata: { name: string } }).metadata.name)].sort());
        const root = await getOrUndefined(cluster, `/apis/argoproj.io/v1alpha1/namespaces/${ARGOCD_NAMESPACE}/applications/${DEFAULTS.argoCd.applicationName}`);
        expect(root?.spec.source).toEqual({ repoURL: GITOPS["mara:gitopsRepoUrl"], targetRevision: "main", path: "deploy/engine/argocd" });
    });

    it("pulumi preview --expect-no-changes right after: no permanent diff in Argo CD's release or the root Application", async () => {
        expect(stack, "the stack of the test before").toBeDefined();
        const r = await stack!.pulumi(["preview", "--expect-no-changes", "--diff"]);
        expect(r.code, tail(r, 120)).toBe(0);
    });

    it("two pulumi up at once on the stack: the second is refused by the backend's lock, the first completes, and the state is intact", async () => {
        expect(stack, "the stack of the tests before").toBeDefined();
        // The local (DIY) backend locks a stack for an update by writing .pulumi/locks/<stack>/<id>.json and then
        // looking for any other lock file; it refuses with "the stack is currently locked by N lock(s)" (pulumi/pulumi,
        // pkg/backend/diy/lock.go, diyBackend.Lock and checkForLock; taken in diyBackend.Update). It is on by default.
        const locks = path.join(sandbox!.dir, "state", ".pulumi", "locks");
        const lockFiles = (): string[] => (fs.existsSync(locks) ? (fs.readdirSync(locks, { recursive: true }) as string[]).filter((f) => f.endsWith(".json")) : []);
        expect(lockFiles()).toEqual([]);
        const first = stack!.pulumi(["up", "--yes", "--skip-preview"]);
        // The second starts once the first holds the lock: two that start in the same instant can both see the
        // other's file and both give up (the lock is write-then-check), which refuses both, never runs both.
        const deadline = Date.now() + 300_000;
        while (lockFiles().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        expect(lockFiles(), "the first up holds the stack's lock").toHaveLength(1);
        const second = await pulumi(["up", "--yes", "--skip-preview", "--stack", stack!.name, "--non-interactive"], sandbox!.env);
        const firstDone = await first;
        expect(second.code, tail(second)).not.toBe(0);
        expect(`${second.stdout}${second.stderr}`).toMatch(/the stack is currently locked by 1 lock\(s\)\. Either wait for the other process\(es\) to end or delete the lock file with `pulumi cancel`/);
        expect(firstDone.code, tail(firstDone, 80)).toBe(0);
        expect(lockFiles(), "the lock is released").toEqual([]);

        const state = await stack!.pulumi(["stack", "export"]);
        expect(state.code, tail(state)).toBe(0);
        const resources = (JSON.parse(state.stdout) as { deployment: { resources?: unknown[]; pending_operations?: unknown[] } }).deployment;
        expect(resources.pending_operations ?? []).toEqual([]);
        expect(resources.resources?.length).toBeGreaterThan(5);
        const preview = await stack!.pulumi(["preview", "--expect-no-changes"]);
        expect(preview.code, tail(preview, 80)).toBe(0);
    });

    it("mara doctor afterwards (as the next mara up runs it) takes the platform's Argo CD, its namespace and CRDs for its own", async () => {
        expect(stack, "the stack of the tests before").toBeDefined();
        const r = await mara(["doctor", "--stack", stack!.name, "--json"], sandbox!.env);
        expect(r.code, tail(r)).toBe(0);
        const findings = (JSON.parse(r.stdout) as { findings: { id: string; verdict: string; detail: string }[] }).findings;
        expect(findings.find((f) => f.id === "conflict-argo-cd")).toMatchObject({ verdict: "pass", detail: "applications.argoproj.io is the platform's own" });
        expect(findings.find((f) => f.id === "namespaces")).toMatchObject({ verdict: "pass", detail: expect.stringContaining(ARGOCD_NAMESPACE) });
    });

    it("a fleet on this Argo CD: the ApplicationSet a hub's render writes, two clusters' Secrets as their stacks output them, and the Applications the generator makes of them (the sync model's replay, from what the API server stored) are accepted", async () => {
        expect(stack, "Argo CD's CRDs, from the tests before").toBeDefined();
        const source = { repoUrl: GITOPS["mara:gitopsRepoUrl"], revision: "feature/{{.name}}", path: GITOPS["mara:gitopsPath"] };
        const files = fleetFiles({ fleet: "engine", infraType: "kubeconfig", clusterName: "engine-a", source }, "");
        const appSet = files.get(`${FLEET_FOLDER}/applicationset-mara-engine.yaml`)!;
        const secrets = ["engine-a", "Engine_B {{server}}"].map((name, i) =>
            stringify(clusterSecretManifest({ clusterName: name, infraType: "kubeconfig", apiServer: `https://192.0.2.${10 + i}:6443`, source, fleet: "engine" }, "hub")),
        );
        try {
            // Strict field validation (kubectl's default): a field the CRD does not know is an error, not dropped.
            const unknown = await apply("fleet-unknown", [appSet.replace("goTemplateOptions:", "goTemplateOptionz:")]);
            expect(unknown.code, unknown.out).not.toBe(0);
            expect(unknown.out).toContain("goTemplateOptionz");
            const r = await apply("fleet", [appSet, ...secrets]);
            expect(r.code, r.out).toBe(0);
            const stored = await request<KubeObject>(cluster, "GET", `/apis/argoproj.io/v1alpha1/namespaces/${ARGOCD_NAMESPACE}/applicationsets/mara-engine`);
            expect(stored.spec).toEqual(parse(appSet).spec);
            const listed = await request<{ items: KubeObject[] }>(cluster, "GET", `/api/v1/namespaces/${ARGOCD_NAMESPACE}/secrets`);
            const generated = generateFromClusters(stored, { secrets: listed.items.map((s) => ({ ...s, apiVersion: "v1", kind: "Secret" })) });
            if ("error" in generated) throw new Error(generated.error);
            expect(generated.refused).toEqual([]);
            expect(generated.applications.map((a) => [a.metadata!.name, (a.spec as { destination: { server: string } }).destination.server])).toEqual([
                ["mara-engine-a", "https://192.0.2.10:6443"],
                ["mara-engine-b---server", "https://192.0.2.11:6443"],
            ]);
            const apps = await apply("fleet-applications", generated.applications.map((a) => stringify(a)));
            expect(apps.code, apps.out).toBe(0);
            const app = await request<KubeObject>(cluster, "GET", `/apis/argoproj.io/v1alpha1/namespaces/${ARGOCD_NAMESPACE}/applications/mara-engine-a`);
            expect(app.spec).toMatchObject({ source: { repoURL: source.repoUrl, targetRevision: "feature/{{.name}}", path: "deploy/engine" }, destination: { server: "https://192.0.2.10:6443" } });
        } finally {
            await kubectl(["delete", "-n", ARGOCD_NAMESPACE, "--ignore-not-found", "applicationset/mara-engine", "application/mara-engine-a", "application/mara-engine-b---server", "secret/mara-cluster-engine-a", "secret/mara-cluster-engine-b-server"]);
        }
    });
});
