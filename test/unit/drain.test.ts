/** The destroy drain against in-memory fakes of each cloud's API: waiting, tag matching, deleting, giving up. */
import { describe, expect, it } from "vitest";
import { AwsDrainClient, awsDrainApi, eniLoadBalancer } from "../../components/drain/aws";
import { removeCrds, PLATFORM_CRD_GROUPS } from "../../components/drain/crds";
import { DigitalOceanDrainClient, digitalOceanDrainApi } from "../../components/drain/digitalocean";
import { drain, DrainApi, LeftoverResource } from "../../components/drain/engine";
import { LinodeDrainClient, linodeDrainApi } from "../../components/drain/linode";

/** A clock the drain's sleeps advance, so minutes pass instantly. */
function fakeClock() {
    let t = 0;
    return { now: () => t, sleep: async (ms: number) => void (t += ms) };
}

/** A cloud whose leftovers disappear by themselves after `selfCleanMs`, or only when deleted. */
function fakeApi(resources: (LeftoverResource & { goneAt?: number })[], clock: { now: () => number }, failFirstDelete = false): DrainApi & { removed: string[] } {
    const removed: string[] = [];
    let failed = false;
    return {
        target: "test cluster",
        removed,
        async list() {
            return resources.filter((r) => !removed.includes(r.id) && (r.goneAt === undefined || clock.now() < r.goneAt));
        },
        async remove(r) {
            if (failFirstDelete && !failed) {
                failed = true;
                throw new Error("DependencyViolation");
            }
            removed.push(r.id);
        },
    };
}

describe("drain engine", () => {
    it("waits while Kubernetes removes its load balancers itself, deleting nothing", async () => {
        const clock = fakeClock();
        const api = fakeApi([{ kind: "load balancer", id: "lb-1", deletable: true, goneAt: 60_000 }], clock);
        const log: string[] = [];
        const report = await drain(api, { ...clock, graceMs: 120_000, pollMs: 15_000, log: (m) => log.push(m) });
        expect(api.removed).toEqual([]);
        expect(report.deleted).toEqual([]);
        expect(log[0]).toBe("test cluster: waiting for Kubernetes to remove 1 resource(s): load balancer lb-1");
        expect(log.at(-1)).toBe("test cluster: no load balancers, interfaces or volumes left; the cluster can be deleted.");
    });

    it("deletes leftovers after the grace period, retrying a delete that fails, and only deletable ones", async () => {
        const clock = fakeClock();
        const api = fakeApi(
            [
                { kind: "load balancer", id: "lb-1", deletable: true },
                { kind: "network interface", id: "eni-1", deletable: false, goneAt: 200_000 },
            ],
            clock,
            true,
        );
        const report = await drain(api, { ...clock, graceMs: 120_000, pollMs: 15_000 });
        expect(api.removed).toEqual(["lb-1"]);
        expect(report.deleted.map((r) => r.id)).toEqual(["lb-1"]);
    });

    it("gives up after the timeout, naming what is left and what to do", async () => {
        const clock = fakeClock();
        const api = fakeApi([{ kind: "network interface", id: "eni-9", name: "ELB net/a1b2/123", deletable: false }], clock);
        await expect(drain(api, { ...clock, timeoutMs: 300_000, graceMs: 0, pollMs: 15_000 })).rejects.toThrow(
            "test cluster: 1 cloud resource(s) created by Kubernetes still exist after 5 min: network interface ELB net/a1b2/123 (eni-9). " +
                "They keep the cluster's network from being deleted. Delete them in the cloud console or CLI, then run `pulumi destroy` again.",
        );
    });
});

