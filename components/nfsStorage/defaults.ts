/**
 * The NFS provisioner's defaults and chart pin, as data: the chart catalogue (contracts/charts.ts) and the defaults
 * table (contracts/defaults.ts) take their NFS entries from here. Imports nothing (test/package/layers.test.ts).
 */

/**
 * The NFS subdir external provisioner's chart, installed only on an existing cluster that asks for it
 * (mara:nfsServer). Its catalogue id stays `nfs`: it is the stem of the `mara:nfsChart*` keys in users' stack files.
 */
export const NFS_CHART = {
    title: "NFS subdir external provisioner",
    chart: "nfs-subdir-external-provisioner",
    repositoryUrl: "https://kubernetes-sigs.github.io/nfs-subdir-external-provisioner/",
    version: "4.0.18",
    timeoutSeconds: 600,
} as const;

/** Defaults of {@link NfsStorageArgs}'s arguments; the image is the provisioner's last release (its chart 4.0.18 installs the same). */
export const NFS_STORAGE_DEFAULTS = {
    namespace: "nfs-provisioner",
    storageClassName: "mara-nfs",
    archiveOnDelete: true,
    image: "registry.k8s.io/sig-storage/nfs-subdir-external-provisioner:v4.0.2",
} as const;
