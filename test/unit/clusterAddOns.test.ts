/** Validation of MetalLB's and the NFS provisioner's keys, with exact messages. */
import { describe, expect, it } from "vitest";
import { formatProblem, validateConfig } from "../../config";
import { aws, KUBECONFIG_TEXT, rawConfig } from "../support/config";

const existing = (values: Record<string, string> = {}) =>
    rawConfig({ "mara:infraType": "kubeconfig", "mara:kubeconfig": KUBECONFIG_TEXT, "mara:fqdn": "mara.lab.example.org", ...values });
const problems = (raw: ReturnType<typeof rawConfig>) => validateConfig(raw).problems.map(formatProblem);

describe("MetalLB's keys", () => {
    it("builds the pool and the BGP peers", () => {
        const cfg = validateConfig(existing({ "mara:metallbAddresses": '["192.168.1.240-192.168.1.250","10.20.30.0/28"]', "mara:metallbBgpPeers": "192.168.1.1:64501:64500" })).config!;
        expect(cfg.metallb.addresses).toEqual(["192.168.1.240-192.168.1.250", "10.20.30.0/28"]);
        expect(cfg.metallb.bgpPeers).toEqual([{ address: "192.168.1.1", asn: 64501, myAsn: 64500 }]);
        expect(cfg.metallb.chart).toMatchObject({ chart: "metallb", version: "0.16.2" });
        expect(validateConfig(existing()).config!.metallb.addresses).toEqual([]);
    });

    it("refuses malformed entries, naming what is wrong with each", () => {
        expect(problems(existing({ "mara:metallbAddresses": '["192.168.1.250-192.168.1.240"]' }))).toEqual([
            expect.stringContaining('has an entry "192.168.1.250-192.168.1.240" that ends (192.168.1.240) before it starts (192.168.1.250)'),
        ]);
        expect(problems(existing({ "mara:metallbAddresses": "192.168.1.241/28" }))[0]).toContain("has host bits set; the block starts at 192.168.1.240");
        expect(problems(existing({ "mara:metallbBgpPeers": "192.168.1.1:0:64500", "mara:metallbAddresses": "10.0.0.0/28" }))[0]).toContain("has an AS number outside 1 to 4294967295");
    });

    it("refuses public addresses unless declared, and overlapping entries", () => {
        expect(problems(existing({ "mara:metallbAddresses": "203.0.113.16/28" }))).toEqual([
            "mara:metallbAddresses = \"203.0.113.16/28\": is not inside a private range or a range declared in mara:metallbAllowedRanges; MetalLB would answer for addresses that may belong to someone else. Allowed: addresses inside 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 100.64.0.0/10. Fix: use free addresses of the nodes' private network, or declare your public range: pulumi config set --path 'mara:metallbAllowedRanges[0]' <cidr>",
        ]);
        expect(problems(existing({ "mara:metallbAddresses": "203.0.113.16/28", "mara:metallbAllowedRanges": "203.0.113.0/24" }))).toEqual([]);
        expect(problems(existing({ "mara:metallbAddresses": '["192.168.1.0/28","192.168.1.10-192.168.1.20"]' }))).toEqual([
            "mara:metallbAddresses = \"192.168.1.0/28, 192.168.1.10-192.168.1.20\": has entries that overlap; MetalLB refuses a pool whose ranges share addresses. Allowed: entries that share no address. Fix: merge the two entries into one range",
        ]);
    });

    it("is for existing clusters only (ignored on a cloud, with a warning), and BGP peers need a pool", () => {
        const onAws = validateConfig(aws({ "mara:metallbAddresses": "10.0.0.0/28", "mara:nfsServer": "192.168.1.10", "mara:nfsPath": "/srv", "mara:storageClass": "gp3" }));
        expect(onAws.problems).toEqual([]);
        expect(onAws.config!.metallb.addresses).toEqual([]);
        expect(onAws.config!.nfs.server).toBeUndefined();
        expect(onAws.warnings).toContain(
            "mara:metallbAddresses, mara:nfsServer, mara:nfsPath are ignored on aws: MetalLB and the NFS provisioner are installed only on an existing cluster (mara:infraType kubeconfig); aws's own load balancers and volumes serve the platform.",
        );
        expect(problems(existing({ "mara:metallbBgpPeers": "192.168.1.1:64501:64500" }))[0]).toContain("names BGP routers, but mara:metallbAddresses is not set");
    });

    it("warns when the ingress controller does not use it", () => {
        expect(validateConfig(existing({ "mara:metallbAddresses": "10.0.0.0/28", "mara:ingressServiceType": "NodePort" })).warnings).toContain(
            "mara:metallbAddresses installs MetalLB, but mara:ingressServiceType is NodePort, so the ingress controller does not use it.",
        );
    });
});

describe("the NFS provisioner's keys", () => {
    it("builds the server, path and class; none without a server", () => {
        const cfg = validateConfig(existing({ "mara:nfsServer": "nas.lab.example.org", "mara:nfsPath": "/srv/nfs/mara" })).config!;
        expect(cfg.nfs).toMatchObject({ server: "nas.lab.example.org", path: "/srv/nfs/mara", storageClass: "mara-nfs", image: "registry.k8s.io/sig-storage/nfs-subdir-external-provisioner:v4.0.2" });
        const mirrored = "registry.lab.example.org/sig-storage/nfs-subdir-external-provisioner:v4.0.2";
        expect(validateConfig(existing({ "mara:nfsServer": "nas", "mara:nfsPath": "/srv", "mara:nfsProvisionerImage": mirrored })).config!.nfs.image).toBe(mirrored);
        expect(problems(existing({ "mara:nfsServer": "nas", "mara:nfsPath": "/srv", "mara:nfsProvisionerImage": "Registry/Bad Image" }))[0]).toContain('mara:nfsProvisionerImage = "Registry/Bad Image"');
        expect(validateConfig(existing()).config!.nfs.server).toBeUndefined();
    });

    it("needs both the server and the path, a clean absolute path, and no other StorageClass", () => {
        expect(problems(existing({ "mara:nfsServer": "192.168.1.10" }))).toEqual([
            "mara:nfsPath: is not set, but mara:nfsServer (192.168.1.10) is: the provisioner needs the directory the server exports. Allowed: the exported directory as an absolute path, such as /srv/nfs/mara. Fix: pulumi config set mara:nfsPath /srv/nfs/mara",
        ]);
        expect(problems(existing({ "mara:nfsPath": "/srv/nfs" }))[0]).toContain("mara:nfsServer: is not set, but mara:nfsPath (/srv/nfs) is");
        expect(problems(existing({ "mara:nfsServer": "192.168.1.10", "mara:nfsPath": "/srv/../etc" }))[0]).toContain('mara:nfsPath = "/srv/../etc": has the wrong form');
        expect(problems(existing({ "mara:nfsServer": "nas_1", "mara:nfsPath": "/srv" }))[0]).toContain('mara:nfsServer = "nas_1": has the wrong form');
        expect(problems(existing({ "mara:nfsServer": "192.168.1.10", "mara:nfsPath": "/srv/nfs", "mara:storageClass": "local-path" }))[0]).toContain(
            "mara:storageClass = \"local-path\": names another StorageClass than the NFS provisioner's (mara-nfs)",
        );
    });
});
