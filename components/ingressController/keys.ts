/**
 * The NGINX Ingress Controller's configuration keys, in its one group, `Ingress controller`: the image pulled or built,
 * NGINX Plus's credentials, the release and its chart's three keys, with MARA's `kic:*` and `kic-helm:*` keys as
 * aliases; and the Service type, in the "Existing cluster" group, the only kind of stack that reads it.
 * Declared with the key machinery (config/keySpec.ts) and spread into the key table (config/keys.ts) where they
 * stood; their rules are settings.ts's.
 */
import { INFRA_TYPES, KIC_SOURCE_ALLOWED, PATTERNS } from "../../contracts";
import { chartKeys, renamedFrom, spec } from "../../config/keySpec";
import { boolean, imageReference, integer, oneOf, text } from "../../config/valueTypes";
import { INGRESS_CONTROLLER_DEFAULTS, INGRESS_CONTROLLER_IMAGE_DEFAULTS } from "./defaults";

/** The Service type, a key of the "Existing cluster" group. */
export const INGRESS_CONTROLLER_SERVICE_KEYS = {
    ingressServiceType: spec({
        key: "mara:ingressServiceType",
        type: oneOf(["LoadBalancer", "NodePort"] as const),
        default: INGRESS_CONTROLLER_DEFAULTS.serviceType,
        description: "Service type of the ingress controller: LoadBalancer, or NodePort for clusters without a load balancer implementation (then point mara:fqdn at a node).",
        group: "Existing cluster",
        usedOn: INFRA_TYPES,
    }),
} as const;

