import * as docker from "@pulumi/docker";
import * as fs from "fs";
import * as path from "path";
import { beforeAll, describe, expect, it } from "vitest";
import { imageTag, KicImage, OPEN_SOURCE_TARGETS, planKicImage } from "../../components";
import { DEFAULTS } from "../../contracts";
import { find, installMocks, isWrappedSecret, ofType, promiseOf, Registration, settle, unwrapSecrets } from "../support/mocks";

const DEFAULT_KIC_IMAGE = DEFAULTS.kicImage.imageName;

const MIRROR_DIR = path.resolve(__dirname, "../../components/docker");
const DIGEST = "0123456789abcdef".repeat(4);
const REPO = "123456789012.dkr.ecr.us-east-1.amazonaws.com/ingress-controller-dev";
const CREDS = { server: "123456789012.dkr.ecr.us-east-1.amazonaws.com", username: "AWS", password: "ecr-push-token" };
const IMAGE = "docker:index/image:Image";

/** The `<urn>::<id>` reference the engine records for resources using this provider. */
async function providerRef(p: docker.Provider): Promise<string> {
    const [urn, id] = await Promise.all([promiseOf(p.urn), promiseOf(p.id)]);
    return `${urn}::${id}`;
}

describe("planKicImage, origin registry", () => {
    it("copies the image through Dockerfile.mirror, passing it as SOURCE_IMAGE and keeping its tag", () => {
        const plan = planKicImage({ origin: "registry", imageName: "nginx/nginx-ingress:5.4.1-alpine" });
        expect(plan).toEqual({
            context: MIRROR_DIR,
            dockerfile: path.join(MIRROR_DIR, "Dockerfile.mirror"),
            buildArgs: { SOURCE_IMAGE: "nginx/nginx-ingress:5.4.1-alpine" },
            tag: "5.4.1-alpine",
        });
    });

    it("uses a mirror Dockerfile that exists and builds FROM the SOURCE_IMAGE argument", () => {
        const plan = planKicImage({});
        const dockerfile = fs.readFileSync(plan.dockerfile, "utf8");
        expect(dockerfile).toMatch(/^ARG SOURCE_IMAGE$/m);
        expect(dockerfile).toMatch(/^FROM \$\{SOURCE_IMAGE\}$/m);
    });

    it("is the default origin and copies the default image when none is given", () => {
        const plan = planKicImage({});
        expect(DEFAULT_KIC_IMAGE).toMatch(/^nginx\/nginx-ingress:/);
        expect(plan.buildArgs).toEqual({ SOURCE_IMAGE: DEFAULT_KIC_IMAGE });
        expect(plan.tag).toBe(DEFAULT_KIC_IMAGE.split(":")[1]);
        expect(plan.target).toBeUndefined();
    });

    it("tags a digest reference sha-<first 12 hex digits of the digest>", () => {
        expect(planKicImage({ imageName: `nginx/nginx-ingress@sha256:${DIGEST}` }).tag).toBe("sha-0123456789ab");
        expect(planKicImage({ imageName: `nginx/nginx-ingress:5.5.4@sha256:${DIGEST}` }).tag).toBe("sha-0123456789ab");
    });

    it.each([
        ["nginx/nginx-ingress:5.5.4", "5.5.4"],
        ["private-registry.nginx.com/nginx-ic/nginx-plus-ingress:5.5.4-ubi", "5.5.4-ubi"],
        ["localhost:5000/nginx-ingress", "latest"],
        ["nginx-ingress", "latest"],
        [`nginx-ingress@sha256:${DIGEST}`, "sha-0123456789ab"],
    ])("imageTag(%s) is %s", (ref, tag) => {
        expect(imageTag(ref)).toBe(tag);
    });

    it.each([
        ["NGINX/ingress:latest", 'KicImage: imageName "NGINX/ingress:latest" has an invalid repository name component "NGINX" (lower-case letters, digits, \'.\', \'_\' and \'-\' only).'],
        ["nginx/nginx-ingress@sha256:abc", 'KicImage: imageName "nginx/nginx-ingress@sha256:abc" has a malformed digest (expected @sha256:<64 hex digits>).'],
        ["https://docker.io/nginx", 'KicImage: imageName "https://docker.io/nginx" starts with a URL scheme (leave out http:// or https://).'],
    ])("rejects the image name %s", (imageName, message) => {
        expect(() => planKicImage({ imageName })).toThrow(message);
    });
});

