import * as docker from "@pulumi/docker";
import * as pulumi from "@pulumi/pulumi";
import * as path from "path";
import { redactUrlCredentials, urlCredentials } from "../../contracts/urlCredentials";
import { INGRESS_CONTROLLER_IMAGE_TYPE, KIC_IMAGE_TYPE } from "./defaults";
import {
    BuildSecretSource,
    classifyKicSource,
    DEFAULTS,
    imageReferenceProblem,
    KIC_BUILD_STAGE,
    KIC_DOCKERFILE,
    KIC_SOURCE_ALLOWED,
    KicSource,
    kicSourceVersion,
    MAKE_TARGETS,
    makeTargetProblem,
    makeTargetTag,
    NGINX_REPO_SECRET_IDS,
    NginxRepoCredentials,
} from "../../contracts";

/** Arguments of {@link IngressControllerImage}. */
export interface IngressControllerImageArgs {
    /**
     * `registry` (default): pull {@link IngressControllerImageArgs.imageName} and push it to the cluster's registry.
     * `source`: build the image from {@link IngressControllerImageArgs.source} and push it.
     */
    origin?: "registry" | "source";
    /**
     * Image to copy when `origin` is `registry`, from any registry the Docker provider can pull from (NGINX Plus
     * images from private-registry.nginx.com with the JWT in the provider's `registryAuth`). Default `nginx/nginx-ingress:5.5.4`.
     */
    imageName?: string;
    /**
     * The nginx/kubernetes-ingress sources, for `origin: source`: a git URL with `#<tag or branch>` (BuildKit clones
     * it), an https tarball whose root holds the sources, or a local directory (`~` expanded, relative paths
     * resolved against the working directory). Default `https://github.com/nginx/kubernetes-ingress.git#v5.5.4`,
     * the release of the default image.
     */
    source?: string;
    /**
     * The repository's make target to reproduce, for `origin: source`. Default `debian-image`; `…-plus` targets build
     * NGINX Plus and need {@link IngressControllerImageArgs.nginxRepo}. The targets are listed in `MAKE_TARGETS`.
     */
    makeTarget?: string;
    /**
     * Version written into the binary (`IC_VERSION`) and the tag, for `origin: source`. Default `source`, unless the
     * source names a version (`#v5.5.4`, a tarball's file name), which is then used.
     */
    version?: string;
    /** NGINX Plus repository certificate and key, for `…-plus` make targets; passed as BuildKit secrets only. */
    nginxRepo?: NginxRepoCredentials;
    /**
     * Pull or build, and push, on every `pulumi up`, even when nothing changed (MARA's `kic:always_rebuild`).
     * The cluster moves to the new image only when its digest differs. Default false.
     */
    alwaysRebuild?: boolean;
    /**
     * Repository to push to, e.g. an ECR repository URL. Required. Its registry's credentials go in the Docker
     * provider's `registryAuth`, which both the pull and the push use.
     */
    repositoryUrl: pulumi.Input<string>;
    /** Image platform. Default `linux/amd64` (the node architecture of every supported cluster). */
    platform?: string;
}

/** How the image is produced, decided from the arguments alone. */
export type IngressControllerImagePlan =
    | {
          readonly origin: "registry";
          /** The image pulled. */
          readonly source: string;
          /** Tag pushed to the cluster's registry. */
          readonly tag: string;
      }
    | {
          readonly origin: "source";
          /** The source location as given. */
          readonly source: string;
          /** Where it is built from. */
          readonly location: KicSource;
          readonly makeTarget: string;
          /** Dockerfile stage. */
          readonly target: string;
          /** Path of the Dockerfile inside the sources. */
          readonly dockerfile: string;
          readonly buildArgs: Readonly<Record<string, string>>;
          /** BuildKit secrets: the NGINX Plus repository's, for Plus targets. */
          readonly secrets: readonly { readonly id: string; readonly src?: string; readonly env?: string }[];
          readonly tag: string;
      };

/**
 * The local build context handed to Docker for a git or tarball source. The Docker provider requires a local
 * directory and sends it along, but the daemon builds from the remote source and ignores it; this one is tiny.
 * Relative to the working directory (the project directory, where Pulumi starts the program and its providers),
 * so the input is the same on every machine and a checkout elsewhere does not rebuild the image.
 */
export const REMOTE_BUILD_CONTEXT = path.relative(process.cwd(), path.join(__dirname, "..", "docker")) || ".";