/** An AWS account with our cluster's leftovers and a neighbour's. */
function fakeAws(): AwsDrainClient & { deleted: string[]; lbsV2: { arn: string; name: string; tags: Record<string, string> }[] } {
    const deleted: string[] = [];
    const ours = { "kubernetes.io/cluster/mara-dev": "owned" };
    const theirs = { "kubernetes.io/cluster/other": "owned" };
    type Tagged = Record<string, string>;
    const state: {
        lbsV2: { arn: string; name: string; tags: Tagged }[];
        enis: { id: string; description: string; status: string; tags: Tagged }[];
        groups: { id: string; name: string; tags: Tagged }[];
        volumes: { id: string; state: string; tags: Tagged }[];
    } = {
        lbsV2: [
            { arn: "arn:lb/ours", name: "a1b2c3", tags: ours },
            { arn: "arn:lb/theirs", name: "d4e5f6", tags: theirs },
            { arn: "arn:lb/untagged", name: "manual", tags: {} },
        ],
        enis: [
            { id: "eni-ours", description: "ELB net/a1b2c3/0123", status: "in-use", tags: {} },
            { id: "eni-theirs", description: "ELB net/d4e5f6/4567", status: "available", tags: {} },
            { id: "eni-cni", description: "aws-K8S-i-0abc", status: "available", tags: { "cluster.k8s.amazonaws.com/name": "mara-dev" } },
            { id: "eni-node", description: "", status: "in-use", tags: {} },
        ],
        groups: [
            { id: "sg-ours", name: "k8s-elb-a1b2c3", tags: ours },
            { id: "sg-theirs", name: "k8s-elb-d4e5f6", tags: theirs },
        ],
        volumes: [
            { id: "vol-ours", state: "available", tags: ours },
            { id: "vol-attached", state: "in-use", tags: ours },
            { id: "vol-theirs", state: "available", tags: theirs },
        ],
    };
    return {
        deleted,
        get lbsV2() {
            return state.lbsV2;
        },
        loadBalancersV2: async () => state.lbsV2,
        classicLoadBalancers: async () => [{ name: "classic-theirs", tags: theirs }],
        networkInterfaces: async () => state.enis,
        securityGroups: async () => state.groups,
        volumes: async (tagKey) => state.volumes.filter((v) => tagKey in v.tags),
        deleteLoadBalancerV2: async (arn) => {
            deleted.push(arn);
            state.lbsV2 = state.lbsV2.filter((lb) => lb.arn !== arn);
        },
        deleteClassicLoadBalancer: async (name) => void deleted.push(name),
        deleteNetworkInterface: async (id) => void deleted.push(id),
        deleteSecurityGroup: async (id) => void deleted.push(id),
        deleteVolume: async (id) => void deleted.push(id),
    };
}

describe("AWS drain", () => {
    const target = { region: "us-east-1", clusterName: "mara-dev", vpcId: "vpc-1", retainVolumes: false };

    it("lists only what carries this cluster's tag, and the interfaces of its load balancers", async () => {
        const api = awsDrainApi(fakeAws(), target);
        expect((await api.list()).map((r) => `${r.kind}:${r.id}:${r.deletable}`)).toEqual([
            "load balancer:arn:lb/ours:true",
            "network interface:eni-ours:false",
            "network interface:eni-cni:true",
            "security group:sg-ours:false",
            "volume:vol-ours:true",
            "volume:vol-attached:false",
        ]);
    });

    it("keeps waiting for a deleted load balancer's interfaces, and frees its security group once it is gone", async () => {
        const client = fakeAws();
        const api = awsDrainApi(client, target);
        await api.list();
        await client.deleteLoadBalancerV2("arn:lb/ours");
        const left = await api.list();
        expect(left.find((r) => r.id === "eni-ours")).toMatchObject({ kind: "network interface", deletable: false });
        expect(left.find((r) => r.id === "sg-ours")).toMatchObject({ deletable: true });
    });

    it("never deletes a neighbour's resources, whatever the drain does", async () => {
        const client = fakeAws();
        const clock = fakeClock();
        await drain(awsDrainApi(client, target), { ...clock, graceMs: 0, timeoutMs: 60_000 }).catch(() => undefined);
        expect(client.deleted.some((id) => /theirs|untagged|eni-node/.test(id))).toBe(false);
        expect(client.deleted).toEqual(expect.arrayContaining(["arn:lb/ours", "eni-cni", "vol-ours"]));
    });

    it("leaves volumes alone when the user retains them", async () => {
        const api = awsDrainApi(fakeAws(), { ...target, retainVolumes: true });
        expect((await api.list()).some((r) => r.kind === "volume")).toBe(false);
    });

    it("reads the load balancer name out of an interface description", () => {
        expect(eniLoadBalancer("ELB net/a1b2c3/0123abc")).toBe("a1b2c3");
        expect(eniLoadBalancer("ELB app/k8s-web/9876")).toBe("k8s-web");
        expect(eniLoadBalancer("ELB classic-lb")).toBe("classic-lb");
        expect(eniLoadBalancer("aws-K8S-i-0abc")).toBeUndefined();
    });
});

