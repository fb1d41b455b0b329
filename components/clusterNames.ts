/**
 * The fixed cluster-wide names the platform's components give what they create, in a module of their own so that
 * `mara doctor` can check them without loading the components (and their Pulumi SDKs).
 */

/** Name of the self-signed ClusterIssuer (MARA's). */
export const SELF_SIGNED_ISSUER = "selfsigned-issuer";
/** Name of the ACME ClusterIssuer. */
export const ACME_ISSUER = "letsencrypt";

/**
 * Name of the NFS provisioner's ClusterRole and ClusterRoleBinding for its namespace: one per namespace, named as
 * Kubernetes' own system roles are, so a second stack installing into the same namespace collides here, visibly.
 */
export const nfsClusterRoleName = (namespace: string) => `mara:nfs-provisioner:${namespace}`;

/** Name of the StorageClass the platform creates for its volumes where the cluster facts name a provisioner. */
export const PLATFORM_STORAGE_CLASS = "mara-volumes";
