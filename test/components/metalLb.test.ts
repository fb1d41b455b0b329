/**
 * MetalLB under recording mocks, alone and in a Platform: types, parents, the objects it creates, and the waits that
 * matter (the pool and advertisement after the release, the ingress controller after MetalLB). Its keys' rules are in
 * test/unit/metalLb.test.ts; MetalLB beside the NFS provisioner on a rendered and a real cluster, in the render and
 * engine tiers' clusterAddOns tests.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { MetalLb, Platform } from "../../components";
import { EXISTING_CLUSTER_PLATFORM } from "../../providers/platformFacts";
import { testProvider } from "../support/k8s";
import { find, installMocks, ofType, Registration, settle } from "../support/mocks";

describe("MetalLb in a Platform", () => {
    let regs: Registration[];

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        new Platform("lab", { cluster: EXISTING_CLUSTER_PLATFORM, metalLb: { addresses: ["192.168.1.240-192.168.1.250"] } }, { providers: [testProvider()] });
        await settle();
    }, 300_000);

    it("is a child of the platform", () => {
        expect(find(regs, "mara:addons:MetalLb", "lab-metallb").parent).toBe(find(regs, "mara:platform:Platform", "lab").urn);
    });

    it("MetalLB: a privileged namespace, the release, then the pool and its layer 2 advertisement", () => {
        const ns = find(regs, "kubernetes:core/v1:Namespace", "lab-metallb-ns");
        expect(ns.inputs!.metadata).toMatchObject({ name: "metallb-system", labels: { "app.kubernetes.io/part-of": "mara", "pod-security.kubernetes.io/enforce": "privileged" } });
        const release = find(regs, "kubernetes:helm.sh/v3:Release", "lab-metallb-release");
        expect(release.inputs).toMatchObject({ name: "metallb", chart: "metallb", version: "0.16.1", values: { frrk8s: { enabled: false } } });
        const pool = find(regs, "kubernetes:metallb.io/v1beta1:IPAddressPool", "lab-metallb-pool");
        // avoidBuggyIPs: no Service gets an address ending in .0 or .255 (a /24's network or broadcast address).
        expect(pool.inputs).toMatchObject({ metadata: { name: "mara", namespace: "metallb-system" }, spec: { addresses: ["192.168.1.240-192.168.1.250"], avoidBuggyIPs: true } });
        expect(pool.dependencies).toContain(release.urn);
        const l2 = find(regs, "kubernetes:metallb.io/v1beta1:L2Advertisement", "lab-metallb-l2");
        expect(l2.inputs!.spec).toEqual({ ipAddressPools: ["mara"] });
        expect(l2.dependencies).toEqual(expect.arrayContaining([release.urn, pool.urn]));
        expect(ofType(regs, "kubernetes:metallb.io/v1beta2:BGPPeer")).toEqual([]);
    });

    it("the ingress controller waits for MetalLB, so its Service gets an address from the pool when it is created", () => {
        // A dependency on a component is one on every resource in it: the pool and its advertisement included.
        const ns = find(regs, "kubernetes:core/v1:Namespace", "lab-ingress-controller-ns");
        for (const [type, name] of [
            ["kubernetes:metallb.io/v1beta1:IPAddressPool", "lab-metallb-pool"],
            ["kubernetes:metallb.io/v1beta1:L2Advertisement", "lab-metallb-l2"],
            ["kubernetes:helm.sh/v3:Release", "lab-metallb-release"],
        ]) {
            expect(ns.dependencies, name).toContain(find(regs, type!, name!).urn);
        }
    });
});

describe("MetalLb with BGP peers, and argument checks", () => {
    let regs: Registration[];

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        new MetalLb("lb", { addresses: ["10.0.50.0/28"], bgpPeers: [{ address: "10.0.0.1", asn: 64501, myAsn: 64500 }] }, { providers: [testProvider()] });
        await settle();
    });

    it("peers with each router and advertises the pool over BGP, with frr-k8s as the chart's backend", () => {
        expect(find(regs, "kubernetes:helm.sh/v3:Release", "lb-release").inputs!.values).toEqual({ frrk8s: { enabled: true } });
        expect(find(regs, "kubernetes:metallb.io/v1beta2:BGPPeer", "lb-bgp-peer-0").inputs!.spec).toEqual({ peerAddress: "10.0.0.1", peerASN: 64501, myASN: 64500 });
        expect(find(regs, "kubernetes:metallb.io/v1beta1:BGPAdvertisement", "lb-bgp").inputs!.spec).toEqual({ ipAddressPools: ["mara"] });
        expect(ofType(regs, "kubernetes:metallb.io/v1beta1:L2Advertisement")).toEqual([]);
    });

    it("refuses a pool without addresses, a router where none can be, and a namespace name Kubernetes refuses", () => {
        expect(() => new MetalLb("none", { addresses: [] })).toThrow("MetalLb: addresses must name at least one CIDR block or first-last range; got none.");
        expect(() => new MetalLb("bare", { addresses: ["10.0.50.7"] })).toThrow('MetalLb: address "10.0.50.7" is one address without a prefix length, which MetalLB refuses');
        expect(() => new MetalLb("zero", { addresses: ["10.0.50.0/28"], bgpPeers: [{ address: "0.0.0.0", asn: 64501, myAsn: 64500 }] })).toThrow("names 0.0.0.0, in 0.0.0.0/8");
        expect(() => new MetalLb("asn", { addresses: ["10.0.50.0/28"], bgpPeers: [{ address: "10.0.0.1", asn: 0, myAsn: 64500 }] })).toThrow("has an AS number outside 1 to 4294967295");
        expect(() =>
            new MetalLb("mixed", { addresses: ["10.0.50.0/28"], bgpPeers: [{ address: "10.0.0.1", asn: 64501, myAsn: 64500 }, { address: "10.0.0.2", asn: 64501, myAsn: 64502 }] }),
        ).toThrow("gives the cluster 2 AS numbers (64500, 64502)");
        expect(() => new MetalLb("inside", { addresses: ["10.0.50.0/28"], bgpPeers: [{ address: "10.0.50.1", asn: 64501, myAsn: 64500 }] })).toThrow("inside the pool entry 10.0.50.0/28");
        expect(() => new MetalLb("ns", { addresses: ["10.0.50.0/28"], namespace: "m".repeat(64) })).toThrow("is 64 characters long (at most 63)");
    });
});
