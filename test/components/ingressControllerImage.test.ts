import * as docker from "@pulumi/docker";
import * as fs from "fs";
import * as path from "path";
import { beforeAll, describe, expect, it } from "vitest";
import { imageTag, IngressControllerImage, IngressControllerImageArgs, MAKE_TARGETS, planIngressControllerImage, REMOTE_BUILD_CONTEXT } from "../../components";
import { DEFAULTS, KIC_VERSION } from "../../contracts";
import { find, installMocks, ofType, plainStrings, promiseOf, Registration, settle, unwrapSecrets } from "../support/mocks";

const DIGEST = "0123456789abcdef".repeat(4);
const REPO = "123456789012.dkr.ecr.us-east-1.amazonaws.com/ingress-controller-dev";
const PULL = "docker:index/remoteImage:RemoteImage";
const TAG = "docker:index/tag:Tag";
const PUSH = "docker:index/registryImage:RegistryImage";
const PUSHED_DIGEST = `sha256:${"ab".repeat(32)}`;
const BUILT_ID = `sha256:${"cd".repeat(32)}`;
const PLUS_FILES = { certificate: { file: "/etc/ssl/nginx/nginx-repo.crt" }, key: { file: "/etc/ssl/nginx/nginx-repo.key" } };

/** The `<urn>::<id>` reference the engine records for resources using this provider. */
async function providerRef(p: docker.Provider): Promise<string> {
    const [urn, id] = await Promise.all([promiseOf(p.urn), promiseOf(p.id)]);
    return `${urn}::${id}`;
}

/** One IngressControllerImage under mocks, with the registrations it made and its provider reference. */
async function build(args: Omit<IngressControllerImageArgs, "repositoryUrl">, preview = false) {
    const { registrations } = await installMocks({ preview });
    const provider = new docker.Provider("docker", {});
    const kic = new IngressControllerImage("kic-image", { repositoryUrl: REPO, ...args }, { providers: [provider] });
    await settle();
    return { regs: registrations, kic, provider: preview ? "" : await providerRef(provider) };
}

describe("planIngressControllerImage, origin registry", () => {
    it("pulls the image and pushes it under its own tag", () => {
        expect(planIngressControllerImage({ origin: "registry", imageName: "nginx/nginx-ingress:5.4.1-alpine" })).toEqual({ origin: "registry", source: "nginx/nginx-ingress:5.4.1-alpine", tag: "5.4.1-alpine" });
    });

    it("is the default origin and copies the default image when none is given", () => {
        expect(planIngressControllerImage({})).toEqual({ origin: "registry", source: DEFAULTS.ingressControllerImage.imageName, tag: KIC_VERSION });
    });

    it.each([
        ["nginx/nginx-ingress:5.5.4", "5.5.4"],
        ["private-registry.nginx.com/nginx-ic/nginx-plus-ingress:5.5.4-ubi", "5.5.4-ubi"],
        ["localhost:5000/nginx-ingress", "latest"],
        ["nginx-ingress", "latest"],
        [`nginx-ingress@sha256:${DIGEST}`, "sha-0123456789ab"],
        [`nginx/nginx-ingress:5.5.4@sha256:${DIGEST}`, "sha-0123456789ab"],
    ])("imageTag(%s) is %s", (ref, tag) => {
        expect(imageTag(ref)).toBe(tag);
    });

    it.each([
        ["NGINX/ingress:latest", 'IngressControllerImage: imageName "NGINX/ingress:latest" has an invalid repository name component "NGINX" (lower-case letters, digits, \'.\', \'_\' and \'-\' only).'],
        ["nginx/nginx-ingress@sha256:abc", 'IngressControllerImage: imageName "nginx/nginx-ingress@sha256:abc" has a malformed digest (expected @sha256:<64 hex digits>).'],
        ["https://docker.io/nginx", 'IngressControllerImage: imageName "https://docker.io/nginx" starts with a URL scheme (leave out http:// or https://).'],
    ])("rejects the image name %s", (imageName, message) => {
        expect(() => planIngressControllerImage({ imageName })).toThrow(message);
    });
});

