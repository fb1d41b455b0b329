/**
 * The NFS provisioner's mapping from its validated settings (`MaraConfig.nfsStorage`, built by
 * config/clusterAddOns.ts) onto the Platform's `storage.nfsStorage` argument: installed only for a server. Called by
 * program/platformArgs.ts.
 */
import type { NfsStorageArgs } from "./component";
import type { NfsStorageSettings } from "./settings";

/** The server, its export, the StorageClass, the image and the chart; undefined (not installed) without a server. */
export function nfsStorageArgsFromSettings(s: NfsStorageSettings): Omit<NfsStorageArgs, "retainVolumes"> | undefined {
    return s.server ? { server: s.server, path: s.path, storageClassName: s.storageClass, image: s.image, chart: s.chart } : undefined;
}
