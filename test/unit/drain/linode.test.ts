/**
 * The Linode drain among neighbours, through its @linode/api-v4 adapter against a fake account: a tag
 * proves nothing (users tag their own resources `mara-cluster-<name>` for grouping); the Service's
 * status address and the PV-derived volume label do. Lists follow `pages`.
 */
import { describe, expect, it } from "vitest";
import { labelFromPv, LINODE_CSI_DRIVER, linodeDrainApi, linodeDrainClient, parseLinodeHandle } from "../../../components/drain/linode";
import { DrainProps, runDrain } from "../../../components/drain/run";
import { fakeClock, FakeKubernetes, FakeLinode, FakePv, STUCK_CONTROLLER } from "../../support/fakeClouds";

const PV1 = "pvc-1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";
const PV2 = "pvc-9f8e7d6c-5b4a-4f3e-8d2c-1b0a9f8e7d6c";
const TAG = "mara-cluster-mara-dev";
const provisioned = (name: string, handle: string, extra: Partial<FakePv> = {}): FakePv => ({ name, reclaimPolicy: "Delete", driver: LINODE_CSI_DRIVER, handle, provisionedBy: LINODE_CSI_DRIVER, ...extra });

function neighbourhood() {
    const k8s = new FakeKubernetes(
        [
            provisioned(PV1, `101-${PV1.slice(0, 32)}`),
            provisioned(PV2, `102-${PV2.replace(/-/g, "").slice(0, 32)}`, { reclaimPolicy: "Retain" }),
            provisioned("imported-data", "103-userdata", { provisionedBy: undefined }),
            provisioned("pvc-0000aaaa-bbbb-4ccc-8ddd-eeeeffff0000", "104-pvc-0000aaaa-bbbb-4ccc-8ddd-e"),
        ],
        [
            { namespace: "shop", name: "api", type: "LoadBalancer", ips: ["198.51.100.7"], annotations: { [STUCK_CONTROLLER]: "true" } },
            { namespace: "blog", name: "web", type: "LoadBalancer", ips: ["198.51.100.8"], annotations: { "service.beta.kubernetes.io/linode-loadbalancer-preserve": "true" } },
        ],
    );
    const linode = new FakeLinode(
        [
            // The README's grouping tag on the user's own NodeBalancer, and another cluster's with a shared prefix.
            { id: 1, label: "users-own", ipv4: "192.0.2.1", hostname: "192-0-2-1.ip.linodeusercontent.com", tags: [TAG] },
            { id: 2, label: "ccm-prefix", ipv4: "192.0.2.2", hostname: "192-0-2-2.ip.linodeusercontent.com", tags: ["mara-cluster-mara-dev-2"] },
            { id: 3, label: "shared", ipv4: "192.0.2.3", hostname: "192-0-2-3.ip.linodeusercontent.com", tags: ["shared"] },
            { id: 4, label: "ccm-x", ipv4: "192.0.2.4", hostname: "192-0-2-4.ip.linodeusercontent.com", tags: ["mara-cluster-other"] },
            // Another cluster's NodeBalancer with the same label as ours.
            { id: 9, label: "ccm-ours", ipv4: "192.0.2.9", hostname: "192-0-2-9.ip.linodeusercontent.com", tags: [TAG] },
            { id: 8, label: "ccm-preserved", ipv4: "198.51.100.8", hostname: "198-51-100-8.ip.linodeusercontent.com", tags: [TAG] },
            { id: 7, label: "ccm-ours", ipv4: "198.51.100.7", hostname: "198-51-100-7.ip.linodeusercontent.com", tags: [TAG] },
        ],
        [
            { id: 101, label: PV1.slice(0, 32), tags: [TAG], linodeId: null },
            { id: 102, label: PV2.replace(/-/g, "").slice(0, 32), tags: [TAG], linodeId: null },
            { id: 103, label: "userdata", tags: [TAG], linodeId: null },
            { id: 104, label: "renamed-by-hand", tags: [TAG], linodeId: null },
            { id: 105, label: "pvcearlier0000000000000000000000", tags: [TAG], linodeId: null },
            { id: 106, label: "grouped", tags: [TAG], linodeId: null },
        ],
    );
    k8s.onServiceDeleted = (s) => linode.serviceDeleted(s);
    return { k8s, linode };
}

const PROPS: DrainProps = { cloud: "linode", clusterName: "mara-dev", token: "linode-token", kubeconfig: "fake", removeCrds: false, retainVolumes: false, timeoutMinutes: 15 };

async function destroy(world: ReturnType<typeof neighbourhood>, props: Partial<DrainProps> = {}) {
    return runDrain(
        { ...PROPS, ...props },
        () => undefined,
        {
            cluster: () => world.k8s.client(),
            cloud: (q, records) => linodeDrainApi(linodeDrainClient(world.linode.api()), { clusterName: q.clusterName, retainVolumes: q.retainVolumes }, records),
        },
        { ...fakeClock(), graceMs: 120_000, pollMs: 15_000 },
    );
}

describe("Linode drain among neighbours", () => {
    it("deletes exactly the NodeBalancer a Service names and the volume its Delete PV names", async () => {
        const world = neighbourhood();
        const report = await destroy(world);
        expect([...world.linode.deleted].sort()).toEqual(["nb:7", "vol:101"]);
        expect(report!.kept.map((k) => `${k.kind} ${k.id}: ${k.reason}`).sort()).toEqual([
            "NodeBalancer 8: the Service asks Linode's controller to preserve it",
            "volume 102: its PersistentVolume's reclaim policy is Retain",
            `volume 103: imported: the PersistentVolume was not provisioned by ${LINODE_CSI_DRIVER} in this cluster`,
            "volume 104: its label is not the one the CSI driver derives from pvc-0000aaaa-bbbb-4ccc-8ddd-eeeeffff0000, so it is not proven the volume this cluster provisioned",
        ]);
    });

    it("follows pages: our NodeBalancer is on the third", async () => {
        const world = neighbourhood();
        await destroy(world);
        expect(world.linode.listed.filter((l) => l.call === "getNodeBalancers").map((l) => l.page).slice(0, 3)).toEqual([1, 2, 3]);
    });

    it("keeps every volume when mara:retainVolumes is set", async () => {
        const world = neighbourhood();
        await destroy(world, { retainVolumes: true });
        expect(world.linode.deleted).toEqual(["nb:7"]);
    });

    it("reads volume handles and recognises the labels the CSI driver derives from a PV name", () => {
        expect(parseLinodeHandle("12345-pvc1a2b")).toEqual({ id: 12345, label: "pvc1a2b" });
        expect(parseLinodeHandle("userdata")).toBeUndefined();
        expect(labelFromPv(PV1.slice(0, 32), PV1)).toBe(true);
        expect(labelFromPv(PV1.replace(/-/g, "").slice(0, 32), PV1)).toBe(true);
        expect(labelFromPv(`csi-${PV1}`.slice(0, 32), PV1)).toBe(true);
        // Another claim's volume, and too little of the name to prove anything.
        expect(labelFromPv(PV2.slice(0, 32), PV1)).toBe(false);
        expect(labelFromPv("pvc-1a2b3c4d", PV1)).toBe(false);
    });
});
