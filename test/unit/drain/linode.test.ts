/**
 * The Linode drain among neighbours, through the real @linode/api-v4 over loopback HTTP against a fake
 * account that answers as Linode's API documents (test/support/fakeLinode.ts has the table: pages,
 * errors, 429 with Retry-After, 5xx, 404 on a delete of what is already gone). A tag proves nothing
 * (users tag their own resources `mara-cluster-<name>` for grouping), nor does the nodebalancer-id
 * annotation; the address in the Service's status at the first look and the PV-derived volume label do.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labelFromPv, LINODE_CSI_DRIVER, linodeDrainApi, linodeDrainClient, NODEBALANCER_ID_ANNOTATION, parseLinodeHandle } from "../../../components/drain/linode";
import { DrainProps, runDrain } from "../../../components/drain/run";
import { fakeClock, FakeKubernetes, FakeLinode, FakePv, FakeService, STUCK_CONTROLLER } from "../../support/fakeClouds";
import { serveLinode, ServedLinode } from "../../support/fakeLinode";

const PV1 = "pvc-1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";
const PV2 = "pvc-9f8e7d6c-5b4a-4f3e-8d2c-1b0a9f8e7d6c";
const TAG = "mara-cluster-mara-dev";
const provisioned = (name: string, handle: string, extra: Partial<FakePv> = {}): FakePv => ({ name, reclaimPolicy: "Delete", driver: LINODE_CSI_DRIVER, handle, provisionedBy: LINODE_CSI_DRIVER, ...extra });

let current: FakeLinode;
let served: ServedLinode;
beforeAll(async () => {
    served = await serveLinode(() => current);
});
afterAll(async () => {
    await served?.close();
});

function neighbourhood(extraServices: FakeService[] = []) {
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
            ...extraServices,
        ],
    );
    current = new FakeLinode(
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
    const linode = current;
    k8s.onServiceDeleted = (s) => linode.serviceDeleted(s);
    return { k8s, linode };
}

const PROPS: DrainProps = { cloud: "linode", clusterName: "mara-dev", token: "linode-token", kubeconfig: "fake", removeCrds: false, retainVolumes: false, timeoutMinutes: 15 };

async function destroy(world: ReturnType<typeof neighbourhood>, props: Partial<DrainProps> = {}) {
    const log: string[] = [];
    const report = await runDrain(
        { ...PROPS, ...props },
        (m) => log.push(m),
        {
            cluster: () => world.k8s.client(),
            cloud: (q, records) => linodeDrainApi(linodeDrainClient(served.api), { clusterName: q.clusterName, retainVolumes: q.retainVolumes }, records),
        },
        { ...fakeClock(), graceMs: 120_000, pollMs: 15_000 },
    );
    return { report, log };
}

describe("Linode drain among neighbours", () => {
    it("deletes exactly the NodeBalancer a Service's status names and the volume its Delete PV names", async () => {
        const world = neighbourhood();
        const { report } = await destroy(world);
        expect([...world.linode.deleted].sort()).toEqual(["nb:7", "vol:101"]);
        expect(report!.kept.map((k) => `${k.kind} ${k.id}: ${k.reason}`).sort()).toEqual([
            "NodeBalancer 8: the Service asks Linode's controller to preserve it",
            "volume 102: its PersistentVolume's reclaim policy is Retain",
            `volume 103: imported: the PersistentVolume was not provisioned by ${LINODE_CSI_DRIVER} in this cluster`,
            "volume 104: its label is not the one the CSI driver derives from pvc-0000aaaa-bbbb-4ccc-8ddd-eeeeffff0000, so it is not proven the volume this cluster provisioned",
        ]);
    });

    it("keeps the user's own NodeBalancer that a Pending Service names only by its nodebalancer-id annotation", async () => {
        // The controller could not adopt NodeBalancer 1: the Service stays Pending, with no address in its status.
        const world = neighbourhood([{ namespace: "shop", name: "adopt", type: "LoadBalancer", annotations: { [NODEBALANCER_ID_ANNOTATION]: "1" } }]);
        const { report } = await destroy(world);
        expect(world.linode.deleted.filter((d) => d.startsWith("nb:"))).toEqual(["nb:7"]);
        expect(report!.kept.find((k) => k.id === "1")).toEqual({
            kind: "NodeBalancer",
            id: "1",
            name: `users-own, named by Service shop/adopt's ${NODEBALANCER_ID_ANNOTATION} annotation only`,
            reason: "the Service's status does not name it, so it is not proven this cluster's (a NodeBalancer of your own that the controller did not adopt)",
        });
    });

    it("never deletes another cluster's NodeBalancer that receives our released address during the drain", async () => {
        const world = neighbourhood([{ namespace: "news", name: "feed", type: "LoadBalancer", ips: ["198.51.100.20"] }]);
        world.linode.nbs.push({ id: 20, label: "ccm-feed", ipv4: "198.51.100.20", hostname: "198-51-100-20.ip.linodeusercontent.com", tags: [TAG] });
        world.k8s.onServiceDeleted = (s) => {
            world.linode.serviceDeleted(s);
            // Linode hands the released address to the next NodeBalancer created: another cluster's.
            if (s.name === "feed") world.linode.nbs.push({ id: 21, label: "other-cluster", ipv4: "198.51.100.20", hostname: "198-51-100-20.ip.linodeusercontent.com", tags: ["mara-cluster-other"] });
        };
        await destroy(world);
        expect(world.linode.deleted.filter((d) => d.startsWith("nb:")).sort()).toEqual(["nb:20", "nb:7"]);
        expect(world.linode.nbs.map((n) => n.id)).toContain(21);
    });

    it("follows pages: our NodeBalancer is on the fourth, and the page size stays within Linode's 25 to 500", async () => {
        const world = neighbourhood();
        await destroy(world);
        expect(world.linode.listed.filter((l) => l.call === "getNodeBalancers").map((l) => l.page).slice(0, 4)).toEqual([1, 2, 3, 4]);
    });

    it("keeps every volume when mara:retainVolumes is set", async () => {
        const world = neighbourhood();
        await destroy(world, { retainVolumes: true });
        expect(world.linode.deleted).toEqual(["nb:7"]);
    });
});

describe("Linode drain under the API's faults", () => {
    it("waits the Retry-After of a 429 and retries 5xx, and finishes", async () => {
        const world = neighbourhood();
        world.linode.faults.add("GET", /^\/v4\/nodebalancers$/, 1, 429, { "retry-after": "30" });
        world.linode.faults.add("GET", /^\/v4\/volumes\/101$/, 2, 503);
        world.linode.faults.add("GET", /^\/v4\/nodebalancers$/, 1, 502);
        const { log } = await destroy(world);
        expect(world.linode.faults.pending()).toBe(0);
        expect(log.filter((m) => m.includes("could not list its resources"))).toEqual([
            // Faults in a row double the wait; a Retry-After longer than the backoff wins.
            "Linode cluster mara-dev: could not list its resources (Request failed with status code 429 (Too Many Requests)); trying again in 30 s",
            "Linode cluster mara-dev: could not list its resources (Request failed with status code 502 (Bad Gateway)); trying again in 2 s",
            "Linode cluster mara-dev: could not list its resources (Request failed with status code 503 (Service Unavailable)); trying again in 4 s",
            "Linode cluster mara-dev: could not list its resources (Request failed with status code 503 (Service Unavailable)); trying again in 8 s",
        ]);
        expect([...world.linode.deleted].sort()).toEqual(["nb:7", "vol:101"]);
    });

    it("counts a 404 on deleting a NodeBalancer another hand deleted first as done", async () => {
        const world = neighbourhood();
        world.linode.beforeAnswer = (method, path) => {
            if (method === "DELETE" && path === "/v4/nodebalancers/7") world.linode.nbs = world.linode.nbs.filter((n) => n.id !== 7);
        };
        const { report, log } = await destroy(world);
        expect(world.linode.nbs.map((n) => n.id)).not.toContain(7);
        expect(log.some((m) => m.includes("could not delete"))).toBe(false);
        expect(report!.deleted.map((r) => r.id).sort()).toEqual(["101", "7"]);
    });

    it("fails at once, deleting nothing, when the token is refused", async () => {
        const world = neighbourhood();
        world.linode.faults.add("GET", /^\/v4\/nodebalancers$/, 1, 401);
        await expect(destroy(world)).rejects.toThrow("Linode cluster mara-dev: the cloud's API refused a list call, which no retry can fix: Request failed with status code 401 (Invalid Token)");
        expect(world.linode.deleted).toEqual([]);
        expect(world.k8s.deletedServices).toEqual([]);
    });
});

describe("volume handles and labels", () => {
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
