/**
 * The NFS provisioner under recording mocks, in a Platform and in the program: the release from its upstream chart,
 * the StorageClass after it, every volume on that class, and the namespaces holding claims after the provisioner (so
 * at destroy it outlives them). Its keys' rules are in test/unit/nfsStorage.test.ts; the provisioner beside MetalLB on
 * a rendered and a real cluster, in the render and engine tiers' clusterAddOns tests.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { NfsStorage, Platform } from "../../components";
import { nfsValues } from "../../components/nfsStorage";
import { EXISTING_CLUSTER_PLATFORM } from "../../providers/platformFacts";
import { testProvider } from "../support/k8s";
import { withClusterAddOns } from "../support/clusterAddOns";
import { fixture } from "../support/config";
import { find, installMocks, ofType, Registration, settle } from "../support/mocks";
import { runProgram } from "../support/program";

describe("NfsStorage in a Platform", () => {
    let regs: Registration[];

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        new Platform(
            "lab",
            { cluster: EXISTING_CLUSTER_PLATFORM, storage: { nfsStorage: { server: "192.168.1.10", path: "/srv/nfs/mara" }, retainVolumes: true } },
            { providers: [testProvider()] },
        );
        await settle();
    }, 300_000);

    it("is a child of the platform", () => {
        expect(find(regs, "mara:addons:NfsStorage", "lab-nfs").parent).toBe(find(regs, "mara:platform:Platform", "lab").urn);
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

    it("refuses a server that is not one and a path that is not absolute", () => {
        expect(() => new NfsStorage("nfs", { server: "", path: "/x" })).toThrow("NfsStorage: server must be the NFS server's host name or address; got none.");
        expect(() => new NfsStorage("nfs", { server: "nas", path: "srv/nfs" })).toThrow('NfsStorage: path must be the exported directory as an absolute path; got "srv/nfs".');
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