/**
 * The NGINX Ingress Controller image in the cluster's own registry (MARA's kic-image-build and kic-image-push).
 *
 * - `registry`: `docker.RemoteImage` pulls the image (authenticated by the provider's `registryAuth`, e.g. the
 *   NGINX Plus JWT), `docker.Tag` names it after the cluster's repository, `docker.RegistryImage` pushes it
 *   (authenticated the same way) and records the digest the registry stored.
 * - `source`: `docker.RemoteImage` builds it with BuildKit from a git URL, a tarball or a directory, NGINX Plus
 *   repository credentials mounted as BuildKit secrets; `docker.RegistryImage` pushes it.
 *
 * The cluster is deployed by {@link IngressControllerImage.digest}, so a tag moved upstream never changes it silently. Pulumi's
 * bridged Docker provider does nothing during `pulumi preview`: nothing is pulled, built or pushed then.
 */
export class IngressControllerImage extends pulumi.ComponentResource {
    /** `registry` (copied) or `source` (built). */
    public readonly origin: "registry" | "source";
    /**
     * What the image came from: the image pulled, or the source location built (MARA's `image_name` / `kic_src_url`),
     * with any credential in its URL shown as `[secret]`.
     */
    public readonly source: string;
    /** The make target built, for `origin: source`. */
    public readonly makeTarget?: string;
    /** Repository the image was pushed to (no tag); known once the push is done. */
    public readonly repository: pulumi.Output<string>;
    /** Tag of the pushed image. */
    public readonly tag: pulumi.Output<string>;
    /** Full reference `repository:tag`. */
    public readonly imageName: pulumi.Output<string>;
    /** `sha256:…` digest of the pushed image, as the registry reports it. */
    public readonly digest: pulumi.Output<string>;
    /** `repository@sha256:…`: the exact image the cluster runs. */
    public readonly repoDigest: pulumi.Output<string>;

    constructor(name: string, args: IngressControllerImageArgs, opts?: pulumi.ComponentResourceOptions) {
        // Deployed stacks hold the type token the component had until 0.2.0: it answers to it, and its children with it.
        super(INGRESS_CONTROLLER_IMAGE_TYPE, name, {}, { ...opts, aliases: [...(opts?.aliases ?? []), { type: KIC_IMAGE_TYPE }] });
        const plan = planIngressControllerImage(args);
        const platform = args.platform ?? DEFAULTS.ingressControllerImage.platform;
        const target = pulumi.interpolate`${args.repositoryUrl}:${plan.tag}`;
        // A plain setting decides it; the nonce is the only input that changes between runs when asked to.
        const rebuild = (args.alwaysRebuild ?? DEFAULTS.ingressControllerImage.alwaysRebuild) ? { rebuild: String(Date.now()) } : undefined;
        // The old local image goes first: a replacement under the same name would otherwise find it instead of pulling,
        // or lose its name when the old one is deleted after it.
        const local = { parent: this, deleteBeforeReplace: true };

        let localImage: pulumi.Output<string>;
        let imageId: pulumi.Output<string>;
        if (plan.origin === "registry") {
            const pulled = new docker.RemoteImage(`${name}-pull`, { name: plan.source, platform, triggers: rebuild }, local);
            const tagged = new docker.Tag(
                `${name}-tag`,
                { sourceImage: pulled.imageId, targetImage: target },
                { parent: this },
            );
            localImage = tagged.targetImage;
            imageId = tagged.sourceImageId;
        } else {
            const remote = plan.location.kind !== "directory";
            const built = new docker.RemoteImage(
                `${name}-build`,
                {
                    name: target,
                    platform,
                    triggers: rebuild,
                    build: {
                        // A git or tarball source is fetched by the Docker daemon's BuildKit (`remoteContext`); only the
                        // provider's Engine-API path passes it, so that path is chosen for them (see docs/components/ingressControllerImage.md).
                        context: remote ? REMOTE_BUILD_CONTEXT : plan.location.path,
                        // A credential in the source URL (a token for a private fork) is kept secret in the state.
                        ...(remote ? { remoteContext: urlCredentials(plan.location.url).length > 0 ? pulumi.secret(plan.location.url) : plan.location.url, useLegacyBuilder: true } : {}),
                        dockerfile: plan.dockerfile,
                        target: plan.target,
                        buildArgs: { ...plan.buildArgs },
                        platform,
                        secrets: plan.secrets.length > 0 ? plan.secrets.map((s) => ({ ...s })) : undefined,
                    },
                },
                local,
            );
            localImage = built.name;
            imageId = built.imageId;
        }
        const pushed = new docker.RegistryImage(
            `${name}-push`,
            // Kept in the registry when replaced: a replacement with the same content has the same digest, and deleting
            // the old one would delete the new. The registry's lifecycle policy expires old images.
            { name: localImage, keepRemotely: true, triggers: { imageId } },
            { parent: this },
        );

        this.origin = plan.origin;
        // Shown in outputs and the state: without the credential a source URL may hold.
        this.source = redactUrlCredentials(plan.source);
        this.makeTarget = plan.origin === "source" ? plan.makeTarget : undefined;
        this.digest = pushed.sha256Digest;
        // Derived from the push, so whoever deploys the image waits until it is in the registry.
        this.repository = pulumi.all([pushed.sha256Digest, args.repositoryUrl]).apply(([, repository]) => repository);
        this.tag = pushed.sha256Digest.apply(() => plan.tag);
        this.imageName = pushed.name;
        this.repoDigest = pulumi.interpolate`${this.repository}@${pushed.sha256Digest}`;
        this.registerOutputs({
            origin: this.origin,
            source: this.source,
            makeTarget: this.makeTarget,
            repository: this.repository,
            tag: this.tag,
            imageName: this.imageName,
            digest: this.digest,
            repoDigest: this.repoDigest,
        });
    }
}

