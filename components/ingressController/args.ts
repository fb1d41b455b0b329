/**
 * The NGINX Ingress Controller's mapping from its validated settings (`MaraConfig.ingressController`) onto the Platform's `ingressController` argument: the one place where its
 * `mara:*` settings become arguments. Called by program/platformArgs.ts.
 */
import type { PlatformImageArgs, PlatformIngressControllerArgs } from "./platformUnit";
import type { IngressControllerImageSettings, IngressControllerSettings } from "./settings";

/** The image to copy or build (or, without a registry, to pull): every image setting the IngressControllerImage takes. */
export function kicImageArgsFromSettings(kic: IngressControllerImageSettings): PlatformImageArgs {
    return {
        origin: kic.imageOrigin,
        imageName: kic.imageName,
        source: kic.source,
        makeTarget: kic.makeTarget,
        // The release the source names (`#v5.5.4`), written into the binary and the tag.
        version: kic.version,
        nginxRepo: kic.nginxRepo,
        alwaysRebuild: kic.alwaysRebuild,
    };
}

/** The release (its chart, NGINX Plus and its license, replicas, Service type, the host name it reports) and its image. */
export function ingressControllerArgsFromSettings(s: IngressControllerSettings, fqdn: string | undefined): PlatformIngressControllerArgs {
    return {
        image: kicImageArgsFromSettings(s.image),
        chart: s.chart,
        nginxJwt: s.image.nginxJwt,
        nginxPlus: s.enablePlus,
        replicas: s.replicas,
        serviceType: s.serviceType,
        fqdn,
    };
}
