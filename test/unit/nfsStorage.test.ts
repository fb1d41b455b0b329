/** Validation of the NFS provisioner's keys (components/nfsStorage/keys.ts, config/clusterAddOns.ts), with exact messages. */
import { describe, expect, it } from "vitest";
import { formatProblem, validateConfig } from "../../config";
import { KUBECONFIG_TEXT, rawConfig } from "../support/config";

// The inline kubeconfig stored encrypted, as it should be (a plain-text one with its token draws a warning of its own).
const existing = (values: Record<string, string> = {}) =>
    rawConfig({ "mara:infraType": "kubeconfig", "mara:kubeconfig": KUBECONFIG_TEXT, "mara:fqdn": "mara.lab.example.org", ...values }, { secret: ["mara:kubeconfig"] });
const problems = (raw: ReturnType<typeof rawConfig>) => validateConfig(raw).problems.map(formatProblem);

describe("the NFS provisioner's keys", () => {
    it("builds the server, path and class; none without a server", () => {
        const cfg = validateConfig(existing({ "mara:nfsServer": "nas.lab.example.org", "mara:nfsPath": "/srv/nfs/mara" })).config!;
        // The section's name before the add-on had one name still reads it (CHANGELOG.md, 0.2.0 "Deprecated").
        expect(cfg.nfs).toBe(cfg.nfsStorage);
        expect(cfg.metallb).toBe(cfg.metalLb);
        expect(cfg.nfsStorage).toMatchObject({ server: "nas.lab.example.org", path: "/srv/nfs/mara", storageClass: "mara-nfs", image: "registry.k8s.io/sig-storage/nfs-subdir-external-provisioner:v4.0.2" });
        const mirrored = "registry.lab.example.org/sig-storage/nfs-subdir-external-provisioner:v4.0.2";
        expect(validateConfig(existing({ "mara:nfsServer": "nas", "mara:nfsPath": "/srv", "mara:nfsProvisionerImage": mirrored })).config!.nfsStorage.image).toBe(mirrored);
        expect(problems(existing({ "mara:nfsServer": "nas", "mara:nfsPath": "/srv", "mara:nfsProvisionerImage": "Registry/Bad Image" }))[0]).toContain('mara:nfsProvisionerImage = "Registry/Bad Image"');
        expect(validateConfig(existing()).config!.nfsStorage.server).toBeUndefined();
    });

    it("a path with a space is refused by the rule it breaks: the characters the chart can carry unquoted", () => {
        const [p] = problems(existing({ "mara:nfsServer": "nas", "mara:nfsPath": "/srv/nfs share" }));
        expect(p).toContain('mara:nfsPath = "/srv/nfs share"');
        expect(p).toContain("letters, digits, '.', '_', '-' and '/' only (no spaces");
    });

    it("needs both the server and the path, a clean absolute path, and no other StorageClass", () => {
        expect(problems(existing({ "mara:nfsServer": "192.168.1.10" }))).toEqual([
            "mara:nfsPath: is not set, but mara:nfsServer (192.168.1.10) is: the provisioner needs the directory the server exports. Allowed: the exported directory as an absolute path, such as /srv/nfs/mara. Fix: pulumi config set mara:nfsPath /srv/nfs/mara",
        ]);
        expect(problems(existing({ "mara:nfsPath": "/srv/nfs" }))[0]).toContain("mara:nfsServer: is not set, but mara:nfsPath (/srv/nfs) is");
        expect(problems(existing({ "mara:nfsServer": "192.168.1.10", "mara:nfsPath": "/srv/../etc" }))[0]).toContain('mara:nfsPath = "/srv/../etc": has the wrong form');
        expect(problems(existing({ "mara:nfsServer": "nas_1", "mara:nfsPath": "/srv" }))[0]).toContain('mara:nfsServer = "nas_1": has a label "nas_1" with characters other than letters, digits and \'-\'');
        expect(problems(existing({ "mara:nfsServer": "192.168.1.10", "mara:nfsPath": "/srv/nfs", "mara:storageClass": "local-path" }))[0]).toContain(
            "mara:storageClass = \"local-path\": names another StorageClass than the NFS provisioner's (mara-nfs)",
        );
    });
});

