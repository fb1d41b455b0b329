/**
 * The NGINX Ingress Controller on the Platform: its arguments (`PlatformArgs.ingressController`), its members
 * (`platform.ingressController`, `platform.ingressControllerImage`) and how it is created, with its image copied or
 * built into the cluster's registry when there is one.
 */
import * as pulumi from "@pulumi/pulumi";
import { DEFAULTS, splitImageName } from "../../contracts";
import type { PlatformArgs, PlatformUnit, UnitContext } from "../platformUnit";
import { collectorGrpcEndpoint } from "../observability";
import { IngressController, IngressControllerArgs } from "./component";
import { INGRESS_CONTROLLER_IMAGE_TYPE, KIC_IMAGE_TYPE } from "./defaults";
import type { IngressControllerImage, IngressControllerImageArgs } from "./image";

/**
 * The ingress controller image. With a {@link PlatformArgs.registry} the platform copies `imageName` into
 * it (or builds it from `source` with `origin: "source"`) and the controller runs it by digest; without one,
 * the controller pulls `imageName` from where it is published.
 */
export type PlatformImageArgs = Pick<IngressControllerImageArgs, "origin" | "imageName" | "source" | "makeTarget" | "version" | "nginxRepo" | "alwaysRebuild">;

/**
 * NGINX Ingress Controller: its own settings and its image; its registry credentials, load balancer and tracing come
 * from the platform.
 */
export interface PlatformIngressControllerArgs extends Pick<IngressControllerArgs, "chart" | "nginxPlus" | "nginxJwt" | "replicas" | "serviceType" | "fqdn"> {
    /** The controller's image. Default: the published `nginx/nginx-ingress` image matching the chart. */
    image?: PlatformImageArgs;
}

/** @deprecated Use {@link PlatformIngressControllerArgs}, the same arguments (and the image) under the add-on's one name. */
export type PlatformIngressArgs = Omit<PlatformIngressControllerArgs, "image">;

declare module "../platformUnit" {
    interface PlatformArgs {
        /** NGINX Ingress Controller and its image. Default: one open-source controller behind a LoadBalancer Service. */
        ingressController?: PlatformIngressControllerArgs;
        /**
         * @deprecated Use {@link PlatformIngressControllerArgs.image} (`ingressController.image`), the same arguments under
         * the add-on's one name. Still read: where both are given, `ingressController.image`'s members win.
         */
        image?: PlatformImageArgs;
        /**
         * @deprecated Use {@link PlatformArgs.ingressController}, the same arguments under the add-on's one name. Still
         * read: where both are given, `ingressController`'s members win.
         */
        ingress?: PlatformIngressArgs;
    }
    interface PlatformAddOns {
        /** NGINX Ingress Controller; its outputs give the load balancer address and the IngressClass. */
        readonly ingressController: IngressController;
        /** The ingress controller image in the cluster's registry; undefined when there is no registry. */
        readonly ingressControllerImage?: IngressControllerImage;
        /** @deprecated Use {@link Platform.ingressControllerImage}, the same component under the add-on's one name; read until 1.0.0. */
        readonly kicImage?: IngressControllerImage;
    }
}

/** The controller's arguments under their name and their deprecated ones (`ingress`, `image`), the new names winning. */
export function platformIngressControllerArgs(args: Pick<PlatformArgs, "ingress" | "ingressController" | "image">): PlatformIngressArgs & { image: PlatformImageArgs } {
    const { image: ownImage, ...ingress } = { ...args.ingress, ...args.ingressController };
    return { ...ingress, image: { ...args.image, ...ownImage } };
}

/** The image in the registry, when there is one: copied, or built from source. */
function pushedImage(ctx: UnitContext, image: PlatformImageArgs): IngressControllerImage | undefined {
    const { name, args } = ctx;
    if (!args.registry) return undefined;
    // Loaded only where an image is pushed, so clusters without a registry never load @pulumi/docker.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { IngressControllerImage } = require("./image") as typeof import("./image");
    return new IngressControllerImage(
        `${name}-kic-image`,
        { ...image, repositoryUrl: args.registry.repositoryUrl },
        // GitOps delivery keeps the image outside the platform (program/gitops.ts); switching back finds it there.
        {
            parent: ctx.platform,
            // Its child name before Platform's children were named after it, under both type tokens, and the
            // image GitOps delivery kept at the top level (IngressControllerImage adds its old type itself).
            aliases: [
                { name: "kic-image" },
                { name: "kic-image", type: KIC_IMAGE_TYPE },
                ...[INGRESS_CONTROLLER_IMAGE_TYPE, KIC_IMAGE_TYPE].map((type) => pulumi.createUrn(`${name}-kic-image`, type)),
            ],
        },
    );
}

/** NGINX Ingress Controller on the Platform, with its image where there is a registry. */
export const INGRESS_CONTROLLER_UNIT: PlatformUnit = {
    create(ctx) {
        const { name, args, facts } = ctx;
        const { image, ...ingress } = platformIngressControllerArgs(args);
        const pushed = pushedImage(ctx, image);
        const published = splitImageName(image.imageName ?? DEFAULTS.ingressControllerImage.imageName);
        // Pushed images run by the digest the registry recorded; a published reference as it is written.
        const [imageRepository, imageTag, imageDigest] = pushed
            ? [pushed.repository, pushed.tag, pushed.digest]
            : published[1].startsWith("sha256:")
              ? [published[0], undefined, published[1]]
              : [published[0], published[1], undefined];
        const registry = args.registry;
        const ingressController = new IngressController(
            `${name}-ingress-controller`,
            {
                ...ingress,
                imageRepository,
                imageTag,
                imageDigest,
                registryCredentials: registry?.needsPullSecret ? (registry.pullCredentials ?? registry.credentials) : undefined,
                serviceAnnotations: { ...facts.loadBalancerAnnotations },
                loadBalancerAddress: facts.loadBalancerAddress,
                tracingEndpoint: collectorGrpcEndpoint(),
            },
            // With MetalLB, the Service is created once the pool and its advertisement exist, and gets its address at once.
            { ...ctx.child("ingress-controller"), ...(ctx.created.metalLb ? { dependsOn: [ctx.created.metalLb] } : {}) },
        );
        return { ingressController, ...(pushed ? { ingressControllerImage: pushed, kicImage: pushed } : {}) };
    },
    namespaces: () => [DEFAULTS.ingressController.namespace],
};