describe("planIngressControllerImage, origin source", () => {
    it("builds the git repository's build/Dockerfile to the `container` stage, version and tag from the ref", () => {
        expect(planIngressControllerImage({ origin: "source", source: "https://github.com/nginx/kubernetes-ingress.git#v5.5.4" })).toEqual({
            origin: "source",
            source: "https://github.com/nginx/kubernetes-ingress.git#v5.5.4",
            location: { kind: "git", url: "https://github.com/nginx/kubernetes-ingress.git#v5.5.4", ref: "v5.5.4" },
            makeTarget: "debian-image",
            target: "container",
            dockerfile: "build/Dockerfile",
            buildArgs: { BUILD_OS: "debian", IC_VERSION: "5.5.4" },
            secrets: [],
            tag: "5.5.4-debian",
        });
    });

    it("builds by default the git repository at the default image's release", () => {
        const plan = planIngressControllerImage({ origin: "source" });
        expect(plan).toMatchObject({ location: { kind: "git", url: `https://github.com/nginx/kubernetes-ingress.git#v${KIC_VERSION}` }, tag: `${KIC_VERSION}-debian` });
    });

    it("reproduces the Makefile's BUILD_OS and App Protect modules per target, and tags like MARA's alias", () => {
        const plan = (makeTarget: string) => planIngressControllerImage({ origin: "source", makeTarget, nginxRepo: PLUS_FILES, source: "/src/kic#5.5.4" });
        expect(plan("alpine-image")).toMatchObject({ buildArgs: { BUILD_OS: "alpine", IC_VERSION: "5.5.4" }, tag: "5.5.4-alpine" });
        expect(plan("ubi-image")).toMatchObject({ buildArgs: { BUILD_OS: "ubi" }, tag: "5.5.4-ubi" });
        expect(plan("debian-image-nap-dos-plus")).toMatchObject({ buildArgs: { BUILD_OS: "debian-plus-nap", NAP_MODULES: "waf,dos" }, tag: "5.5.4-debian-nap-dos-plus" });
        expect(plan("debian-image-dos-plus")).toMatchObject({ buildArgs: { BUILD_OS: "debian-plus-nap-agent", NAP_MODULES: "dos" } });
    });

    it("versions a build whose source names no version `source`, and takes an explicit version first", () => {
        expect(planIngressControllerImage({ origin: "source", source: "/src/kubernetes-ingress" })).toMatchObject({ buildArgs: { IC_VERSION: "source" }, tag: "source-debian" });
        expect(planIngressControllerImage({ origin: "source", source: "https://github.com/nginx/kubernetes-ingress.git#main" })).toMatchObject({ tag: "source-debian" });
        expect(planIngressControllerImage({ origin: "source", source: "/src#v5.5.4", version: "5.5.4-mine" })).toMatchObject({ tag: "5.5.4-mine-debian" });
    });

    it("builds an https tarball, version from its file name", () => {
        const plan = planIngressControllerImage({ origin: "source", source: "https://artifacts.example.com/kic/kubernetes-ingress-5.5.3.tar.gz" });
        expect(plan).toMatchObject({ location: { kind: "tarball", url: "https://artifacts.example.com/kic/kubernetes-ingress-5.5.3.tar.gz" }, tag: "5.5.3-debian" });
    });

    it("passes the NGINX Plus repository certificate and key as BuildKit secrets with the ids the Dockerfile mounts", () => {
        const files = planIngressControllerImage({ origin: "source", makeTarget: "debian-image-plus", nginxRepo: PLUS_FILES });
        expect(files).toMatchObject({
            buildArgs: { BUILD_OS: "debian-plus", IC_VERSION: KIC_VERSION },
            secrets: [
                { id: "nginx-repo.crt", src: "/etc/ssl/nginx/nginx-repo.crt" },
                { id: "nginx-repo.key", src: "/etc/ssl/nginx/nginx-repo.key" },
            ],
        });
        const env = planIngressControllerImage({ origin: "source", makeTarget: "alpine-image-plus", nginxRepo: { certificate: { env: "NGINX_REPO_CRT" }, key: { env: "NGINX_REPO_KEY" } } });
        expect(env.origin === "source" && env.secrets).toEqual([
            { id: "nginx-repo.crt", env: "NGINX_REPO_CRT" },
            { id: "nginx-repo.key", env: "NGINX_REPO_KEY" },
        ]);
        // Open-source targets get no secrets even when credentials are at hand.
        expect(planIngressControllerImage({ origin: "source", nginxRepo: PLUS_FILES })).toMatchObject({ secrets: [] });
    });

    it("refuses a Plus target without the repository credentials, and says what they are", () => {
        expect(() => planIngressControllerImage({ origin: "source", makeTarget: "debian-image-plus" })).toThrow(
            'IngressControllerImage: makeTarget "debian-image-plus" builds NGINX Plus and needs nginxRepo, the NGINX Plus repository certificate and key (nginx-repo.crt and nginx-repo.key from MyF5) as files or environment variables.',
        );
    });

    it("refuses MARA's retired targets with their replacement, and unknown targets with the list", () => {
        expect(() => planIngressControllerImage({ origin: "source", makeTarget: "openshift-image" })).toThrow('IngressControllerImage: makeTarget "openshift-image" no longer exists in nginx/kubernetes-ingress; ubi-image replaced it. Use one of debian-image, alpine-image, ubi-image,');
        expect(() => planIngressControllerImage({ origin: "source", makeTarget: "ubi-image-nap-plus" })).toThrow("needs a Red Hat license secret (rhel_license)");
        expect(() => planIngressControllerImage({ origin: "source", makeTarget: "windows-image" })).toThrow('IngressControllerImage: makeTarget "windows-image" is not an image target of nginx/kubernetes-ingress.');
    });

    it("refuses a source it cannot build from, naming it", () => {
        expect(() => planIngressControllerImage({ origin: "source", source: "http://example.com/kic.tar.gz" })).toThrow('IngressControllerImage: source "http://example.com/kic.tar.gz" is a plain http URL; the sources are fetched over https only.');
        expect(() => planIngressControllerImage({ origin: "source", source: "/tmp/kic.tar.gz" })).toThrow("is a local tarball; Docker builds from a directory or a URL, so extract it and give the directory");
    });

    it("knows every image target of the pinned kubernetes-ingress Makefile that needs no secret beyond the Plus repository's", () => {
        expect(Object.keys(MAKE_TARGETS).filter((t) => !MAKE_TARGETS[t]!.plus)).toEqual(["debian-image", "alpine-image", "ubi-image"]);
        expect(Object.keys(MAKE_TARGETS).every((t) => t.includes("plus") === MAKE_TARGETS[t]!.plus)).toBe(true);
    });
});