describe("the NFS server as the kubelet's NFS mount takes it", () => {
    const server = (value: string) => problems(existing({ "mara:nfsServer": value, "mara:nfsPath": "/srv/nfs" }));

    it("accepts IPv4 and IPv6 addresses and DNS names", () => {
        for (const ok of ["192.168.1.10", "fd00::10", "2001:db8::1", "nas", "nas.example.org", "NAS-1.Example.org", `${"a".repeat(63)}.example.org`]) expect(server(ok), ok).toEqual([]);
    });

    it("refuses a scheme, a port, a path, brackets, spaces, and names no resolver takes", () => {
        const allowed = "Allowed: the NFS server's IPv4 or IPv6 address or DNS name alone (no scheme, port or path), such as 192.168.1.10, fd00::10 or nas.example.org. Fix: pulumi config set mara:nfsServer 192.168.1.10";
        expect(server("nfs://nas.example.org/export")).toEqual([`mara:nfsServer = "nfs://nas.example.org/export": is a URL; the NFS mount takes the server's address alone (the export's path is mara:nfsPath). ${allowed}`]);
        expect(server("nas.example.org:2049")[0]).toContain("has a port; NFS finds the server's port itself");
        expect(server("nas.example.org/export")[0]).toContain("has a path; the NFS mount takes the server's address alone, and the export's path goes in mara:nfsPath");
        expect(server("[fd00::10]")[0]).toContain("is in brackets; write the IPv6 address without them");
        expect(server("fd00::10::1")[0]).toContain("is not an IPv6 address");
        expect(server("nas example.org")[0]).toContain("contains white space or control characters");
        expect(server("999.1.1.1")[0]).toContain("is not an IPv4 address (four numbers from 0 to 255), and a host name cannot be all digits");
        expect(server("192.168.001.010")[0]).toContain("has an octet with a leading zero, which mount.nfs would read as octal");
        expect(server("0x7f.1")[0]).toContain("ends in a numeric label");
        expect(server("-nas.example.org")[0]).toContain('has a label "-nas"');
        expect(server("nas..example.org")[0]).toContain("has an empty label");
        expect(server(`${"a".repeat(64)}.example.org`)[0]).toContain("has a label of 64 characters (a DNS label has at most 63)");
        const long = `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}`;
        expect(server(long)).toEqual([]);
        expect(server(`${long}x`)[0]).toContain("is 254 characters long (a DNS name has at most 253)");
    });
});

describe("the NFS StorageClass's name, and keys that do nothing", () => {
    it("a StorageClass name is a DNS subdomain of at most 253 characters (apimachinery's IsDNS1123Subdomain)", () => {
        const name = (n: number) => `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(n - 192)}`;
        const nfs = (cls: string) => problems(existing({ "mara:nfsServer": "192.168.1.10", "mara:nfsPath": "/srv/nfs", "mara:nfsStorageClass": cls }));
        expect(nfs(name(253))).toEqual([]);
        expect(nfs(name(254))[0]).toContain("is 254 characters long (at most 253). Allowed: a StorageClass name such as mara-nfs: lower-case letters, digits, '-' and '.'");
        expect(nfs("Mara-NFS")[0]).toContain("has characters or a form Kubernetes refuses in a name");
        expect(problems(existing({ "mara:storageClass": name(254) }))[0]).toContain('mara:storageClass = "');
    });

    it("names NFS keys that do nothing without a server", () => {
        expect(validateConfig(existing({ "mara:nfsStorageClass": "fast", "mara:nfsProvisionerImage": "registry.example.org/nfs:v4.0.2" })).warnings).toContain(
            "mara:nfsStorageClass, mara:nfsProvisionerImage do nothing without mara:nfsServer: the NFS provisioner is installed only for a server.",
        );
    });
});
