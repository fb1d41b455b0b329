import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { DEFAULTS } from "../contracts";
import { nfsClusterRoleName } from "./clusterNames";
import { platformNamespace } from "./helmRelease";
import { guardedOptions } from "./ownership/guard";

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
}

/** The provisioner name the pod registers and the StorageClass names. */
export const NFS_PROVISIONER = "cluster.local/mara-nfs";

/** The labels of the provisioner's pod, which its Deployment selects. */
const POD_LABELS = { "app.kubernetes.io/name": "nfs-provisioner", "app.kubernetes.io/part-of": "mara" };

/**
 * Volumes for a cluster without a StorageClass: the NFS subdir external provisioner, which makes a subdirectory of
 * an existing NFS export per PersistentVolumeClaim, and its StorageClass.
 *
 * The provisioner is declared here as typed objects (ServiceAccount, the RBAC its documentation lists, a
 * Deployment of its image) rather than installed from its Helm chart: the chart adds nothing but templating of
 * these few objects, and typed objects show in the plan field by field. The class waits for the Deployment to be
 * ready, and every claim made with {@link storageClassName} waits for the class, so a claim never waits for a
 * provisioner that does not exist yet.
 */
export class NfsStorage extends pulumi.ComponentResource {
    /** Namespace the provisioner runs in. */
    public readonly namespace: pulumi.Output<string>;
    /** Name of the StorageClass, taken from the resource. */
    public readonly storageClassName: pulumi.Output<string>;
    /** Name of the provisioner's Deployment. */
    public readonly deploymentName: pulumi.Output<string>;

    constructor(name: string, args: NfsStorageArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:addons:NfsStorage", name, {}, guardedOptions(name, opts));
        if (!args.server?.trim()) throw new Error("NfsStorage: server must be the NFS server's host name or address; got none.");
        if (!args.path?.startsWith("/")) throw new Error(`NfsStorage: path must be the exported directory as an absolute path; got "${args.path ?? ""}".`);
        const nsName = args.namespace ?? DEFAULTS.nfsStorage.namespace;
        const ns = platformNamespace(`${name}-ns`, nsName, {}, { parent: this, dependsOn: opts?.dependsOn });
        const child = { parent: this };
        const namespace = ns.metadata.name;
        const account = new k8s.core.v1.ServiceAccount(`${name}-sa`, { metadata: { name: "nfs-provisioner", namespace, labels: POD_LABELS } }, child);
        const subject = [{ kind: "ServiceAccount", name: account.metadata.name, namespace }];
        const clusterRoleName = nfsClusterRoleName(nsName);

        // What the provisioner does cluster-wide: watch claims and classes, create and delete the volumes, and
        // record events on the claims it serves.
        const clusterRole = new k8s.rbac.v1.ClusterRole(
            `${name}-cluster-role`,
            {
                metadata: { name: clusterRoleName, labels: POD_LABELS },
                rules: [
                    { apiGroups: [""], resources: ["persistentvolumes"], verbs: ["get", "list", "watch", "create", "delete"] },
                    { apiGroups: [""], resources: ["persistentvolumeclaims"], verbs: ["get", "list", "watch", "update"] },
                    { apiGroups: ["storage.k8s.io"], resources: ["storageclasses"], verbs: ["get", "list", "watch"] },
                    { apiGroups: [""], resources: ["events"], verbs: ["create", "update", "patch"] },
                ],
            },
            child,
        );
        const clusterBinding = new k8s.rbac.v1.ClusterRoleBinding(
            `${name}-cluster-binding`,
            { metadata: { name: clusterRoleName, labels: POD_LABELS }, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: clusterRole.metadata.name }, subjects: subject },
            child,
        );
        // Its leader election, in its own namespace only: the image's provisioner library keeps the lock in an
        // Endpoints object (sigs.k8s.io/sig-storage-lib-external-provisioner v6, controller.go: resourcelock.New("endpoints", ...)).
        const role = new k8s.rbac.v1.Role(
            `${name}-leader-role`,
            { metadata: { name: "nfs-provisioner-leader-election", namespace, labels: POD_LABELS }, rules: [{ apiGroups: [""], resources: ["endpoints"], verbs: ["get", "list", "watch", "create", "update", "patch"] }] },
            child,
        );
        const binding = new k8s.rbac.v1.RoleBinding(
            `${name}-leader-binding`,
            { metadata: { name: "nfs-provisioner-leader-election", namespace, labels: POD_LABELS }, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: role.metadata.name }, subjects: subject },
            child,
        );

        const deployment = new k8s.apps.v1.Deployment(
            `${name}-provisioner`,
            {
                metadata: { name: "nfs-provisioner", namespace, labels: POD_LABELS },
                spec: {
                    replicas: 1,
                    // Two provisioners would race for the same claims until leader election settles: replace, don't surge.
                    strategy: { type: "Recreate" },
                    selector: { matchLabels: POD_LABELS },
                    template: {
                        metadata: { labels: POD_LABELS },
                        spec: {
                            serviceAccountName: account.metadata.name,
                            containers: [
                                {
                                    name: "nfs-provisioner",
                                    image: args.image ?? DEFAULTS.nfsStorage.image,
                                    env: [
                                        { name: "PROVISIONER_NAME", value: NFS_PROVISIONER },
                                        { name: "NFS_SERVER", value: args.server },
                                        { name: "NFS_PATH", value: args.path },
                                    ],
                                    volumeMounts: [{ name: "nfs-root", mountPath: "/persistentvolumes" }],
                                    resources: { requests: { cpu: "10m", memory: "32Mi" }, limits: { memory: "128Mi" } },
                                },
                            ],
                            volumes: [{ name: "nfs-root", nfs: { server: args.server, path: args.path } }],
                        },
                    },
                },
            },
            { parent: this, dependsOn: [clusterBinding, binding] },
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
            { parent: this, dependsOn: [deployment] },
        );
        this.namespace = namespace;
        this.storageClassName = sc.metadata.name;
        this.deploymentName = deployment.metadata.name;
        this.registerOutputs({ namespace: this.namespace, storageClassName: this.storageClassName, deploymentName: this.deploymentName });
    }
}