describe("IngressControllerImage, mirror of a public image", () => {
    let regs: Registration[];
    let kic: IngressControllerImage;
    let provider: string;

    beforeAll(async () => {
        ({ regs, kic, provider } = await build({ imageName: "nginx/nginx-ingress:5.5.4" }));
    });

    it("pulls, tags and pushes with the Docker provider it is given", () => {
        for (const [type, name] of [[PULL, "kic-image-pull"], [TAG, "kic-image-tag"], [PUSH, "kic-image-push"]]) {
            expect(find(regs, type!, name!).provider).toBe(provider);
        }
        expect(ofType(regs, "docker:index/image:Image")).toEqual([]);
    });

    it("pulls the image for linux/amd64, removing the old local copy before a replacement", () => {
        const pull = find(regs, PULL, "kic-image-pull");
        expect(pull.inputs).toEqual({ name: "nginx/nginx-ingress:5.5.4", platform: "linux/amd64" });
        expect(pull.deleteBeforeReplace).toBe(true);
    });

    it("names the pulled image after the cluster's repository and pushes that, keeping replaced pushes in the registry", () => {
        expect(find(regs, TAG, "kic-image-tag").inputs).toEqual({ sourceImage: BUILT_ID, targetImage: `${REPO}:5.5.4` });
        expect(find(regs, PUSH, "kic-image-push").inputs).toEqual({ name: `${REPO}:5.5.4`, keepRemotely: true, triggers: { imageId: BUILT_ID } });
    });

    it("exports where the image came from and the digest the registry recorded", async () => {
        expect([kic.origin, kic.source, kic.makeTarget]).toEqual(["registry", "nginx/nginx-ingress:5.5.4", undefined]);
        expect(await promiseOf(kic.repository)).toBe(REPO);
        expect(await promiseOf(kic.tag)).toBe("5.5.4");
        expect(await promiseOf(kic.imageName)).toBe(`${REPO}:5.5.4`);
        expect(await promiseOf(kic.digest)).toBe(PUSHED_DIGEST);
        expect(await promiseOf(kic.repoDigest)).toBe(`${REPO}@${PUSHED_DIGEST}`);
    });
});

