/**
 * MetalLB and the NFS provisioner under recording mocks, alone and in a Platform: types, parents, the objects they
 * create, and the waits that matter (the pool and advertisement after the release, the ingress controller after
 * MetalLB, every volume after the NFS StorageClass, the class after its provisioner).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { MetalLb, NfsStorage, Platform } from "../../components";
import { nfsValues } from "../../components/nfsStorage";
import { EXISTING_CLUSTER_PLATFORM } from "../../providers/platformFacts";
import { testProvider } from "../support/k8s";
import { withClusterAddOns } from "../support/clusterAddOns";
import { fixture } from "../support/config";
import { find, installMocks, ofType, Registration, settle } from "../support/mocks";
import { runProgram } from "../support/program";

describe("MetalLb and NfsStorage in a Platform", () => {
    let regs: Registration[];

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        new Platform(
            "lab",
            {
                cluster: EXISTING_CLUSTER_PLATFORM,
                metalLb: { addresses: ["192.168.1.240-192.168.1.250"] },
                storage: { nfsStorage: { server: "192.168.1.10", path: "/srv/nfs/mara" }, retainVolumes: true },
            },
            { providers: [testProvider()] },
        );
        await settle();
    }, 300_000);

    it("creates both as children of the platform", () => {
        const metallb = find(regs, "mara:addons:MetalLb", "lab-metallb");
        const nfs = find(regs, "mara:addons:NfsStorage", "lab-nfs");
        const platform = find(regs, "mara:platform:Platform", "lab");
        expect(metallb.parent).toBe(platform.urn);
        expect(nfs.parent).toBe(platform.urn);
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

    it("NFS: the provisioner from its upstream chart, mounting the export; its StorageClass after it, and every volume on that class", () => {
        const release = find(regs, "kubernetes:helm.sh/v3:Release", "lab-nfs-release");
        expect(release.inputs).toMatchObject({
            name: "mara-nfs-provisioner",
            chart: "nfs-subdir-external-provisioner",
            version: "4.0.18",
            values: {
                fullnameOverride: "mara-nfs-provisioner",
                nfs: { server: "192.168.1.10", path: "/srv/nfs/mara" },
                // The component owns the class; the chart's would be a second owner of the same name.
                storageClass: { create: false, provisionerName: "cluster.local/mara-nfs" },
                image: { repository: "registry.k8s.io/sig-storage/nfs-subdir-external-provisioner", tag: "v4.0.2" },
            },
        });
        // Nothing of the provisioner is declared by hand any more (test/render/clusterAddOns.test.ts checks what the chart makes).
        expect(ofType(regs, "kubernetes:apps/v1:Deployment").map((r) => r.name)).not.toContain("lab-nfs-provisioner");
        const sc = find(regs, "kubernetes:storage.k8s.io/v1:StorageClass", "lab-nfs-storage-class");
        expect(sc.inputs).toMatchObject({ metadata: { name: "mara-nfs" }, provisioner: "cluster.local/mara-nfs", reclaimPolicy: "Retain", parameters: { archiveOnDelete: "true" } });
        expect(sc.dependencies).toContain(release.urn);
        // No class of the platform's own besides it.
        expect(ofType(regs, "kubernetes:storage.k8s.io/v1:StorageClass").map((r) => r.name)).toEqual(["lab-nfs-storage-class"]);
        const es = find(regs, "kubernetes:elasticsearch.k8s.elastic.co/v1:Elasticsearch", "lab-logstore-elasticsearch");
        expect(es.dependencies).toContain(sc.urn);
        const spec = es.inputs!.spec as { nodeSets: { volumeClaimTemplates: { spec: { storageClassName: string } }[] }[] };
        expect(new Set(spec.nodeSets.map((n) => n.volumeClaimTemplates[0]!.spec.storageClassName))).toEqual(new Set(["mara-nfs"]));
        expect(find(regs, "kubernetes:helm.sh/v3:Release", "lab-prometheus-release").dependencies).toContain(sc.urn);
    });

    it("NFS: a digest-pinned image reaches the chart's repository:tag template whole", () => {
        const image = nfsValues({ server: "s", path: "/p", image: "mirror.example.com/nfs@sha256:" + "a".repeat(64) }).image as { repository: string; tag: string };
        expect(`${image.repository}:${image.tag}`).toBe("mirror.example.com/nfs@sha256:" + "a".repeat(64));
    });

    it("NFS: the namespaces that hold claims wait for the provisioner, so at destroy they go first and it deletes their volumes", () => {
        // Without these edges the engine may delete the provisioner while a namespace's claims still exist: their
        // volumes are released with no one left to delete them (seen against a real API server).
        const release = find(regs, "kubernetes:helm.sh/v3:Release", "lab-nfs-release");
        for (const ns of ["lab-logstore-ns", "lab-prometheus-ns"]) {
            expect(find(regs, "kubernetes:core/v1:Namespace", ns).dependencies, ns).toContain(release.urn);
        }
        // Namespaces without claims need not wait.
        expect(find(regs, "kubernetes:core/v1:Namespace", "lab-cert-manager-ns").dependencies).not.toContain(release.urn);
    });
});

describe("the program with the NFS provisioner", () => {
    it("the application's namespace, whose databases claim volumes, waits for the provisioner too", async () => {
        const run = await runProgram(withClusterAddOns(fixture("mara-kubeconfig", { secrets: { "mara:grafanaAdminPassword": "pw" } })));
        expect(run.error).toBeUndefined();
        const release = find(run.registrations, "kubernetes:helm.sh/v3:Release", "platform-nfs-release");
        expect(find(run.registrations, "kubernetes:core/v1:Namespace", "bank-of-sirius-ns").dependencies).toContain(release.urn);
    }, 120_000);
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

    it("refuses a pool without addresses, and NFS without a server or an absolute path", () => {
        expect(() => new MetalLb("none", { addresses: [] })).toThrow("MetalLb: addresses must name at least one CIDR block or first-last range; got none.");
        expect(() => new MetalLb("bare", { addresses: ["10.0.50.7"] })).toThrow('MetalLb: address "10.0.50.7" is one address without a prefix length, which MetalLB refuses');
        expect(() => new MetalLb("zero", { addresses: ["10.0.50.0/28"], bgpPeers: [{ address: "0.0.0.0", asn: 64501, myAsn: 64500 }] })).toThrow("names 0.0.0.0, in 0.0.0.0/8");
        expect(() => new MetalLb("asn", { addresses: ["10.0.50.0/28"], bgpPeers: [{ address: "10.0.0.1", asn: 0, myAsn: 64500 }] })).toThrow("has an AS number outside 1 to 4294967295");
        expect(() =>
            new MetalLb("mixed", { addresses: ["10.0.50.0/28"], bgpPeers: [{ address: "10.0.0.1", asn: 64501, myAsn: 64500 }, { address: "10.0.0.2", asn: 64501, myAsn: 64502 }] }),
        ).toThrow("gives the cluster 2 AS numbers (64500, 64502)");
        expect(() => new MetalLb("inside", { addresses: ["10.0.50.0/28"], bgpPeers: [{ address: "10.0.50.1", asn: 64501, myAsn: 64500 }] })).toThrow("inside the pool entry 10.0.50.0/28");
        expect(() => new MetalLb("ns", { addresses: ["10.0.50.0/28"], namespace: "m".repeat(64) })).toThrow("is 64 characters long (at most 63)");
        expect(() => new NfsStorage("nfs", { server: "", path: "/x" })).toThrow("NfsStorage: server must be the NFS server's host name or address; got none.");
        expect(() => new NfsStorage("nfs", { server: "nas", path: "srv/nfs" })).toThrow('NfsStorage: path must be the exported directory as an absolute path; got "srv/nfs".');
    });
});
