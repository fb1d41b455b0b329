/**
 * The NFS storage add-on unit (the NFS subdir external provisioner and its StorageClass): its component
 * (component.ts), its defaults and chart pin (defaults.ts), its configuration keys with the server's rule (keys.ts),
 * its settings (settings.ts) and its mapping onto the Platform's arguments (args.ts); its page is
 * docs/components/nfsStorage.md. The rules across its keys are config/clusterAddOns.ts's, checked together with
 * MetalLB's. This index is the library's view of the unit, the component and its place on the Platform (platformUnit.ts): components never read configuration.
 */
export * from "./component";
// Its place on the Platform (PlatformStorageArgs.nfsStorage, Platform.nfsStorage): loaded for every reader of the package's types.
import "./platformUnit";
