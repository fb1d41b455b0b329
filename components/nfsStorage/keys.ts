/**
 * The NFS provisioner's configuration keys and its chart's, in the `NFS storage` group (read, as MetalLB's, only on
 * a cluster the stack did not create). Declared with the key machinery (config/keySpec.ts) and
 * spread into the key table (config/keys.ts). The rules across them are config/clusterAddOns.ts's, checked
 * together with MetalLB's; the server's own rule is below (nfsServerProblem).
 */
import { isIPv6 } from "net";
import { isGoIpv4 } from "../../contracts/metalLb";
import { chartKeys, spec } from "../../config/keySpec";
import { imageReference, kubernetesName, text, type ValueType } from "../../config/valueTypes";
import { NFS_STORAGE_DEFAULTS } from "./defaults";

/*
 * `mara:nfsServer` is what the NFS mount of every volume names as its server: the kubelet runs `mount -t nfs
 * <server>:<path>` for the provisioner's own volume and for each volume it provisions (kubernetes/kubernetes,
 * pkg/volume/nfs/nfs.go, SetUpAt; an IPv6 address is put in brackets there since Kubernetes 1.22, PR #101067). The API
 * server checks nothing of the field but that it is set, so a value that is not a host only fails at the mount, with
 * every pod that claims a volume waiting in ContainerCreating. So the server must be a host as `mount.nfs` resolves one:
 * an IPv4 address, an IPv6 address, or a DNS name (RFC 1123 labels, as the provisioner's docs write it, "Hostname of
 * the NFS server"), and nothing around it: no scheme, port or path (the path is mara:nfsPath; NFS finds its port
 * through the server), no space.
 */

/** The words after "Allowed:". */
export const NFS_SERVER_ALLOWED = "the NFS server's IPv4 or IPv6 address or DNS name alone (no scheme, port or path), such as 192.168.1.10, fd00::10 or nas.example.org";

/** Why `value` cannot be an NFS server's host, or undefined. */
export function nfsServerProblem(value: string): string | undefined {
    if (/[\s\u0000-\u001f\u007f]/.test(value)) return "contains white space or control characters";
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return "is a URL; the NFS mount takes the server's address alone (the export's path is mara:nfsPath)";
    if (value.includes("/")) return "has a path; the NFS mount takes the server's address alone, and the export's path goes in mara:nfsPath";
    if (/^\[.*\]$/.test(value)) return "is in brackets; write the IPv6 address without them (Kubernetes adds them for the mount)";
    if (value.includes(":")) {
        if (isIPv6(value)) return undefined;
        return /^[^:]+:\d+$/.test(value) ? "has a port; NFS finds the server's port itself (2049, or through its portmapper), so give the address alone" : "is not an IPv6 address";
    }
    if (/^[\d.]+$/.test(value)) {
        if (isGoIpv4(value)) return undefined;
        if (value.split(".").some((p) => /^0\d/.test(p))) return "has an octet with a leading zero, which mount.nfs would read as octal (010 is 8): write the address without leading zeros";
        return "is not an IPv4 address (four numbers from 0 to 255), and a host name cannot be all digits";
    }
    if (value.length > 253) return `is ${value.length} characters long (a DNS name has at most 253)`;
    const labels = value.replace(/\.$/, "").split(".");
    if (labels.some((l) => l === "")) return "has an empty label ('..', or a dot at the start)";
    const long = labels.find((l) => l.length > 63);
    if (long) return `has a label of ${long.length} characters (a DNS label has at most 63)`;
    const bad = labels.find((l) => !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i.test(l));
    if (bad !== undefined) return `has a label "${bad}" with characters other than letters, digits and '-', or a '-' at its start or end (RFC 1123)`;
    if (/^\d+$/.test(labels.at(-1)!)) return "ends in a numeric label, which no DNS name does (RFC 1123)";
    return undefined;
}

/** The host of an NFS server, as the kubelet's NFS mount takes it (nfsServerProblem, above). */
export function nfsServer(): ValueType<string> {
    return {
        pulumiType: "string",
        allowed: NFS_SERVER_ALLOWED,
        parse(raw) {
            const value = raw.trim();
            if (value === "") return { ok: false, reason: "is empty" };
            const problem = nfsServerProblem(value);
            return problem ? { ok: false, reason: problem } : { ok: true, value };
        },
        render: (v) => v,
    };
}

/** The NFS provisioner's keys: its switch (the server), the export, the StorageClass and the image. */
export const NFS_STORAGE_KEYS = {
    nfsServer: spec({
        key: "mara:nfsServer",
        type: nfsServer(),
        defaultNote: "none: the NFS provisioner is not installed",
        description: "Installs the NFS subdir external provisioner for this NFS server; the platform's volumes then use its StorageClass (needs mara:nfsPath).",
        example: "192.168.1.10",
        group: "NFS storage",
    }),
    nfsPath: spec({
        key: "mara:nfsPath",
        type: text({ pattern: /^\/(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9._/-]*$/, allowed: "the exported directory as an absolute path of letters, digits, '.', '_', '-' and '/' only (no spaces or other characters: the provisioner's chart writes it into its manifests unquoted), without '.' or '..' segments, such as /srv/nfs/mara" }),
        description: "Directory mara:nfsServer exports; the provisioner makes one subdirectory per volume in it.",
        example: "/srv/nfs/mara",
        group: "NFS storage",
    }),
    nfsStorageClass: spec({
        key: "mara:nfsStorageClass",
        type: kubernetesName("subdomain", "a StorageClass name", "mara-nfs"),
        default: NFS_STORAGE_DEFAULTS.storageClassName,
        description: "Name of the StorageClass the NFS provisioner serves; the platform's volumes use it.",
        group: "NFS storage",
    }),
    nfsProvisionerImage: spec({
        key: "mara:nfsProvisionerImage",
        type: imageReference(),
        default: NFS_STORAGE_DEFAULTS.image,
        description: "Image of the NFS subdir external provisioner (set it to pull from a mirror).",
        group: "NFS storage",
    }),
} as const;

/** The chart's version, repository and timeout keys (MARA had none). */
export const NFS_STORAGE_CHART_KEYS = chartKeys("nfs", "NFS storage", {});
