/**
 * The NGINX Ingress Controller add-on unit: its component (component.ts), the image it runs when the platform copies
 * or builds one (image.ts, the IngressControllerImage component), its defaults and chart pin (defaults.ts), its configuration keys
 * (keys.ts), their rules and settings (settings.ts) and its mapping onto the Platform's arguments (args.ts); its page
 * is docs/components/ingressController.md. This index is the library's view of the unit, the component and its place on the Platform (platformUnit.ts): the
 * image is exported from the package's index beside it (components/index.ts), and the Platform loads it only where an
 * image is pushed, so a cluster without a registry never loads @pulumi/docker; components never read configuration.
 */
export * from "./component";
// Its place on the Platform: the argument types, and (loaded with them) its group of PlatformArgs and member of Platform.
export type { PlatformImageArgs, PlatformIngressArgs, PlatformIngressControllerArgs } from "./platformUnit";