describe("IngressControllerImage, mirror of an NGINX Plus image", () => {
    it("pulls from private-registry.nginx.com by name alone: the JWT lives in the provider's registryAuth, not in any input", async () => {
        const { regs } = await build({ imageName: "private-registry.nginx.com/nginx-ic/nginx-plus-ingress:5.5.4" });
        expect(find(regs, PULL, "kic-image-pull").inputs!.name).toBe("private-registry.nginx.com/nginx-ic/nginx-plus-ingress:5.5.4");
        expect(find(regs, PUSH, "kic-image-push").inputs!.name).toBe(`${REPO}:5.5.4`);
        // Neither resource carries credentials of its own (no authConfig, no build auth).
        expect(JSON.stringify(ofType(regs, PULL).concat(ofType(regs, PUSH)).map((r) => r.inputs))).not.toMatch(/auth|password|username/i);
    });
});

describe("IngressControllerImage, source builds", () => {
    it("clones a git URL in BuildKit (remoteContext) and sends only the tiny local context", async () => {
        const { regs } = await build({ origin: "source", source: "https://github.com/nginx/kubernetes-ingress.git#v5.5.4" });
        const built = find(regs, PULL, "kic-image-build");
        expect(built.inputs).toEqual({
            name: `${REPO}:5.5.4-debian`,
            platform: "linux/amd64",
            build: {
                context: REMOTE_BUILD_CONTEXT,
                remoteContext: "https://github.com/nginx/kubernetes-ingress.git#v5.5.4",
                useLegacyBuilder: true,
                dockerfile: "build/Dockerfile",
                target: "container",
                buildArgs: { BUILD_OS: "debian", IC_VERSION: "5.5.4" },
                platform: "linux/amd64",
            },
        });
        expect(find(regs, PUSH, "kic-image-push").inputs).toEqual({ name: `${REPO}:5.5.4-debian`, keepRemotely: true, triggers: { imageId: BUILT_ID } });
        expect(ofType(regs, TAG)).toEqual([]);
    });

    it("a token in the git URL (a private fork): the remote context is secret in the state, and the source it exports shows [secret]", async () => {
        const token = "ghp_KicSourceToken0123456789";
        const { regs, kic } = await build({ origin: "source", source: `https://oauth2:${token}@github.com/acme/kubernetes-ingress.git#v5.5.4` });
        const built = find(regs, PULL, "kic-image-build");
        expect(unwrapSecrets(built.inputs!.build)).toMatchObject({ remoteContext: `https://oauth2:${token}@github.com/acme/kubernetes-ingress.git#v5.5.4` });
        expect(regs.flatMap((r) => plainStrings(r.inputs)).filter((t) => t.includes(token))).toEqual([]);
        expect(kic.source).toBe("https://[secret]@github.com/acme/kubernetes-ingress.git#v5.5.4");
    });

    it("keeps the local context small, relative and shipped with the package", () => {
        expect(path.isAbsolute(REMOTE_BUILD_CONTEXT)).toBe(false);
        expect(REMOTE_BUILD_CONTEXT).toBe(path.join("components", "docker"));
        expect(fs.readdirSync(REMOTE_BUILD_CONTEXT)).toEqual(["README.md"]);
    });

    it("downloads an https tarball in BuildKit", async () => {
        const url = "https://artifacts.example.com/kic/kubernetes-ingress-5.5.3.tar.gz";
        const { regs } = await build({ origin: "source", source: url, makeTarget: "alpine-image" });
        expect(find(regs, PULL, "kic-image-build").inputs!.build).toMatchObject({ remoteContext: url, useLegacyBuilder: true, buildArgs: { BUILD_OS: "alpine", IC_VERSION: "5.5.3" } });
    });

    it("builds GitHub's release tarball from the same tag with git, whose top-level directory BuildKit cannot strip", async () => {
        const { regs } = await build({ origin: "source", source: "https://github.com/nginx/kubernetes-ingress/archive/refs/tags/v5.5.4.tar.gz" });
        expect(find(regs, PULL, "kic-image-build").inputs!.build).toMatchObject({ remoteContext: "https://github.com/nginx/kubernetes-ingress.git#v5.5.4", buildArgs: { IC_VERSION: "5.5.4" } });
    });

    it("builds a local directory as the build context, with BuildKit through buildx", async () => {
        const { regs } = await build({ origin: "source", source: "/home/dev/kubernetes-ingress#v5.5.4", makeTarget: "ubi-image" });
        const b = find(regs, PULL, "kic-image-build").inputs!.build as Record<string, unknown>;
        expect(b).toEqual({ context: "/home/dev/kubernetes-ingress", dockerfile: "build/Dockerfile", target: "container", buildArgs: { BUILD_OS: "ubi", IC_VERSION: "5.5.4" }, platform: "linux/amd64" });
    });

    it("builds NGINX Plus with the repository certificate and key as BuildKit secrets: paths only, never their contents", async () => {
        const { regs } = await build({ origin: "source", makeTarget: "debian-image-plus", nginxRepo: PLUS_FILES });
        const b = find(regs, PULL, "kic-image-build").inputs!.build as Record<string, unknown>;
        expect(b.secrets).toEqual([
            { id: "nginx-repo.crt", src: "/etc/ssl/nginx/nginx-repo.crt" },
            { id: "nginx-repo.key", src: "/etc/ssl/nginx/nginx-repo.key" },
        ]);
        // Not a build argument, not a label: nothing that ends up in an image layer names them.
        expect(Object.keys(b.buildArgs as object)).toEqual(["BUILD_OS", "IC_VERSION"]);
    });

    it("rebuilds and repushes on every run with alwaysRebuild, through a trigger that replaces the local image", async () => {
        const { regs } = await build({ origin: "source", source: "/src/kic", alwaysRebuild: true });
        const b = find(regs, PULL, "kic-image-build");
        expect(Object.keys(b.inputs!.triggers as object)).toEqual(["rebuild"]);
        expect(b.deleteBeforeReplace).toBe(true);
        const again = await build({ origin: "source", source: "/src/kic" });
        expect(find(again.regs, PULL, "kic-image-build").inputs!.triggers).toBeUndefined();
    });

    it("fails in the constructor on a bad plan, before registering anything", async () => {
        const { registrations } = await installMocks();
        expect(() => new IngressControllerImage("bad", { origin: "source", makeTarget: "debian-image-plus", repositoryUrl: REPO })).toThrow("needs nginxRepo");
        await settle();
        expect(registrations.filter((r) => r.type.startsWith("docker:"))).toEqual([]);
    });
});

describe("IngressControllerImage on a first preview", () => {
    let regs: Registration[];
    let kic: IngressControllerImage;

    beforeAll(async () => {
        ({ regs, kic } = await build({ imageName: "nginx/nginx-ingress:5.5.4" }, true));
    });

    it("registers only bridged Docker resources, which the provider does not create during a preview", () => {
        expect(regs.filter((r) => r.type.startsWith("docker:") && r.type !== "pulumi:providers:docker").map((r) => r.type).sort()).toEqual([PUSH, PULL, TAG].sort());
        // Nothing that builds on preview (docker.Image's buildOnPreview, docker-build's default) is registered.
        expect(JSON.stringify(regs.map((r) => r.inputs))).not.toContain("buildOnPreview");
    });

    it("leaves the digest unknown, so nothing downstream pretends the image exists", async () => {
        const known = await new Promise<boolean>((resolve) => {
            kic.digest.apply((d) => resolve(d !== undefined));
            setTimeout(() => resolve(false), 200);
        });
        expect(known).toBe(false);
    });
});