describe("planKicImage, origin source", () => {
    it("builds the repository's Dockerfile up to the `container` stage, with BUILD_OS and IC_VERSION", () => {
        expect(planKicImage({ origin: "source", sourceDir: "/src/kubernetes-ingress", version: "5.5.4" })).toEqual({
            context: "/src/kubernetes-ingress",
            dockerfile: path.join("/src/kubernetes-ingress", "build", "Dockerfile"),
            target: "container",
            buildArgs: { BUILD_OS: "debian", IC_VERSION: "5.5.4" },
            tag: "5.5.4-debian",
        });
    });

    it.each(Object.entries(OPEN_SOURCE_TARGETS))("make target %s builds BUILD_OS %s", (makeTarget, os) => {
        const plan = planKicImage({ origin: "source", sourceDir: "/src", makeTarget, version: "5.5.4" });
        expect(plan.buildArgs.BUILD_OS).toBe(os);
        expect(plan.tag).toBe(`5.5.4-${os}`);
    });

    it("covers exactly the open-source debian, alpine and ubi targets", () => {
        expect(OPEN_SOURCE_TARGETS).toEqual({ "debian-image": "debian", "alpine-image": "alpine", "ubi-image": "ubi" });
    });

    it('versions a build without a version "source"', () => {
        const plan = planKicImage({ origin: "source", sourceDir: "/src", makeTarget: "alpine-image" });
        expect(plan.buildArgs.IC_VERSION).toBe("source");
        expect(plan.tag).toBe("source-alpine");
    });

    it("refuses NGINX Plus targets and explains how to get such an image in", () => {
        expect(() => planKicImage({ origin: "source", sourceDir: "/src", makeTarget: "debian-image-plus" })).toThrow(
            'KicImage: make target "debian-image-plus" cannot be built here. NGINX Plus builds need BuildKit secrets, which Pulumi\'s Docker provider cannot pass; build it with `make debian-image-plus`, push it, and use origin "registry" with that image.',
        );
    });

    it("refuses an unknown target and lists the ones it can build", () => {
        expect(() => planKicImage({ origin: "source", sourceDir: "/src", makeTarget: "windows-image" })).toThrow(
            'KicImage: make target "windows-image" cannot be built here. Use one of debian-image, alpine-image, ubi-image.',
        );
    });

    it("needs a source directory", () => {
        expect(() => planKicImage({ origin: "source" })).toThrow(
            'KicImage: sourceDir is required when origin is "source" (a local checkout of nginx/kubernetes-ingress).',
        );
    });
});

describe("planKicImage, alwaysRebuild", () => {
    const clock = () => 1_700_000_000_123;

    it("adds a MARA_REBUILD argument from the clock, so every run changes the build", () => {
        expect(planKicImage({ alwaysRebuild: true }, clock).buildArgs).toEqual({ SOURCE_IMAGE: DEFAULT_KIC_IMAGE, MARA_REBUILD: "1700000000123" });
        expect(planKicImage({ origin: "source", sourceDir: "/src", alwaysRebuild: true }, clock).buildArgs).toEqual({
            BUILD_OS: "debian",
            IC_VERSION: "source",
            MARA_REBUILD: "1700000000123",
        });
    });

    it("adds no nonce and never reads the clock otherwise", () => {
        const never = () => {
            throw new Error("clock read");
        };
        expect(planKicImage({ alwaysRebuild: false }, never).buildArgs).not.toHaveProperty("MARA_REBUILD");
        expect(planKicImage({ origin: "source", sourceDir: "/src" }, never).buildArgs).not.toHaveProperty("MARA_REBUILD");
    });
});

describe("KicImage", () => {
    let regs: Registration[];
    let kic: KicImage;
    let dockerProvider: string;

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        const provider = new docker.Provider("docker", {});
        kic = new KicImage("kic-image", { imageName: "nginx/nginx-ingress:5.5.4", repositoryUrl: REPO, credentials: CREDS }, { providers: [provider] });
        await settle();
        dockerProvider = await providerRef(provider);
    });

    it("builds and pushes with the Docker provider it is given, never on preview", () => {
        const image = find(regs, IMAGE, "kic-image-image");
        expect(image.provider).toBe(dockerProvider);
        expect(image.inputs!.buildOnPreview).toBe(false);
    });

    it("pushes <repository>:<tag> for linux/amd64 with BuildKit", () => {
        const image = find(regs, IMAGE, "kic-image-image");
        expect(image.inputs!.imageName).toBe(`${REPO}:5.5.4`);
        expect(image.inputs!.build).toEqual({
            context: MIRROR_DIR,
            dockerfile: path.join(MIRROR_DIR, "Dockerfile.mirror"),
            args: { SOURCE_IMAGE: "nginx/nginx-ingress:5.5.4" },
            platform: "linux/amd64",
            builderVersion: "BuilderBuildKit",
        });
    });

    it("passes the registry credentials as a secret and nowhere else", () => {
        const { registry, ...rest } = find(regs, IMAGE, "kic-image-image").inputs!;
        expect(isWrappedSecret(registry)).toBe(true);
        expect(unwrapSecrets(registry)).toEqual(CREDS);
        expect(JSON.stringify(rest)).not.toContain(CREDS.password);
    });

    it("exports the repository, tag, full image name and pushed digest", async () => {
        expect(await promiseOf(kic.repository)).toBe(REPO);
        expect(await promiseOf(kic.tag)).toBe("5.5.4");
        expect(await promiseOf(kic.imageName)).toBe(`${REPO}:5.5.4`);
        expect(await promiseOf(kic.repoDigest)).toMatch(new RegExp(`^${REPO}@sha256:[0-9a-f]{64}$`));
    });

    it("fails in the constructor on a bad plan", async () => {
        const { registrations } = await installMocks();
        expect(() => new KicImage("bad", { origin: "source", repositoryUrl: REPO, credentials: CREDS })).toThrow("KicImage: sourceDir is required");
        await settle();
        expect(ofType(registrations, IMAGE)).toEqual([]);
    });
});

describe("KicImage on a first preview", () => {
    let regs: Registration[];

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks({ preview: true }));
        const provider = new docker.Provider("docker", {});
        new KicImage("kic-image", { repositoryUrl: REPO, credentials: CREDS }, { providers: [provider] });
        await settle();
    });

    it("registers the image without building it", () => {
        const image = find(regs, IMAGE, "kic-image-image");
        expect(image.inputs!.buildOnPreview).toBe(false);
        expect(image.provider).toMatch(/::pulumi:providers:docker::docker::/);
    });
});
