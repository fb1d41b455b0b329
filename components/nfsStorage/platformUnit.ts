/**
 * The NFS provisioner on the Platform: its arguments (`PlatformArgs.storage.nfsStorage`), its member and how it is
 * created, before the add-ons whose volumes it provisions.
 */
import { DEFAULTS } from "../../contracts";
import type { PlatformArgs, PlatformUnit } from "../platformUnit";
import { NfsStorage, NfsStorageArgs } from "./component";

declare module "../platformUnit" {
    interface PlatformStorageArgs {
        /**
         * Install the NFS subdir external provisioner for an existing NFS export and put the platform's volumes on its
         * StorageClass (unless `className` names another). Default: not installed.
         */
        nfsStorage?: Omit<NfsStorageArgs, "retainVolumes">;
        /**
         * @deprecated Use {@link PlatformStorageArgs.nfsStorage}, the same arguments under the add-on's one name. Still
         * read: where both are given, `nfsStorage`'s members win.
         */
        nfs?: Omit<NfsStorageArgs, "retainVolumes">;
    }
    interface PlatformAddOns {
        /** The NFS provisioner, when {@link PlatformStorageArgs.nfsStorage} asked for it. */
        readonly nfsStorage?: NfsStorage;
        /** @deprecated Use {@link Platform.nfsStorage}, the same component under the add-on's one name. */
        readonly nfs?: NfsStorage;
    }
}

/** The NFS provisioner's arguments under their name and their deprecated one (`storage.nfs`), the new name winning; undefined: not installed. */
function nfsStorageArgs(args: Pick<PlatformArgs, "storage">): Omit<NfsStorageArgs, "retainVolumes"> | undefined {
    const { nfs, nfsStorage } = args.storage ?? {};
    return nfs || nfsStorage ? ({ ...nfs, ...nfsStorage } as Omit<NfsStorageArgs, "retainVolumes">) : undefined;
}

/** The NFS provisioner on the Platform, where its arguments ask for it. */
export const NFS_STORAGE_UNIT: PlatformUnit = {
    create({ name, args, platform }) {
        const nfsArgs = nfsStorageArgs(args);
        if (!nfsArgs) return {};
        // Its child name is the one deployed stacks hold, so it stays `-nfs`.
        const nfsStorage = new NfsStorage(`${name}-nfs`, { ...nfsArgs, retainVolumes: args.storage?.retainVolumes }, { parent: platform });
        return { nfsStorage, nfs: nfsStorage };
    },
    namespaces(args) {
        const nfs = nfsStorageArgs(args);
        return nfs ? [nfs.namespace ?? DEFAULTS.nfsStorage.namespace] : [];
    },
};
