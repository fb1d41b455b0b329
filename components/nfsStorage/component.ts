import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { CHARTS, ChartSettings, DEFAULTS, splitImageName } from "../../contracts";
import { NFS_CLUSTER_ROLE, NFS_CLUSTER_ROLE_BINDING, NFS_RELEASE } from "../clusterNames";
import { helmRelease, platformNamespace } from "../helmRelease";
import { claimChartObject, guardedOptions } from "../ownership/guard";

/** Arguments of {@link NfsStorage}. */
export interface NfsStorageArgs {
    /** Host name or IPv4 address of the NFS server. Required. */
    server: string;
    /** Directory the server exports, as an absolute path; each volume becomes a subdirectory of it. Required. */
    path: string;
    /** Name of the StorageClass. Default `mara-nfs`. */
    storageClassName?: string;
    /** Keep a volume's PersistentVolume (and data) when its claim is deleted. Default false (the PV is deleted). */
    retainVolumes?: boolean;
    /**
     * When a volume is deleted, rename its directory on the server to `archived-…` instead of removing it.
     * Default true: the data stays on the server until someone removes it.
     */
    archiveOnDelete?: boolean;
    /** The provisioner's image; set it to pull from a mirror. Default `registry.k8s.io/sig-storage/nfs-subdir-external-provisioner:v4.0.2`. */
    image?: string;
    /** Namespace for the provisioner. Default `nfs-provisioner`. */
    namespace?: string;
    /** Chart coordinates. Default: the catalogue's nfs entry (`nfs-subdir-external-provisioner` 4.0.18). */
    chart?: ChartSettings;
}

/** The provisioner name the pod registers and the StorageClass names. */
export const NFS_PROVISIONER = "cluster.local/mara-nfs";

export { NFS_RELEASE };

/**
 * Volumes for a cluster without a StorageClass: the NFS subdir external provisioner, which makes a subdirectory of
 * an existing NFS export per PersistentVolumeClaim, installed from its upstream chart, and its StorageClass.
 *
 * The class is a typed object of the component's rather than the chart's: claims and the platform name it, and a
 * StorageClass cannot change in place, so it keeps one owner whatever the chart does on an upgrade. It waits for the
 * release (which waits for the provisioner's Deployment to be ready), and every claim made with
 * {@link storageClassName} waits for the class, so a claim never waits for a provisioner that does not exist yet.
 */
export class NfsStorage extends pulumi.ComponentResource {
    /** Namespace the provisioner runs in. */
    public readonly namespace: pulumi.Output<string>;
    /** Name of the StorageClass, taken from the resource. */
    public readonly storageClassName: pulumi.Output<string>;
    /** Name of the provisioner's Deployment. */
    public readonly deploymentName: pulumi.Output<string>;
    /** Status of the provisioner's Helm release. */
    public readonly status: pulumi.Output<string>;

    constructor(name: string, args: NfsStorageArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:addons:NfsStorage", name, {}, guardedOptions(name, opts));
        if (!args.server?.trim()) throw new Error("NfsStorage: server must be the NFS server's host name or address; got none.");
        if (!args.path?.startsWith("/")) throw new Error(`NfsStorage: path must be the exported directory as an absolute path; got "${args.path ?? ""}".`);
        const nsName = args.namespace ?? DEFAULTS.nfsStorage.namespace;
        // Baseline: the provisioner mounts the NFS export as an nfs volume, which restricted does not allow (docs/policy.md).
        const ns = platformNamespace(`${name}-ns`, nsName, "baseline", {}, { parent: this, dependsOn: opts?.dependsOn });
        // The chart's cluster-wide objects have fixed names (NFS_RELEASE): claimed, so a neighbour's of the same name stops
        // the run before anything is created rather than when Helm meets it halfway.
        const chartRelease = { name: NFS_RELEASE, namespace: nsName };
        claimChartObject(this, { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRole", resource: "clusterroles", name: NFS_CLUSTER_ROLE, release: chartRelease });
        claimChartObject(this, { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRoleBinding", resource: "clusterrolebindings", name: NFS_CLUSTER_ROLE_BINDING, release: chartRelease });
        const release = helmRelease(
            `${name}-release`,
            { release: NFS_RELEASE, namespace: ns.metadata.name, chart: args.chart ?? CHARTS.nfs, values: nfsValues(args) },
            { parent: this },
        );
        const sc = new k8s.storage.v1.StorageClass(
            `${name}-storage-class`,
            {
                metadata: { name: args.storageClassName ?? DEFAULTS.nfsStorage.storageClassName, labels: { "app.kubernetes.io/part-of": "mara" } },
                provisioner: NFS_PROVISIONER,
                parameters: { archiveOnDelete: String(args.archiveOnDelete ?? DEFAULTS.nfsStorage.archiveOnDelete) },
                reclaimPolicy: args.retainVolumes ? "Retain" : "Delete",
                volumeBindingMode: "Immediate",
                allowVolumeExpansion: true,
            },
            { parent: this, dependsOn: [release] },
        );
        this.namespace = ns.metadata.name;
        this.storageClassName = sc.metadata.name;
        this.deploymentName = pulumi.output(NFS_RELEASE);
        this.status = release.status.status;
        this.registerOutputs({ namespace: this.namespace, storageClassName: this.storageClassName, deploymentName: this.deploymentName, status: this.status });
    }
}

/**
 * The chart's values (kubernetes-sigs/nfs-subdir-external-provisioner, charts/nfs-subdir-external-provisioner/values.yaml):
 * the export, the provisioner name the class names, the image (a mirror's when set), the platform's labels and small
 * resource bounds; no StorageClass of the chart's (the component owns it, above). The chart's own defaults stay: one
 * replica, `Recreate` (two provisioners would race for the same claims until leader election settles), leader
 * election on, RBAC with only what a provisioner does (PersistentVolumes, claims, StorageClasses, events, nodes, and
 * its lock in its own namespace).
 */
export function nfsValues(args: Pick<NfsStorageArgs, "server" | "path" | "image">): Record<string, unknown> {
    const [repository, tag] = splitImageName(args.image ?? DEFAULTS.nfsStorage.image);
    // The chart writes the image as "<repository>:<tag>", so a digest reference splits at its own colon:
    // "<repository>@sha256" and the hex digest.
    const image = tag.startsWith("sha256:") ? { repository: `${repository}@sha256`, tag: tag.slice("sha256:".length) } : { repository, tag };
    return {
        fullnameOverride: NFS_RELEASE,
        nfs: { server: args.server, path: args.path },
        storageClass: { create: false, provisionerName: NFS_PROVISIONER },
        image,
        labels: { "app.kubernetes.io/part-of": "mara" },
        resources: { requests: { cpu: "10m", memory: "32Mi" }, limits: { memory: "128Mi" } },
    };
}
