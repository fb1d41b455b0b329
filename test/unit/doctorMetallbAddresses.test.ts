/**
 * `mara doctor`'s MetalLB pool check against the cluster's own addresses: a pool (`mara:metallbAddresses`) that holds a
 * node's InternalIP or ExternalIP, or the API server's address (the kubeconfig's server, or an endpoint of the
 * `kubernetes` Service), fails, naming the key, the node and the address; one address past either end passes. The
 * cluster is a fake client answering as the API server does (test/engine/doctor.test.ts runs the same check on a
 * real one).
 */
import { describe, expect, it } from "vitest";
import { checkDistribution, NodeInfo } from "../../cli/doctor/distribution";
import type { KubeClient } from "../../cli/doctor/kubeClient";
import { doctorPlan } from "../../cli/doctor/plan";

const node = (name: string, addresses: { type: string; address: string }[]): NodeInfo => ({ metadata: { name }, status: { addresses } });
const NODES = [
    node("cp-1", [
        { type: "InternalIP", address: "192.168.1.10" },
        { type: "Hostname", address: "cp-1" },
    ]),
    node("worker-1", [
        { type: "InternalIP", address: "192.168.1.21" },
        { type: "ExternalIP", address: "203.0.113.7" },
        { type: "InternalIP", address: "fd00::21" },
    ]),
];

/** A cluster with these nodes, the Service range 10.96.0.0/12, and the API server at `server` with `endpoints`. */
function cluster(server = "https://api.lab.example:6443", endpoints: string[] = ["192.168.1.10"]): KubeClient {
    const answers: Record<string, unknown> = {
        "/api/v1/nodes": { items: NODES },
        "/apis/storage.k8s.io/v1/storageclasses": { items: [] },
        "/api/v1/services": { items: [] },
        "/apis/networking.k8s.io/v1/servicecidrs": { items: [{ spec: { cidrs: ["10.96.0.0/12"] } }] },
        "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dkubernetes": { items: [{ metadata: { name: "kubernetes" }, endpoints: [{ addresses: endpoints }] }] },
    };
    const get = async (p: string) => answers[p];
    return { server, context: "lab", user: null, get: get as KubeClient["get"], find: get as KubeClient["find"], post: async () => ({}) as never };
}

async function verdict(addresses: string[], client = cluster()) {
    const plan = { ...doctorPlan(), metallb: { addresses } };
    const { findings } = await checkDistribution(client, { gitVersion: "v1.35.4", major: "1", minor: "35" }, plan);
    return findings.find((f) => f.id === "metallb-addresses")!;
}

describe("a MetalLB pool against the cluster's own addresses", () => {
    it("holding a node's InternalIP: fails, naming the key, the node and the address", async () => {
        const f = await verdict(["192.168.1.16-192.168.1.31"]);
        expect(f.verdict).toBe("fail");
        expect(f.detail).toBe("mara:metallbAddresses (192.168.1.16-192.168.1.31) holds node worker-1's InternalIP 192.168.1.21");
        expect(f.fix).toContain("take that address out of the pool: MetalLB would give it to a LoadBalancer Service and answer ARP for it, cutting off the node");
    });

    it("holding a node's ExternalIP", async () => {
        expect((await verdict(["203.0.113.0/28"])).detail).toBe("mara:metallbAddresses (203.0.113.0/28) holds node worker-1's ExternalIP 203.0.113.7");
    });

    it("holding the API server's address: the kubeconfig's server, an endpoint of the kubernetes Service", async () => {
        const f = await verdict(["192.168.1.8-192.168.1.12"], cluster("https://192.168.1.9:6443", ["192.168.1.10"]));
        expect(f.verdict).toBe("fail");
        expect(f.detail).toBe(
            "mara:metallbAddresses (192.168.1.8-192.168.1.12) holds node cp-1's InternalIP 192.168.1.10 and the API server's address 192.168.1.9 (the kubeconfig's server) and the API server's address 192.168.1.10 (an endpoint of the kubernetes Service)",
        );
        expect(f.items).toHaveLength(3);
        expect(f.fix).toContain("cutting off the node");
    });

    it("one address past either end passes; the first and last addresses of the range count", async () => {
        expect((await verdict(["192.168.1.22-192.168.1.30"])).verdict).toBe("pass");
        expect((await verdict(["192.168.1.11-192.168.1.20"])).verdict).toBe("pass");
        expect((await verdict(["192.168.1.21-192.168.1.30"])).verdict).toBe("fail");
        expect((await verdict(["192.168.1.11-192.168.1.21"])).verdict).toBe("fail");
        expect((await verdict(["192.168.1.21"])).verdict).toBe("fail");
    });

    it("a free pool passes, saying what it was compared with", async () => {
        const f = await verdict(["192.168.1.240-192.168.1.250"]);
        expect(f).toMatchObject({ verdict: "pass", detail: "no overlap with the Service range 10.96.0.0/12; it holds no node address (3 checked) and not the API server's address" });
    });

    it("a pool in the Service range that also holds a node's address: both, listed", async () => {
        const f = await verdict(["10.96.0.0/28", "192.168.1.21-192.168.1.21"]);
        expect(f.detail).toBe("mara:metallbAddresses (10.96.0.0/28, 192.168.1.21-192.168.1.21) overlaps the Service range 10.96.0.0/12; it holds node worker-1's InternalIP 192.168.1.21");
        expect(f.items).toEqual(["the Service range 10.96.0.0/12", "node worker-1's InternalIP 192.168.1.21"]);
    });

    it("a host name as the server is not looked up; without EndpointSlices the nodes are still checked", async () => {
        const client = cluster("https://api.lab.example:6443", []);
        expect((await verdict(["192.168.1.9"], client)).verdict).toBe("pass");
        expect((await verdict(["192.168.1.10"], client)).detail).toBe("mara:metallbAddresses (192.168.1.10) holds node cp-1's InternalIP 192.168.1.10");
    });
});
