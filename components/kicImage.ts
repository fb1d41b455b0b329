import * as docker from "@pulumi/docker";
import * as pulumi from "@pulumi/pulumi";
import * as path from "path";
import { DEFAULTS, imageReferenceProblem, RegistryCredentials } from "../contracts";

/** Arguments of {@link KicImage}. */
export interface KicImageArgs {
    /**
     * `registry` (default): copy {@link KicImageArgs.imageName} into the cluster's registry.
     * `source`: build the image from the kubernetes-ingress sources at {@link KicImageArgs.sourceDir}.
     */
    origin?: "registry" | "source";
    /** Image to copy when `origin` is `registry`. Default `nginx/nginx-ingress:5.5.4`. */
    imageName?: string;
    /** Local checkout of nginx/kubernetes-ingress, for `origin: source`. Required then. */
    sourceDir?: string;
    /**
     * The repository's make target to reproduce, for `origin: source`: `debian-image` (default),
     * `alpine-image` or `ubi-image`. NGINX Plus targets need BuildKit secrets, which Pulumi's Docker
     * provider cannot pass; build those with `make` and copy them with `origin: registry`.
     */
    makeTarget?: string;
    /** Version written into the binary and the image tag, for `origin: source`, e.g. "5.5.4". Default `source`. */
    version?: string;
    /**
     * Run the build and push on every `pulumi up`, even when nothing changed (MARA's `kic:always_rebuild`).
     * Docker's layer cache still serves unchanged steps. Default false.
     */
    alwaysRebuild?: boolean;
    /** Repository to push to, e.g. an ECR repository URL. Required. */
    repositoryUrl: pulumi.Input<string>;
    /** Push credentials for the registry; kept secret. Required. */
    credentials: pulumi.Input<RegistryCredentials>;
    /** Image platform. Default `linux/amd64` (the node architecture of every supported cluster). */
    platform?: string;
}

/** Make targets that can be built without NGINX Plus credentials, and the Dockerfile's BUILD_OS for each. */
export const OPEN_SOURCE_TARGETS: Readonly<Record<string, string>> = {
    "debian-image": "debian",
    "alpine-image": "alpine",
    "ubi-image": "ubi",
};

/** Directory holding the Dockerfile that copies an image into another registry. */
const MIRROR_CONTEXT = path.join(__dirname, "docker");

/**
 * The NGINX Ingress Controller image in the cluster's own registry (MARA's kic-image-build and
 * kic-image-push projects). The Docker engine of the machine running Pulumi pulls or builds the image and
 * pushes it; nothing is built or pushed during `pulumi preview`. Registry credentials are inputs only and
 * stay secret in the state.
 */
export class KicImage extends pulumi.ComponentResource {
    /** Repository the image was pushed to (no tag). */
    public readonly repository: pulumi.Output<string>;
    /** Tag of the pushed image. */
    public readonly tag: pulumi.Output<string>;
    /** Full reference `repository:tag`. */
    public readonly imageName: pulumi.Output<string>;
    /** `repository@sha256:…` of the pushed image; changes with every new push. */
    public readonly repoDigest: pulumi.Output<string>;

    constructor(name: string, args: KicImageArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:registry:KicImage", name, {}, opts);
        const plan = planKicImage(args);
        const image = new docker.Image(
            `${name}-image`,
            {
                imageName: pulumi.interpolate`${args.repositoryUrl}:${plan.tag}`,
                build: {
                    context: plan.context,
                    dockerfile: plan.dockerfile,
                    target: plan.target,
                    args: plan.buildArgs,
                    platform: args.platform ?? DEFAULTS.kicImage.platform,
                    builderVersion: "BuilderBuildKit",
                },
                registry: pulumi.secret(pulumi.output(args.credentials)).apply((c) => ({ server: c.server, username: c.username, password: c.password })),
                buildOnPreview: false,
            },
            { parent: this },
        );
        // Derived from the pushed image, so whoever deploys the image waits until it is in the registry.
        this.repository = pulumi.all([image.repoDigest, args.repositoryUrl]).apply(([, repository]) => repository);
        this.tag = image.repoDigest.apply(() => plan.tag);
        this.imageName = image.imageName;
        this.repoDigest = image.repoDigest;
        this.registerOutputs({ repository: this.repository, tag: this.tag, imageName: this.imageName, repoDigest: this.repoDigest });
    }
}

/** How an image is produced: Docker build context, Dockerfile, target, arguments and the pushed tag. */
export interface KicImagePlan {
    /** Docker build context: the bundled mirror directory, or the kubernetes-ingress checkout. */
    readonly context: string;
    /** Absolute path of the Dockerfile. */
    readonly dockerfile: string;
    /** Build stage to stop at (`container` for source builds); undefined builds the whole file. */
    readonly target?: string;
    /** Build arguments (`SOURCE_IMAGE`, or `BUILD_OS`/`IC_VERSION`; `MARA_REBUILD` when `alwaysRebuild`). */
    readonly buildArgs: Record<string, string>;
    /** Tag the image is pushed under. */
    readonly tag: string;
}

/** Decides how to produce the image; throws with the argument and the fix when it cannot be produced. */
export function planKicImage(args: Omit<KicImageArgs, "repositoryUrl" | "credentials">, now: () => number = Date.now): KicImagePlan {
    const nonce: Record<string, string> = args.alwaysRebuild ? { MARA_REBUILD: String(now()) } : {};
    if ((args.origin ?? DEFAULTS.kicImage.origin) === "registry") {
        const source = args.imageName ?? DEFAULTS.kicImage.imageName;
        const problem = imageReferenceProblem(source);
        if (problem) throw new Error(`KicImage: imageName "${source}" ${problem}.`);
        return {
            context: MIRROR_CONTEXT,
            dockerfile: path.join(MIRROR_CONTEXT, "Dockerfile.mirror"),
            buildArgs: { SOURCE_IMAGE: source, ...nonce },
            tag: imageTag(source),
        };
    }
    const target = args.makeTarget ?? DEFAULTS.kicImage.makeTarget;
    const buildOs = OPEN_SOURCE_TARGETS[target];
    if (!buildOs) {
        throw new Error(
            `KicImage: make target "${target}" cannot be built here. ${target.includes("plus") ? "NGINX Plus builds need BuildKit secrets, which Pulumi's Docker provider cannot pass; build it with `make " + target + "`, push it, and use origin \"registry\" with that image." : `Use one of ${Object.keys(OPEN_SOURCE_TARGETS).join(", ")}.`}`,
        );
    }
    if (!args.sourceDir) throw new Error("KicImage: sourceDir is required when origin is \"source\" (a local checkout of nginx/kubernetes-ingress).");
    const version = args.version ?? DEFAULTS.kicImage.version;
    return {
        context: args.sourceDir,
        dockerfile: path.join(args.sourceDir, "build", "Dockerfile"),
        // "container" compiles the controller inside Docker, so no Go toolchain is needed on the host.
        target: "container",
        buildArgs: { BUILD_OS: buildOs, IC_VERSION: version, ...nonce },
        tag: `${version}-${buildOs}`,
    };
}

/** The tag under which a copied image is pushed: its own tag, or a digest-derived one. */
export function imageTag(reference: string): string {
    const at = reference.indexOf("@");
    if (at >= 0) return `sha-${reference.slice(at + "@sha256:".length, at + "@sha256:".length + 12)}`;
    const lastSlash = reference.lastIndexOf("/");
    const colon = reference.lastIndexOf(":");
    return colon > lastSlash ? reference.slice(colon + 1) : "latest";
}
