/**
 * The NFS provisioner's configuration keys (in the `Existing cluster` group, beside MetalLB's: both serve only a
 * cluster the stack did not create) and its chart's keys. Declared with the key machinery (config/keySpec.ts) and
 * spread into the key table (config/keys.ts). The rules across them are config/clusterAddOns.ts's, checked
 * together with MetalLB's; the server's own rule is nfsServer.ts.
 */
import { chartKeys, spec } from "../../config/keySpec";
import { imageReference, kubernetesName, text, type ValueType } from "../../config/valueTypes";
import { NFS_STORAGE_DEFAULTS } from "./defaults";
import { NFS_SERVER_ALLOWED, nfsServerProblem } from "./nfsServer";

export { NFS_SERVER_ALLOWED } from "./nfsServer";

/** The host of an NFS server, as the kubelet's NFS mount takes it (nfsServer.ts, nfsServerProblem). */
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
        group: "Existing cluster",
    }),
    nfsPath: spec({
        key: "mara:nfsPath",
        type: text({ pattern: /^\/(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9._/-]*$/, allowed: "the exported directory as an absolute path of letters, digits, '.', '_', '-' and '/' only (no spaces or other characters: the provisioner's chart writes it into its manifests unquoted), without '.' or '..' segments, such as /srv/nfs/mara" }),
        description: "Directory mara:nfsServer exports; the provisioner makes one subdirectory per volume in it.",
        example: "/srv/nfs/mara",
        group: "Existing cluster",
    }),
    nfsStorageClass: spec({
        key: "mara:nfsStorageClass",
        type: kubernetesName("subdomain", "a StorageClass name", "mara-nfs"),
        default: NFS_STORAGE_DEFAULTS.storageClassName,
        description: "Name of the StorageClass the NFS provisioner serves; the platform's volumes use it.",
        group: "Existing cluster",
    }),
    nfsProvisionerImage: spec({
        key: "mara:nfsProvisionerImage",
        type: imageReference(),
        default: NFS_STORAGE_DEFAULTS.image,
        description: "Image of the NFS subdir external provisioner (set it to pull from a mirror).",
        group: "Existing cluster",
    }),
} as const;

/** The chart's version, repository and timeout keys (MARA had none). */
export const NFS_STORAGE_CHART_KEYS = chartKeys("nfs", {});
