/**
 * The MetalLB add-on unit: its component (component.ts), its defaults and chart pin (defaults.ts), its
 * configuration keys (keys.ts) and its mapping onto the Platform's arguments (args.ts); its page is
 * docs/components/metalLb.md. Its keys' rules are config/clusterAddOns.ts's, checked together with the NFS
 * provisioner's. This index is the library's view of the unit, the component and its place on the Platform (platformUnit.ts): components never read
 * configuration.
 */
export * from "./component";
// Its place on the Platform (PlatformArgs.metalLb, Platform.metalLb): loaded for every reader of the package's types.
import "./platformUnit";