/** The image's and the release's keys. */
export const INGRESS_CONTROLLER_KEYS = {
    ingressImageOrigin: spec({
        key: "mara:ingressImageOrigin",
        legacy: [renamedFrom("mara:kicImageOrigin", "0.2.0"), "kic:image_origin"],
        type: oneOf(["registry", "source"] as const),
        default: INGRESS_CONTROLLER_IMAGE_DEFAULTS.origin,
        description: "registry: pull mara:ingressImageName and push it to the cluster's registry; source: build it from mara:ingressSrcUrl.",
        group: "Ingress controller",
    }),
    ingressImageName: spec({
        key: "mara:ingressImageName",
        legacy: [renamedFrom("mara:kicImageName", "0.2.0"), "kic:image_name"],
        type: imageReference(),
        default: INGRESS_CONTROLLER_IMAGE_DEFAULTS.imageName,
        description: "NGINX Ingress Controller image to pull (NGINX Plus images live in private-registry.nginx.com).",
        group: "Ingress controller",
    }),
    ingressMakeTarget: spec({
        key: "mara:ingressMakeTarget",
        legacy: [renamedFrom("mara:kicMakeTarget", "0.2.0"), "kic:make_target"],
        type: text({ pattern: /^[a-z0-9][a-z0-9-]*$/, allowed: "a make target of the kubernetes-ingress repository such as debian-image" }),
        default: INGRESS_CONTROLLER_IMAGE_DEFAULTS.makeTarget,
        description: "make target of nginx/kubernetes-ingress reproduced when building from source: debian-image, alpine-image, ubi-image, or an NGINX Plus target such as debian-image-plus (needs the repository certificate and key).",
        group: "Ingress controller",
    }),
    ingressSrcUrl: spec({
        key: "mara:ingressSrcUrl",
        legacy: [renamedFrom("mara:kicSrcUrl", "0.2.0"), "kic:src_url"],
        type: text({ pattern: /^\S+$/, allowed: KIC_SOURCE_ALLOWED }),
        default: INGRESS_CONTROLLER_IMAGE_DEFAULTS.source,
        description: "Source built when mara:ingressImageOrigin is source: a git URL with #<tag> (BuildKit clones it), an https tarball, or a local directory (~ and paths relative to the project allowed).",
        group: "Ingress controller",
    }),
    ingressAlwaysRebuild: spec({
        key: "mara:ingressAlwaysRebuild",
        legacy: [renamedFrom("mara:kicAlwaysRebuild", "0.2.0"), "kic:always_rebuild"],
        type: boolean(),
        default: INGRESS_CONTROLLER_IMAGE_DEFAULTS.alwaysRebuild,
        description: "Pull or build the image and push it on every update, even when its inputs did not change; the cluster moves only if the digest changed.",
        group: "Ingress controller",
    }),
    ingressNginxPlusKeyPath: spec({
        key: "mara:ingressNginxPlusKeyPath",
        legacy: [renamedFrom("mara:kicNginxPlusKeyPath", "0.2.0"), { key: "kic:nginx_plus", field: "kic:key_path" }],
        type: text(),
        description: "NGINX Plus repository key (nginx-repo.key from MyF5) for Plus source builds; mounted as a BuildKit secret, never stored. Else the NGINX_REPO_KEY environment variable.",
        example: "/etc/ssl/nginx/nginx-repo.key",
        group: "Ingress controller",
    }),
    ingressNginxPlusCertPath: spec({
        key: "mara:ingressNginxPlusCertPath",
        legacy: [renamedFrom("mara:kicNginxPlusCertPath", "0.2.0"), { key: "kic:nginx_plus", field: "kic:cert_path" }],
        type: text(),
        description: "NGINX Plus repository certificate (nginx-repo.crt from MyF5) for Plus source builds; mounted as a BuildKit secret, never stored. Else the NGINX_REPO_CRT environment variable.",
        example: "/etc/ssl/nginx/nginx-repo.crt",
        group: "Ingress controller",
    }),
    ingressImageRepository: spec({
        key: "mara:ingressImageRepository",
        legacy: [renamedFrom("mara:kicImageRepository", "0.2.0"), "kic-helm:nginx_repository"],
        type: imageReference(),
        description: "MARA's existing-cluster image repository; combined with mara:ingressImageTag into mara:ingressImageName.",
        example: "nginx/nginx-ingress",
        group: "Ingress controller",
    }),
    ingressImageTag: spec({
        key: "mara:ingressImageTag",
        legacy: [renamedFrom("mara:kicImageTag", "0.2.0"), "kic-helm:nginx_tag"],
        type: text(PATTERNS.imageTag),
        description: "MARA's existing-cluster image tag; combined with mara:ingressImageRepository into mara:ingressImageName.",
        example: "5.5.4",
        group: "Ingress controller",
    }),
    nginxJwt: spec({
        key: "mara:nginxJwt",
        type: text({ allowed: "any non-empty text (stored encrypted)" }),
        secret: true,
        description: "JWT from MyF5 for private-registry.nginx.com: pulls NGINX Plus images (also into the cluster's registry, without docker login) and is the Plus license.",
        group: "Ingress controller",
    }),

    ingressEnablePlus: spec({
        key: "mara:ingressEnablePlus",
        legacy: ["kic-helm:enable_plus", "kic-helm:nginx_plus_flag"],
        type: boolean(),
        default: INGRESS_CONTROLLER_DEFAULTS.nginxPlus,
        description: "Run the ingress controller in NGINX Plus mode (needs an NGINX Plus image).",
        group: "Ingress controller",
    }),
    ingressReplicas: spec({
        key: "mara:ingressReplicas",
        type: integer(1, 20),
        default: INGRESS_CONTROLLER_DEFAULTS.replicas,
        description: "Number of ingress controller pods.",
        group: "Ingress controller",
    }),
} as const;

/** The chart's version, repository and timeout keys, with MARA's `kic-helm:*` keys as aliases. */
export const INGRESS_CONTROLLER_CHART_KEYS = chartKeys("ingress", "Ingress controller", {
    version: ["kic-helm:chart_version"],
    url: ["kic-helm:helm_repo_url"],
    timeout: ["kic-helm:helm_timeout"],
});
