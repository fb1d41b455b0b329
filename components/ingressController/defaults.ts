/**
 * The NGINX Ingress Controller's defaults, its image's defaults and its chart pin, as data. The chart catalogue
 * (contracts/charts.ts) and the defaults table (contracts/defaults.ts) take their entries from here, so the pin is
 * written once, in the unit. Imports nothing (test/package/layers.test.ts).
 */

/** The nginx-ingress chart (NGINX Inc's). A new pin needs its controller flags recorded (config/kicCompatibility.ts). */
export const INGRESS_CONTROLLER_CHART = {
    title: "NGINX Ingress Controller",
    chart: "nginx-ingress",
    repositoryUrl: "https://helm.nginx.com/stable",
    version: "2.6.4",
    timeoutSeconds: 600,
} as const;

/** Defaults of {@link IngressControllerArgs}'s arguments. */
export const INGRESS_CONTROLLER_DEFAULTS = {
    namespace: "nginx-ingress",
    nginxPlus: false,
    replicas: 1,
    serviceType: "LoadBalancer",
    loadBalancerAddress: "hostname",
    ingressClassName: "nginx",
} as const;

/** Defaults of {@link KicImageArgs}'s arguments: the image the controller runs, and how it is pulled or built. */
export const KIC_IMAGE_DEFAULTS = {
    origin: "registry",
    // The controller release matching the pinned nginx-ingress chart (its appVersion).
    imageName: "nginx/nginx-ingress:5.5.4",
    makeTarget: "debian-image",
    // The git repository at the release of the default image (KIC_VERSION in contracts/defaults.ts; a test keeps them equal).
    source: "https://github.com/nginx/kubernetes-ingress.git#v5.5.4",
    version: "source",
    alwaysRebuild: false,
    platform: "linux/amd64",
} as const;
