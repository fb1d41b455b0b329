/**
 * The NGINX Ingress Controller's mapping from its validated settings (`MaraConfig.kic`, the image, and
 * `MaraConfig.ingress`, the release) onto the Platform's `image` and `ingress` arguments: the one place where its
 * `mara:*` settings become arguments. Called by program/platformArgs.ts.
 */
import type { PlatformImageArgs, PlatformIngressArgs } from "../platform";
import type { IngressControllerImageSettings, IngressControllerReleaseSettings } from "./settings";

/** The image to copy or build (or, without a registry, to pull): every image setting the KicImage takes. */
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

/** The release: its chart, NGINX Plus and its license, replicas, Service type, and the host name it reports. */
export function ingressControllerArgsFromSettings(release: IngressControllerReleaseSettings, kic: IngressControllerImageSettings, fqdn: string | undefined): PlatformIngressArgs {
    return {
        chart: release.chart,
        nginxJwt: kic.nginxJwt,
        nginxPlus: release.enablePlus,
        replicas: release.replicas,
        serviceType: release.serviceType,
        fqdn,
    };
}
