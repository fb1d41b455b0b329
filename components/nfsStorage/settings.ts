/**
 * The NFS provisioner's section of the validated configuration (`MaraConfig.nfsStorage`). config/clusterAddOns.ts
 * builds it, with the rules across its keys, together with MetalLB's section: the two add-ons serve only an existing
 * cluster, and their keys are checked as one set.
 */
import type { ChartSettings } from "../../contracts";

/** The NFS subdir external provisioner and its StorageClass (`MaraConfig.nfsStorage`): installed when `server` is set. */
export interface NfsStorageSettings {
    /** The chart: the catalogue's pin, or the version, mirror, timeout and archive the stack sets. */
    readonly chart: ChartSettings;
    /** The provisioner's image. */
    readonly image: string;
    /** Host name or IPv4 address of the NFS server; undefined: the provisioner is not installed. */
    readonly server?: string;
    /** Exported directory the provisioner makes a subdirectory in per volume. */
    readonly path: string;
    /** Name of the StorageClass it serves; the platform's volumes use it. */
    readonly storageClass: string;
}
