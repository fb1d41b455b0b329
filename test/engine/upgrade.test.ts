/**
 * A release upgrades in place: the program as of the previous release tag (read from the repository's own history,
 * with its own lockfile's dependencies, test/engine/previousRelease.ts) deploys an existing-cluster stack with the
 * real engine, then HEAD's program runs `pulumi up` on the same stack, state and cluster. Nothing is replaced or
 * deleted but what CHANGELOG.md's section of the new version lists under "Replaced or deleted on upgrade", both
 * in the engine's own record of the update (its event log) and on the cluster (every object's UID), and a preview
 * right after is clean.
 *
 * The stack is the tier's smallest existing-cluster stack (the benchmark's: the test cluster and the vendored
 * charts), which both versions accept, with one key under the name 0.1.0 gave it, as a stack file written then has;
 * the chart folder is HEAD's, whose archives of the charts this stack installs are the same files in both versions.
 */
import * as fs from "fs";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, TestCluster } from "./cluster";
import { request } from "./kubeApi";
import { installPreviousRelease, locatePreviousRelease, PreviousRelease } from "./previousRelease";
import { pulumi, pulumiSandbox, PulumiSandbox, tail } from "./pulumiEnv";
import { airGappedCharts, baseConfig, createStack, TierStack } from "./stack";
import { ROOT } from "./cluster";
import { DEFAULTS } from "../../contracts";

const located = locatePreviousRelease();
if (located.kind === "shallow") console.warn(`upgrade.test.ts skipped: ${located.reason}`);

let cluster: TestCluster;
let sandbox: PulumiSandbox;
let stack: TierStack;
let charts: string;
let release: PreviousRelease;
let before: Map<string, string>;
let appliersBefore: Record<string, string[]>;

/** The server-side appliers (field managers of `Apply` operations) of Bank of Sirius's StatefulSets, by name. */
async function statefulSetAppliers(): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const db of ["accounts-db", "ledger-db"]) {
        const set = await request<{ metadata: { managedFields: { manager: string; operation: string }[] } }>(cluster, "GET", `/apis/apps/v1/namespaces/bos/statefulsets/${db}`);
        out[db] = set.metadata.managedFields.filter((f) => f.operation === "Apply").map((f) => f.manager);
    }
    return out;
}

/** The steps of an update that delete or replace what the state holds (the engine's StepOp values, sdk/go/common/apitype). */
const DESTRUCTIVE = new Set(["delete", "replace", "create-replacement", "delete-replaced", "discard", "discard-replaced", "read-replacement", "import-replacement", "remove-pending-replace"]);

/** `<type>::<name>` of a URN (`urn:pulumi:<stack>::<project>::<parent types$>type::<name>`). */
const resourceOf = (urn: string) => {
    const parts = urn.split("::");
    return `${parts[2]!.split("$").pop()}::${parts.slice(3).join("::")}`;
};

/** The steps of an `up` from its event log (JSON lines, `--event-log`): what it deleted or replaced, and how many steps of each kind it took. */
function stepsOfUpdate(eventLog: string): { destroyed: string[]; created: string[]; ops: Record<string, number> } {
    const destroyed = new Set<string>();
    const created = new Set<string>();
    const ops: Record<string, number> = {};
    for (const line of eventLog.split("\n")) {
        if (!line.trim()) continue;
        const e = JSON.parse(line) as { resourcePreEvent?: { metadata: { op: string; urn: string } } };
        const m = e.resourcePreEvent?.metadata;
        if (!m) continue;
        ops[m.op] = (ops[m.op] ?? 0) + 1;
        if (DESTRUCTIVE.has(m.op)) destroyed.add(resourceOf(m.urn));
        if (m.op === "create") created.add(resourceOf(m.urn));
    }
    return { destroyed: [...destroyed].sort(), created: [...created].sort(), ops };
}

/** The Pod Security enforce label of a namespace (0.2.0 labels every platform namespace; 0.1.0 labelled none). */
const enforceLevel = async (namespace: string) =>
    (await request<{ metadata: { labels?: Record<string, string> } }>(cluster, "GET", `/api/v1/namespaces/${namespace}`)).metadata.labels?.["pod-security.kubernetes.io/enforce"];

