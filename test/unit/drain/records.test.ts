/** The cluster's records read with the official Kubernetes client from a fake API server: every page, the right fields. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KUBERNETES_CALL_DEADLINE_MS, kubernetesClusterClient, readRecords } from "../../../components/drain/records";
import { hostileServer } from "../../support/hostileServer";
import { FakeKubernetes, helmMarks } from "../../support/fakeClouds";
import { FakeApiServer, serveKubernetes } from "../../support/fakeKubernetesServer";

describe("cluster records through the Kubernetes API", () => {
    const k8s = new FakeKubernetes(
        [
            { name: "pvc-1", reclaimPolicy: "Delete", driver: "ebs.csi.aws.com", handle: "vol-1", provisionedBy: "ebs.csi.aws.com", claim: "bos/data-accounts-db-0" },
            { name: "local-1", reclaimPolicy: "Retain" },
            { name: "imported", reclaimPolicy: "Delete", driver: "ebs.csi.aws.com", handle: "vol-9" },
            // A PV object without a reclaim policy: the API's default is Retain, never Delete.
            { name: "pvc-unsaid", driver: "ebs.csi.aws.com", handle: "vol-7", provisionedBy: "ebs.csi.aws.com" },
        ],
        [
            { namespace: "a", name: "internal", type: "ClusterIP" },
            { namespace: "b", name: "nlb", type: "LoadBalancer", hostnames: ["x-1.elb.amazonaws.com"], annotations: { k: "v" } },
            { namespace: "c", name: "pending", type: "LoadBalancer" },
            { namespace: "d", name: "ip", type: "LoadBalancer", ips: ["203.0.113.1"] },
        ],
        [
            { name: "a.example.com", group: "example.com" },
            { name: "b.example.com", group: "example.com", ...helmMarks("eck-operator", "logstore") },
            { name: "c.example.com", group: "example.com" },
        ],
        2,
    );
    let server: FakeApiServer;
    beforeAll(async () => {
        server = await serveKubernetes(k8s);
    });
    afterAll(() => server.close());

    it("reads PersistentVolumes and LoadBalancer Services from every page", async () => {
        const records = await readRecords(kubernetesClusterClient(server.kubeconfig));
        expect(records.volumes).toEqual([
            { pv: "pvc-1", reclaimPolicy: "Delete", driver: "ebs.csi.aws.com", handle: "vol-1", provisionedBy: "ebs.csi.aws.com", claim: "bos/data-accounts-db-0" },
            { pv: "local-1", reclaimPolicy: "Retain", driver: undefined, handle: undefined, provisionedBy: undefined, claim: undefined },
            { pv: "imported", reclaimPolicy: "Delete", driver: "ebs.csi.aws.com", handle: "vol-9", provisionedBy: undefined, claim: undefined },
            { pv: "pvc-unsaid", reclaimPolicy: "Retain", driver: "ebs.csi.aws.com", handle: "vol-7", provisionedBy: "ebs.csi.aws.com", claim: undefined },
        ]);
        expect(records.loadBalancers).toEqual([
            { service: "b/nlb", ips: [], hostnames: ["x-1.elb.amazonaws.com"], annotations: { k: "v" } },
            { service: "c/pending", ips: [], hostnames: [], annotations: {} },
            { service: "d/ip", ips: ["203.0.113.1"], hostnames: [], annotations: {} },
        ]);
        expect(k8s.lists.filter((l) => l.path === "/api/v1/persistentvolumes").map((l) => l.token)).toEqual([undefined, "2"]);
        expect(k8s.lists.filter((l) => l.path === "/api/v1/services").map((l) => l.token)).toEqual([undefined, "2"]);
    }, 120_000);

    it("reads CRDs with their Helm marks, deletes Services and CRDs, and sets a PV to Retain", async () => {
        const client = kubernetesClusterClient(server.kubeconfig);
        const crds = await client.customResourceDefinitions();
        expect(crds.map((c) => c.name)).toEqual(["a.example.com", "b.example.com", "c.example.com"]);
        expect(crds[1]).toMatchObject(helmMarks("eck-operator", "logstore"));
        await client.deleteService("b/nlb");
        await client.deleteCustomResourceDefinition("c.example.com");
        await client.retainPersistentVolume("pvc-1");
        // Already gone is not an error.
        await client.deleteService("b/nlb");
        expect(k8s.deletedServices).toEqual(["b/nlb"]);
        expect(k8s.deletedCrds).toEqual(["c.example.com"]);
        expect(k8s.pvs[0]!.reclaimPolicy).toBe("Retain");
    });
});

describe("an API server that never gives a whole answer", () => {
    /** A kubeconfig for a plain-HTTP server on loopback (the client talks to it as to any API server). */
    const kubeconfigFor = (url: string) =>
        `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "${url}", insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`;

    for (const kind of ["silent", "drip"] as const) {
        it(`(${kind}) fails every call of the drain's client at its deadline, naming the call and the server`, async () => {
            const server = await hostileServer(() => ({ kind }));
            try {
                // A small injected deadline, seen firing by its message; the default is KUBERNETES_CALL_DEADLINE_MS.
                const client = kubernetesClusterClient(kubeconfigFor(server.url), undefined, 300);
                const calls: [string, () => Promise<unknown>][] = [
                    ["listing PersistentVolumes", () => client.persistentVolumes()],
                    ["listing Services", () => client.loadBalancerServices()],
                    ["deleting Service a/b", () => client.deleteService("a/b")],
                    ["listing CustomResourceDefinitions", () => client.customResourceDefinitions()],
                    ["deleting CustomResourceDefinition x.example.com", () => client.deleteCustomResourceDefinition("x.example.com")],
                    ["setting PersistentVolume pv-1 to Retain", () => client.retainPersistentVolume("pv-1")],
                ];
                for (const [what, call] of calls) {
                    await expect(call()).rejects.toThrow(`Kubernetes API at ${server.url}: ${what} got no complete answer within 300 ms`);
                }
                expect(server.requests.length).toBe(calls.length);
            } finally {
                await server.close();
            }
        });
    }

    it("keeps a deadline far above a normal answer by default", () => {
        expect(KUBERNETES_CALL_DEADLINE_MS).toBeGreaterThanOrEqual(60_000);
    });
});
