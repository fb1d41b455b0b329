/**
 * The whole platform on an existing cluster, deployed by the real Pulumi engine into a real API server: `mara up`,
 * then the engine's own proof of no permanent diff (`preview --expect-no-changes`, `refresh --expect-no-changes`),
 * an in-place update, and `mara destroy` leaving nothing of ours behind.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, TestCluster } from "./cluster";
import { getOrUndefined, request } from "./kubeApi";
import { mara, pulumiSandbox, PulumiSandbox, tail } from "./pulumiEnv";
import { baseConfig, createStack, TierStack } from "./stack";

let cluster: TestCluster;
let sandbox: PulumiSandbox;
let stack: TierStack;

beforeAll(async () => {
    cluster = await startCluster();
    sandbox = pulumiSandbox();
    stack = await createStack(sandbox, `engine-${process.pid}`, baseConfig(cluster));
});

afterAll(async () => {
    stack?.dispose();
    sandbox?.dispose();
    await cluster?.stop();
});

/** Helm's release records (Secrets of type helm.sh/release.v1), newest revision per release. */
async function helmReleases(): Promise<Map<string, { namespace: string; status: string; version: number }>> {
    const list = await request<{ items: any[] }>(cluster, "GET", "/api/v1/secrets?labelSelector=owner%3Dhelm");
    const out = new Map<string, { namespace: string; status: string; version: number }>();
    for (const s of list.items) {
        const l = s.metadata.labels;
        const prev = out.get(l.name);
        if (!prev || Number(l.version) > prev.version) out.set(l.name, { namespace: s.metadata.namespace, status: l.status, version: Number(l.version) });
    }
    return out;
}

/** The first Deployment whose name contains `part`, in any namespace. */
async function findDeployment(part: string): Promise<any | undefined> {
    const list = await request<{ items: any[] }>(cluster, "GET", "/apis/apps/v1/deployments");
    return list.items.find((d) => d.metadata.name.includes(part));
}

/** UIDs of what must never be replaced: the platform's namespaces, every claim, every CRD. */
async function identities(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const [kind, path] of [
        ["Namespace", "/api/v1/namespaces"],
        ["PVC", "/api/v1/persistentvolumeclaims"],
        ["CRD", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"],
    ] as const) {
        for (const o of (await request<{ items: any[] }>(cluster, "GET", path)).items) {
            out[`${kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ""}${o.metadata.name}`] = o.metadata.uid;
        }
    }
    return out;
}

const PLATFORM_NAMESPACES = async () =>
    (await request<{ items: any[] }>(cluster, "GET", "/api/v1/namespaces?labelSelector=app.kubernetes.io%2Fpart-of%3Dmara")).items.map((n) => n.metadata.name as string).sort();

describe("the platform on an existing cluster, by the real engine", () => {
    it("mara up --yes deploys everything: every Helm release deployed, the typed objects present, the outputs as documented", async () => {
        const up = await mara(["up", "--yes", "--stack", stack.name], sandbox.env);
        expect(up.code, tail(up, 80)).toBe(0);

        const releases = await helmReleases();
        expect([...releases.keys()].sort(), tail(up)).toEqual(expect.arrayContaining(["cert-manager", "nginx-ingress"]));
        for (const [name, r] of releases) expect(`${name}: ${r.status}`).toBe(`${name}: deployed`);

        expect(await PLATFORM_NAMESPACES()).toContain("nginx-ingress");
        const outputs = await stack.pulumi(["stack", "output", "--json", "--show-secrets"]);
        expect(outputs.code, tail(outputs)).toBe(0);
        const out = JSON.parse(outputs.stdout);
        expect(out.infra_type).toBe("kubeconfig");
        expect(out.cluster_name).toBe("engine");
    });

    it("pulumi preview --expect-no-changes right after: no permanent diff", async () => {
        const r = await stack.pulumi(["preview", "--expect-no-changes", "--diff"]);
        expect(r.code, tail(r, 120)).toBe(0);
    });

    it("pulumi refresh --expect-no-changes: the cluster holds what the state says", async () => {
        const r = await stack.pulumi(["refresh", "--expect-no-changes", "--yes"]);
        expect(r.code, tail(r, 120)).toBe(0);
    });

    it("a config change updates in place: replicas, a chart value and a rotated password; namespaces, claims and CRDs keep their identity", async () => {
        const before = await identities();
        const ledgerPodTemplate = async () => (await findDeployment("ledger-db"))?.spec.template.metadata.annotations?.["secrets.mara/revision"];
        const revisionBefore = await ledgerPodTemplate();
        await stack.set("mara:ingressReplicas", "2");
        await stack.set("mara:siriusLedgerPassword", "rotated-ledger-password-1", true);
        const up = await stack.pulumi(["up", "--yes", "--skip-preview"]);
        expect(up.code, tail(up, 120)).toBe(0);
        expect(up.stdout, "nothing may be replaced").not.toMatch(/replaced|\+-/);

        const controller = await findDeployment("nginx-ingress");
        expect(controller?.spec.replicas).toBe(2);
        expect(await identities()).toEqual(before);
        if (revisionBefore !== undefined) expect(await ledgerPodTemplate(), "the ledger database's pods roll when its password changes").not.toBe(revisionBefore);

        const again = await stack.pulumi(["preview", "--expect-no-changes"]);
        expect(again.code, tail(again, 80)).toBe(0);
    });

    it("mara destroy --yes leaves nothing of ours; a second destroy is a no-op", async () => {
        const r = await mara(["destroy", "--yes", "--stack", stack.name], sandbox.env);
        expect(r.code, tail(r, 80)).toBe(0);
        expect(await PLATFORM_NAMESPACES()).toEqual([]);
        expect((await helmReleases()).size).toBe(0);
        expect(await getOrUndefined(cluster, "/apis/networking.k8s.io/v1/ingressclasses/nginx")).toBeUndefined();
        const again = await mara(["destroy", "--yes", "--stack", stack.name], sandbox.env);
        expect(again.code, tail(again)).toBe(0);
    });
});
