/**
 * The fixed cluster-wide names the platform's components give what they create, in a module of their own so that
 * `mara doctor` can check them without loading the components (and their Pulumi SDKs).
 */

/** Name of the self-signed ClusterIssuer (MARA's). */
export const SELF_SIGNED_ISSUER = "selfsigned-issuer";
/** Name of the ACME ClusterIssuer. */
export const ACME_ISSUER = "letsencrypt";

/**
 * The NFS provisioner's release, and the name its chart gives everything it makes (`fullnameOverride`); the chart
 * derives its cluster-wide names from it: the ClusterRole `<name>-runner` and the ClusterRoleBinding `run-<name>`
 * (kubernetes-sigs/nfs-subdir-external-provisioner, charts/.../templates/clusterrole.yaml, clusterrolebinding.yaml).
 */
export const NFS_RELEASE = "mara-nfs-provisioner";
/** The NFS provisioner chart's ClusterRole. */
export const NFS_CLUSTER_ROLE = `${NFS_RELEASE}-runner`;
/** The NFS provisioner chart's ClusterRoleBinding. */
export const NFS_CLUSTER_ROLE_BINDING = `run-${NFS_RELEASE}`;

/** Name of the StorageClass the platform creates for its volumes where the cluster facts name a provisioner. */
export const PLATFORM_STORAGE_CLASS = "mara-volumes";