describe("DigitalOcean drain", () => {
    const client = (): DigitalOceanDrainClient & { deleted: string[] } => {
        const deleted: string[] = [];
        return {
            deleted,
            loadBalancers: async () => [
                { id: "lb-ours", name: "mara-dev-ingress", status: "active" },
                { id: "lb-theirs", name: "shop-ingress", status: "active" },
            ],
            volumes: async () => [
                { id: "vol-ours", name: "pvc-1", tags: ["k8s:uuid-1"], dropletIds: [] },
                { id: "vol-attached", name: "pvc-2", tags: ["k8s:uuid-1"], dropletIds: [42] },
                { id: "vol-theirs", name: "pvc-3", tags: ["k8s:uuid-2"], dropletIds: [] },
            ],
            deleteLoadBalancer: async (id) => void deleted.push(id),
            deleteVolume: async (id) => void deleted.push(id),
        };
    };

    it("matches the load balancer by the name the platform gave it and volumes by the cluster's ID tag", async () => {
        const c = client();
        const api = digitalOceanDrainApi(c, { clusterName: "mara-dev", clusterId: "uuid-1", loadBalancerNames: ["mara-dev-ingress"], retainVolumes: false });
        expect((await api.list()).map((r) => `${r.id}:${r.deletable}`)).toEqual(["lb-ours:true", "vol-ours:true", "vol-attached:false"]);
        await drain(api, { ...fakeClock(), graceMs: 0, timeoutMs: 30_000 }).catch(() => undefined);
        expect([...new Set(c.deleted)].sort()).toEqual(["lb-ours", "vol-ours"]);
    });
});

describe("Linode drain", () => {
    it("matches NodeBalancers and volumes by the platform's cluster tag only", async () => {
        const deleted: number[] = [];
        const c: LinodeDrainClient = {
            nodeBalancers: async () => [
                { id: 1, label: "ccm-abc", tags: ["mara-cluster-mara-dev"] },
                { id: 2, label: "ccm-def", tags: ["mara-cluster-other"] },
                { id: 3, label: "manual", tags: [] },
            ],
            volumes: async () => [
                { id: 10, label: "pvc-a", tags: ["mara-cluster-mara-dev"], linodeId: null },
                { id: 11, label: "pvc-b", tags: ["mara-cluster-mara-dev"], linodeId: 99 },
                { id: 12, label: "pvc-c", tags: [], linodeId: null },
            ],
            deleteNodeBalancer: async (id) => void deleted.push(id),
            deleteVolume: async (id) => void deleted.push(id),
        };
        const api = linodeDrainApi(c, { clusterName: "mara-dev", retainVolumes: false });
        expect((await api.list()).map((r) => `${r.kind}:${r.id}:${r.deletable}`)).toEqual(["NodeBalancer:1:true", "volume:10:true", "volume:11:false"]);
        await drain(api, { ...fakeClock(), graceMs: 0, timeoutMs: 30_000 }).catch(() => undefined);
        expect([...new Set(deleted)].sort()).toEqual([1, 10]);
    });
});

describe("CRD cleanup", () => {
    it("deletes only the CRDs of the platform's API groups", async () => {
        const removed: string[] = [];
        const names = await removeCrds(
            {
                list: async () => [
                    { name: "servicemonitors.monitoring.coreos.com", group: "monitoring.coreos.com" },
                    { name: "virtualservers.k8s.nginx.org", group: "k8s.nginx.org" },
                    { name: "elasticsearches.elasticsearch.k8s.elastic.co", group: "elasticsearch.k8s.elastic.co" },
                    { name: "certificates.cert-manager.io", group: "cert-manager.io" },
                    { name: "widgets.example.com", group: "example.com" },
                ],
                remove: async (name) => void removed.push(name),
            },
            PLATFORM_CRD_GROUPS,
        );
        expect(names).toEqual(removed);
        expect(removed).toEqual(["servicemonitors.monitoring.coreos.com", "virtualservers.k8s.nginx.org", "elasticsearches.elasticsearch.k8s.elastic.co"]);
    });
});