/** Decides how to produce the image; throws naming the argument, its value and the fix when it cannot be produced. */
export function planIngressControllerImage(args: Omit<IngressControllerImageArgs, "repositoryUrl">): IngressControllerImagePlan {
    if ((args.origin ?? DEFAULTS.ingressControllerImage.origin) === "registry") {
        const source = args.imageName ?? DEFAULTS.ingressControllerImage.imageName;
        const problem = imageReferenceProblem(source);
        if (problem) throw new Error(`IngressControllerImage: imageName "${source}" ${problem}.`);
        return { origin: "registry", source, tag: imageTag(source) };
    }
    const makeTarget = args.makeTarget ?? DEFAULTS.ingressControllerImage.makeTarget;
    const targetProblem = makeTargetProblem(makeTarget);
    if (targetProblem) throw new Error(`IngressControllerImage: makeTarget "${makeTarget}" ${targetProblem}. Use one of ${Object.keys(MAKE_TARGETS).join(", ")}.`);
    const spec = MAKE_TARGETS[makeTarget]!;
    const source = args.source ?? DEFAULTS.ingressControllerImage.source;
    const classified = classifyKicSource(source);
    if ("problem" in classified) throw new Error(`IngressControllerImage: source "${source}" ${classified.problem}. Use ${KIC_SOURCE_ALLOWED}.`);
    if (spec.plus && !args.nginxRepo) {
        throw new Error(`IngressControllerImage: makeTarget "${makeTarget}" builds NGINX Plus and needs nginxRepo, the NGINX Plus repository certificate and key (nginx-repo.crt and nginx-repo.key from MyF5) as files or environment variables.`);
    }
    const version = args.version ?? kicSourceVersion(classified.source) ?? DEFAULTS.ingressControllerImage.version;
    const secret = (id: string, s: BuildSecretSource) => ("file" in s ? { id, src: s.file } : { id, env: s.env });
    return {
        origin: "source",
        source,
        location: classified.source,
        makeTarget,
        // The controller is compiled inside Docker (the Makefile's TARGET=container), so no Go toolchain is needed.
        target: KIC_BUILD_STAGE,
        dockerfile: KIC_DOCKERFILE,
        buildArgs: { BUILD_OS: spec.buildOs, IC_VERSION: version, ...spec.args },
        secrets: spec.plus && args.nginxRepo
            ? [secret(NGINX_REPO_SECRET_IDS.certificate, args.nginxRepo.certificate), secret(NGINX_REPO_SECRET_IDS.key, args.nginxRepo.key)]
            : [],
        tag: `${version}-${makeTargetTag(makeTarget)}`,
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

/** @deprecated Use {@link IngressControllerImage}, the same component under the add-on's one name; exported until 1.0.0. */
export const KicImage = IngressControllerImage;
/** @deprecated Use {@link IngressControllerImage}. */
export type KicImage = IngressControllerImage;
/** @deprecated Use {@link IngressControllerImageArgs}, the same arguments. */
export type KicImageArgs = IngressControllerImageArgs;