/**
 * The kinds whose objects must keep their UIDs. Left out: what controllers make and remake by design (Pods,
 * ReplicaSets, Endpoints, EndpointSlices, Events, Leases), Helm's own release records (one Secret per revision),
 * and Helm hook objects (`helm.sh/hook`), which Helm deletes and creates again at each upgrade by their delete policy.
 */
const KINDS: readonly (readonly [string, string])[] = [
    ["Namespace", "/api/v1/namespaces"],
    ["PersistentVolumeClaim", "/api/v1/persistentvolumeclaims"],
    ["PersistentVolume", "/api/v1/persistentvolumes"],
    ["CustomResourceDefinition", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"],
    ["Deployment", "/apis/apps/v1/deployments"],
    ["StatefulSet", "/apis/apps/v1/statefulsets"],
    ["DaemonSet", "/apis/apps/v1/daemonsets"],
    ["Service", "/api/v1/services"],
    ["ConfigMap", "/api/v1/configmaps"],
    ["Secret", "/api/v1/secrets"],
    ["ServiceAccount", "/api/v1/serviceaccounts"],
    ["ClusterRole", "/apis/rbac.authorization.k8s.io/v1/clusterroles"],
    ["ClusterRoleBinding", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings"],
    ["Ingress", "/apis/networking.k8s.io/v1/ingresses"],
    ["IngressClass", "/apis/networking.k8s.io/v1/ingressclasses"],
    ["StorageClass", "/apis/storage.k8s.io/v1/storageclasses"],
];
const SYSTEM_NAMESPACES = new Set(["kube-system", "kube-public", "kube-node-lease", "default"]);

/** UID of every object of {@link KINDS} outside the system namespaces, by `<Kind> <namespace>/<name>`. */
async function uids(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const [kind, url] of KINDS) {
        for (const o of (await request<{ items: any[] }>(cluster, "GET", url)).items) {
            const meta = o.metadata;
            if (SYSTEM_NAMESPACES.has(meta.namespace) || (kind === "Namespace" && SYSTEM_NAMESPACES.has(meta.name))) continue;
            if (meta.annotations?.["helm.sh/hook"] || o.type === "helm.sh/release.v1" || meta.name.startsWith("system:")) continue;
            out.set(`${kind} ${meta.namespace ? `${meta.namespace}/` : ""}${meta.name}`, meta.uid);
        }
    }
    return out;
}

/** What CHANGELOG.md's section of package.json's version lists under "Replaced or deleted on upgrade": each item's first code span. */
function changelogAllowed(): string[] {
    const version = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
    const text = fs.readFileSync(path.join(ROOT, "CHANGELOG.md"), "utf8");
    const section = text.split(/^## /m).find((s) => s.startsWith(`[${version}]`));
    if (!section) throw new Error(`CHANGELOG.md has no section for package.json's version ${version}`);
    const list = section.split(/^### /m).find((s) => s.startsWith("Replaced or deleted on upgrade"));
    if (!list) throw new Error(`CHANGELOG.md's ${version} section has no "### Replaced or deleted on upgrade" (write "Nothing." under it when nothing is)`);
    return [...list.matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]!).sort();
}

/**
 * A key under the name 0.1.0 gave it (`mara:ingressImageName` since 0.2.0), set to the image both versions default to:
 * 0.1.0 reads it as its own; HEAD reads it under its old name with one warning, and deploys the same image.
 */
const OLD_KEY_NAMES = { "mara:kicImageName": DEFAULTS.ingressControllerImage.imageName };

beforeAll(async () => {
    if (located.kind === "missing") throw new Error(located.message);
    if (located.kind !== "found") return;
    [cluster, release] = await Promise.all([startCluster(), installPreviousRelease(located)]);
    sandbox = pulumiSandbox();
    charts = airGappedCharts();
    stack = await createStack(sandbox, `upgrade-${process.pid}`, { ...baseConfig(cluster, charts), ...OLD_KEY_NAMES });
    // The same stack file (its configuration and encryption salt) beside the old program.
    fs.copyFileSync(stack.file, path.join(release.dir, path.basename(stack.file)));
});

afterAll(async () => {
    stack?.dispose();
    if (release && stack) fs.rmSync(path.join(release.dir, path.basename(stack.file)), { force: true });
    sandbox?.dispose();
    if (charts) fs.rmSync(charts, { recursive: true, force: true });
    await cluster?.stop();
});

describe.skipIf(located.kind === "shallow")(located.kind === "shallow" ? `upgrade from the previous release (skipped: ${located.reason})` : "upgrade from the previous release, by the real engine", () => {
    it("the previous release's commit is in this clone's history", () => {
        expect(located.kind).toBe("found");
        // Its program is that release's, not HEAD's: its own package.json version and lockfile.
        expect(JSON.parse(fs.readFileSync(path.join(release.dir, "package.json"), "utf8")).version).toBe(release.version);
        console.info(`previous release ${release.tag} (${release.commit.slice(0, 12)}), dependencies installed ${release.installed === "now" ? "by this run" : "by an earlier run"} from its own lockfile`);
    });

    it("the previous release deploys the stack", async () => {
        const up = await pulumi(["up", "--yes", "--skip-preview", "--stack", stack.name, "--non-interactive"], sandbox.env, { cwd: release.dir });
        expect(up.code, tail(up, 80)).toBe(0);
        before = await uids();
        appliersBefore = await statefulSetAppliers();
        expect(before.size).toBeGreaterThan(50);
        // What 0.1.0 did not do yet, so the update below is seen to be HEAD's.
        expect(await enforceLevel("nginx-ingress"), "0.1.0 labelled no namespace for Pod Security").toBeUndefined();
    });

    it("HEAD's pulumi up updates it in place: nothing replaced or deleted but what CHANGELOG.md says", async () => {
        expect(before, "the previous release's deploy failed").toBeDefined();
        const eventLog = path.join(sandbox.dir, "upgrade-events.jsonl");
        // The CLI offers --event-log only with PULUMI_DEBUG_COMMANDS set (pkg/cmd/pulumi/operations/up.go).
        const up = await pulumi(["up", "--yes", "--skip-preview", "--event-log", eventLog, "--stack", stack.name, "--non-interactive"], { ...sandbox.env, PULUMI_DEBUG_COMMANDS: "true" });
        expect(up.code, tail(up, 80)).toBe(0);
        expect(up.stdout + up.stderr, "HEAD reads 0.1.0's key name, and says how to rename it").toContain("are read under their old names until 1.0.0: mara:kicImageName → mara:ingressImageName");
        const after = await uids();
        const gone = [...before].filter(([k, uid]) => after.get(k) !== uid).map(([k]) => (after.has(k) ? `${k} (recreated)` : `${k} (deleted)`));
        const steps = stepsOfUpdate(fs.readFileSync(eventLog, "utf8"));
        console.info(`the update's steps: ${JSON.stringify(steps.ops)}; created: ${steps.created.join(", ")}`);
        // The update did change the stack (HEAD's program ran over 0.1.0's state): it updated objects in place and
        // labelled the namespaces as 0.2.0 does.
        expect(steps.ops.update, "the update changed nothing: was HEAD's program run?").toBeGreaterThan(0);
        expect(await enforceLevel("nginx-ingress")).toBe("restricted");
        const destroyed = [...steps.destroyed, ...gone].sort();
        expect(destroyed, "what the update replaced or deleted (state: <type>::<name>; cluster: <Kind> <namespace>/<name>) against CHANGELOG.md").toEqual(changelogAllowed());
        // HEAD creates Bank of Sirius's StatefulSets as a stable field manager (components/ownership/fieldManager.ts);
        // the ones 0.1.0 created keep the manager their state records, untouched by the update.
        expect(await statefulSetAppliers(), "the StatefulSets' server-side appliers").toEqual(appliersBefore);
        for (const managers of Object.values(appliersBefore)) expect(managers).toEqual([expect.stringMatching(/^pulumi-kubernetes-[0-9a-f]+$/)]);
    });

    it("a preview right after is clean", async () => {
        const r = await stack.pulumi(["preview", "--expect-no-changes", "--diff"]);
        expect(r.code, tail(r, 80)).toBe(0);
    });
});
