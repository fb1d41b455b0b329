/**
 * The NGINX Ingress Controller's section of the validated configuration (`MaraConfig.ingressController`: the release,
 * and its image), and the rules across its keys: the image's sources, make targets and NGINX Plus
 * requirements, and the image (or the release a source names) against the pinned nginx-ingress chart. Read by
 * config/validate.ts, which resolves the keys (keys.ts) and hands this module the lookups.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as os from "os";
import * as path from "path";
import {
    ChartSettings,
    classifyKicSource,
    KIC_SOURCE_ALLOWED,
    KIC_VERSION,
    kicSourceVersion,
    MAKE_TARGETS,
    makeTargetProblem,
    NGINX_REPO_ENV,
    NginxRepoCredentials,
    splitImageName,
} from "../../contracts";
import { FLAG_SINCE, KIC_CHARTS } from "./defaults";
import { KeyId, KEYS } from "../../config/keys";
import { configSetCommand } from "../../config/problems";
import { Findings, secretOutput } from "../../config/resolve";
import { inspectLocalPath, LocalPath, pathStatus, shownPath } from "../../config/localPaths";
import type { Lookup } from "../../config/lookup";

/** The controller image's validated settings (`MaraConfig.ingressController.image`). */
export interface IngressControllerImageSettings {
    /** `registry`: pull {@link imageName} and push it to the cluster's registry; `source`: build it from the source. */
    readonly imageOrigin: "registry" | "source";
    /** The image pulled (`mara:ingressImageName`, or MARA's repository and tag keys over the default). */
    readonly imageName: string;
    /** The kubernetes-ingress make target a source build reproduces. */
    readonly makeTarget: string;
    /** The source location as configured (`mara:ingressSrcUrl`). */
    readonly sourceUrl: string;
    /** The source to build from: a git or tarball URL, or the configured directory made absolute (`~` expanded). */
    readonly source: string;
    /** The controller version the source names (`#v5.5.4`), when it names one. */
    readonly version?: string;
    /** Pull or build, and push, on every update. */
    readonly alwaysRebuild: boolean;
    /**
     * Where the NGINX Plus repository certificate and key are read at build time, for a Plus source build: the
     * configured files, else the environment variables NGINX_REPO_CRT and NGINX_REPO_KEY.
     */
    readonly nginxRepo?: NginxRepoCredentials;
    /** JWT for NGINX's private registry (secret), when configured. */
    readonly nginxJwt?: pulumi.Output<string>;
}

/** The controller release's validated settings (`MaraConfig.ingressController`, beside its image). */
export interface IngressControllerReleaseSettings {
    /** The chart: the catalogue's pin, or the version, mirror, timeout and archive the stack sets. */
    readonly chart: ChartSettings;
    /** Run the controller as NGINX Plus. */
    readonly enablePlus: boolean;
    /** Controller replicas. */
    readonly replicas: number;
    /** The controller's Service type: NodePort where the cluster has no load balancer implementation. */
    readonly serviceType: "LoadBalancer" | "NodePort";
}

/** The ingress controller's validated settings (`MaraConfig.ingressController`): its release, and its image. */
export interface IngressControllerSettings extends IngressControllerReleaseSettings {
    /** The controller's image: pulled (and copied to the cluster's registry), or built from source. */
    readonly image: IngressControllerImageSettings;
}

/** The release's settings from the resolved keys and the chart the validation settled on (version, mirror, archive). */
export function ingressControllerReleaseSettings({ d }: Pick<Lookup, "d">, chart: ChartSettings): IngressControllerReleaseSettings {
    return { chart, enablePlus: d("ingressEnablePlus"), replicas: d("ingressReplicas"), serviceType: d("ingressServiceType") };
}

/** The registry NGINX Plus images are pulled from with the JWT. */
const NGINX_PLUS_REGISTRY = "private-registry.nginx.com";

/** Where paths are resolved and files looked up; the real machine unless a test says otherwise. */
export interface KicPaths {
    /** Relative source paths start here (the project directory, where Pulumi runs the program). */
    readonly cwd?: string;
    /** `~` stands for this directory. */
    readonly home?: string;
    /** Environment variables consulted for the NGINX Plus repository certificate and key. */
    readonly env?: Readonly<Record<string, string | undefined>>;
    /** What is at a path: a file, an empty one (nothing but white space), a directory, something else, or nothing. */
    readonly kind?: (path: string) => PathKind;
}

/**
 * What is at a local path, as the image settings need to know it: a file, an empty one (nothing but white space), a
 * directory, nothing, or something that cannot be used, with the reason and the fix in words (a loop of links, a
 * named pipe, a link to nothing, a path the user may not reach).
 */
export type PathKind = "file" | "empty" | "directory" | undefined | { readonly unusable: string; readonly fix?: string };

/** Files larger than this are not read to see whether they hold only white space (no certificate is this large). */
const READ_TO_CHECK = 1024 * 1024;

/** What {@link PathKind} a {@link LocalPath} is. */
export function pathKindOf(found: LocalPath): PathKind {
    if (found.kind === "file") return found.text.trim() === "" ? "empty" : "file";
    if (found.kind === "directory") return "directory";
    if (found.kind === "missing") return found.link === undefined ? undefined : { unusable: `is a symbolic link to ${shownPath(found.link)}, which does not exist`, fix: "point the link at the real file or folder" };
    return { unusable: found.reason, fix: found.fix };
}

function pathKind(p: string): PathKind {
    const status = pathStatus(p);
    if (status.kind === "unusable") return { unusable: status.reason, fix: status.fix };
    if (status.kind !== "file") return pathKindOf(status);
    return status.size > READ_TO_CHECK ? "file" : pathKindOf(inspectLocalPath(p));
}

/**
 * The image the stack pulls: `mara:ingressImageName`, or MARA's repository and tag keys over the default image when no
 * image name is set. A value that did not parse reads as its default; its problem is recorded on its own.
 */
export function pulledImageName({ r, d }: Pick<Lookup, "r" | "d">): string {
    const imageName = d("ingressImageName");
    const repo = r("ingressImageRepository");
    const tag = r("ingressImageTag");
    if (r("ingressImageName").source || (repo.value === undefined && tag.value === undefined)) return imageName;
    const [defaultRepo, defaultTag] = splitImageName(imageName);
    return `${repo.value ?? defaultRepo}:${tag.value ?? defaultTag}`;
}

/**
 * Whether anything reads mara:nginxJwt: the pull of an image from NGINX's private registry (into the cluster's
 * registry, or by the cluster itself), and NGINX Plus mode, whose license it is. An open-source image, or a Plus
 * image built from source into the cluster's registry, with Plus mode off, reads it nowhere.
 */
export function readsNginxJwt({ r, d }: Pick<Lookup, "r" | "d">): boolean {
    return d("ingressEnablePlus") || (d("ingressImageOrigin") === "registry" && pulledImageName({ r, d }).startsWith(`${NGINX_PLUS_REGISTRY}/`));
}

/** Whether anything reads the NGINX Plus repository certificate and key: only a source build of a Plus make target. */
export function readsNginxRepoFiles({ d }: Pick<Lookup, "d">): boolean {
    return d("ingressImageOrigin") === "source" && MAKE_TARGETS[d("ingressMakeTarget")]?.plus === true;
}

/** The NGINX Plus keys this stack reads nowhere, by key id. */
export const NGINX_PLUS_KEYS = ["nginxJwt", "ingressNginxPlusCertPath", "ingressNginxPlusKeyPath"] as const;

/** Whether nothing reads NGINX Plus key `id` on this stack (validation then names it as not used, unchecked). */
export function nginxPlusKeyUnused(id: KeyId, lookup: Pick<Lookup, "r" | "d">): boolean {
    if (id === "nginxJwt") return !readsNginxJwt(lookup);
    if (id === "ingressNginxPlusCertPath" || id === "ingressNginxPlusKeyPath") return !readsNginxRepoFiles(lookup);
    return false;
}

/**
 * NGINX Plus keys set on a stack that reads them nowhere are named as not used, with what would read them, as keys
 * of another infrastructure type are: their values are not checked (a JWT or a file path kept for later is not an
 * error) and change nothing (the JWT then reaches no Secret).
 */
export function checkUnusedNginxPlusKeys({ r, d, keyOf }: Lookup, findings: Findings): void {
    const image = d("ingressImageOrigin") === "source" ? `builds make target ${d("ingressMakeTarget")} from source` : `pulls ${pulledImageName({ r, d })}`;
    const rm = (keys: string[]) => keys.map((k) => `pulumi config rm ${k.split(".")[0]}`).filter((c, i, all) => all.indexOf(c) === i).join(" && ");
    if (r("nginxJwt").source !== undefined && !readsNginxJwt({ r, d })) {
        findings.warn(
            `${keyOf("nginxJwt")} is not used: this stack ${image} and does not run NGINX Plus (${keyOf("ingressEnablePlus")} is false), so nothing pulls from ${NGINX_PLUS_REGISTRY} ` +
                `or needs the license, and the JWT is not checked and reaches no Secret. Remove it with ${rm([keyOf("nginxJwt")])}, or keep it for NGINX Plus ` +
                `(${KEYS.ingressImageName.key} ${NGINX_PLUS_REGISTRY}/nginx-ic/nginx-plus-ingress:${KIC_VERSION} and ${KEYS.ingressEnablePlus.key} true).`,
        );
    }
    const files = (["ingressNginxPlusCertPath", "ingressNginxPlusKeyPath"] as const).filter((id) => r(id).source !== undefined);
    if (files.length > 0 && !readsNginxRepoFiles({ d })) {
        const keys = files.map((id) => keyOf(id));
        findings.warn(
            `${keys.join(", ")} ${keys.length === 1 ? "is" : "are"} not used: the NGINX Plus repository certificate and key are read only to build an NGINX Plus image from source ` +
                `(${KEYS.ingressImageOrigin.key} source with a Plus make target such as debian-image-plus), and this stack ${image}, so ${keys.length === 1 ? "its file is" : "their files are"} not checked. ` +
                `Remove ${keys.length === 1 ? "it" : "them"} with ${rm(keys)}, or keep ${keys.length === 1 ? "it" : "them"} for a Plus source build.`,
        );
    }
}

/** Builds the image settings, checking sources, make targets and NGINX Plus requirements. */
export function buildKic({ r, v, d, keyOf }: Lookup, findings: Findings, paths: KicPaths = {}): IngressControllerImageSettings {
    const kindOf = paths.kind ?? pathKind;
    const env = paths.env ?? process.env;
    const repo = r("ingressImageRepository");
    const tag = r("ingressImageTag");
    if ((repo.source || tag.source) && r("ingressImageName").source) findings.warn(`${repo.source ?? tag.source} is ignored because ${keyOf("ingressImageName")} is set.`);
    const imageName = pulledImageName({ r, d });

    const makeTarget = d("ingressMakeTarget");
    const origin = d("ingressImageOrigin");
    const srcUrl = d("ingressSrcUrl");
    // Set, even if its value is refused (that problem is reported on its own): never also "not set".
    const jwtSet = r("nginxJwt").source !== undefined;
    const spec = MAKE_TARGETS[makeTarget];

    // The source is checked whatever the origin, so a wrong value is found before someone switches to it.
    const classified = classifyKicSource(srcUrl, paths);
    let source = srcUrl;
    let version: string | undefined;
    if ("problem" in classified) {
        findings.problem({
            key: keyOf("ingressSrcUrl"),
            value: srcUrl,
            problem: classified.problem,
            allowed: KIC_SOURCE_ALLOWED,
            fix: configSetCommand(keyOf("ingressSrcUrl"), KEYS.ingressSrcUrl.default),
        });
    } else {
        const s = classified.source;
        source = s.kind === "directory" ? s.path : s.url;
        version = kicSourceVersion(s);
        if (origin === "source" && s.kind === "directory") {
            const found = kindOf(s.path);
            if (found !== "directory") {
                findings.problem({
                    key: keyOf("ingressSrcUrl"),
                    value: srcUrl,
                    problem:
                        found === undefined
                            ? `names ${shownPath(s.path)}, which does not exist on this machine`
                            : typeof found === "object"
                              ? `names ${shownPath(s.path)}, which ${found.unusable}`
                              : `names ${shownPath(s.path)}, which is a file, not a directory`,
                    allowed: KIC_SOURCE_ALLOWED,
                    fix: `git clone --branch v${version ?? "5.5.4"} https://github.com/nginx/kubernetes-ingress.git ${s.path} (or ${configSetCommand(keyOf("ingressSrcUrl"), KEYS.ingressSrcUrl.default)} to let BuildKit fetch it)`,
                });
            } else if (kindOf(`${s.path}/build/Dockerfile`) !== "file") {
                findings.problem({
                    key: keyOf("ingressSrcUrl"),
                    value: srcUrl,
                    problem: `names ${s.path}, which has no build/Dockerfile (not an nginx/kubernetes-ingress checkout)`,
                    allowed: KIC_SOURCE_ALLOWED,
                    fix: `point ${keyOf("ingressSrcUrl")} at the root of a kubernetes-ingress checkout`,
                });
            }
        }
    }

    if (origin === "source") {
        const targetProblem = makeTargetProblem(makeTarget);
        if (targetProblem) {
            findings.problem({
                key: keyOf("ingressMakeTarget"),
                value: makeTarget,
                problem: targetProblem,
                allowed: `one of ${Object.keys(MAKE_TARGETS).join(", ")}`,
                fix: configSetCommand(keyOf("ingressMakeTarget"), "debian-image"),
            });
        }
    }

    const resolve = (p: string) => path.resolve(paths.cwd ?? process.cwd(), p === "~" || p.startsWith("~/") ? path.join(paths.home ?? os.homedir(), p.slice(1)) : p);
    const nginxRepo = repoCredentials({ r, v, d, keyOf }, findings, { kindOf, env, resolve }, origin === "source" && spec?.plus === true, makeTarget);

    if (origin === "registry" && imageName.startsWith(`${NGINX_PLUS_REGISTRY}/`) && !jwtSet) {
        findings.problem({
            key: keyOf("ingressImageName"),
            value: imageName,
            problem: `is pulled from ${NGINX_PLUS_REGISTRY}, which needs the NGINX Plus JWT, and mara:nginxJwt is not set`,
            allowed: `an image from a public registry, or an image from ${NGINX_PLUS_REGISTRY} together with the JWT from MyF5 in mara:nginxJwt`,
            fix: configSetCommand(KEYS.nginxJwt.key, "<jwt>", true),
        });
    }
    if (v("ingressEnablePlus") && !jwtSet) {
        findings.problem({
            key: keyOf("ingressEnablePlus"),
            value: "true",
            problem: "turns on NGINX Plus, which needs its license token, and mara:nginxJwt is not set",
            allowed: "false, or true together with the JWT from MyF5 in mara:nginxJwt",
            fix: `${configSetCommand(KEYS.nginxJwt.key, "<jwt>", true)} (or ${configSetCommand(keyOf("ingressEnablePlus"), "false")})`,
        });
    }
    const plusImage = origin === "source" ? spec?.plus === true : imageName.includes("plus");
    if (v("ingressEnablePlus") && !plusImage) {
        // The controller refuses to start in Plus mode without NGINX Plus: a crash loop until the Helm release times out.
        findings.problem({
            key: keyOf("ingressEnablePlus"),
            value: "true",
            problem: `runs the controller in NGINX Plus mode, but its image (${origin === "source" ? `make target ${makeTarget}` : imageName}) is not an NGINX Plus image, so the controller exits at start and the release times out`,
            allowed: `false with an open-source image; true with an NGINX Plus image (${NGINX_PLUS_REGISTRY}/nginx-ic/nginx-plus-ingress, or a Plus make target such as debian-image-plus)`,
            fix: `${configSetCommand(keyOf("ingressEnablePlus"), "false")}, or ${configSetCommand(KEYS.ingressImageName.key, `${NGINX_PLUS_REGISTRY}/nginx-ic/nginx-plus-ingress:${KIC_VERSION}`)}`,
        });
    }
    return {
        imageOrigin: origin,
        imageName,
        makeTarget,
        sourceUrl: srcUrl,
        source,
        version,
        alwaysRebuild: d("ingressAlwaysRebuild"),
        nginxRepo,
        // Read nowhere, it reaches nothing: no pull Secret entry, no license (checkUnusedNginxPlusKeys says so).
        nginxJwt: readsNginxJwt({ r, d }) ? secretOutput(r("nginxJwt")) : undefined,
    };
}

/**
 * The NGINX Plus repository certificate and key for a Plus source build: MARA's `kic:nginx_plus` paths (both
 * must name files), else the environment variables. The files are looked for only when a Plus image is built
 * from source: MARA's own example stack file names them while pulling a published image.
 */
function repoCredentials(
    { r, v, keyOf }: Lookup,
    findings: Findings,
    { kindOf, env, resolve }: { kindOf: (p: string) => PathKind; env: Readonly<Record<string, string | undefined>>; resolve: (p: string) => string },
    needed: boolean,
    makeTarget: string,
): NginxRepoCredentials | undefined {
    const keyPath = v("ingressNginxPlusKeyPath");
    const certPath = v("ingressNginxPlusCertPath");
    const files = { ingressNginxPlusCertPath: certPath === undefined ? "" : resolve(certPath), ingressNginxPlusKeyPath: keyPath === undefined ? "" : resolve(keyPath) };
    const keySet = r("ingressNginxPlusKeyPath").source !== undefined;
    const certSet = r("ingressNginxPlusCertPath").source !== undefined;
    // Kept for a Plus source build but not read now: named as not used (checkUnusedNginxPlusKeys), never checked.
    if (!needed) return undefined;
    if (keySet !== certSet) {
        const missing = keySet ? "ingressNginxPlusCertPath" : "ingressNginxPlusKeyPath";
        findings.problem({
            key: KEYS[missing].key,
            problem: "is not set, but its NGINX Plus partner is",
            allowed: "both the key and the certificate path, or neither",
            fix: configSetCommand(KEYS[missing].key, KEYS[missing].example ?? "<path>"),
        });
        return undefined;
    }
    if (keyPath !== undefined && certPath !== undefined) {
        let ok = true;
        for (const [id, file] of [["ingressNginxPlusCertPath", certPath], ["ingressNginxPlusKeyPath", keyPath]] as const) {
            const found = kindOf(files[id]);
            if (found !== "file") {
                ok = false;
                const resolved = files[id] === file ? "" : ` (${shownPath(files[id])})`;
                const download = `download it from MyF5, then ${configSetCommand(KEYS[id].key, id === "ingressNginxPlusCertPath" ? "<path of nginx-repo.crt>" : "<path of nginx-repo.key>")}`;
                findings.problem({
                    key: keyOf(id),
                    value: file,
                    problem:
                        found === undefined
                            ? `does not exist on this machine${files[id] === file ? "" : ` (looked for ${shownPath(files[id])})`}`
                            : found === "empty"
                              ? `names an empty file${resolved}, and the build needs the ${id === "ingressNginxPlusCertPath" ? "certificate" : "key"} in it (a download that failed, or a file not yet filled in)`
                              : found === "directory"
                                ? `is a directory${resolved}, not a file`
                                : `names a path${resolved} that ${found.unusable}`,
                    allowed: `the path of ${id === "ingressNginxPlusCertPath" ? "nginx-repo.crt" : "nginx-repo.key"}, downloaded from MyF5 (absolute, or relative to the project directory)`,
                    fix: typeof found === "object" && found.fix ? `${found.fix}; or ${download}` : download,
                });
            }
        }
        return ok ? { certificate: { file: files.ingressNginxPlusCertPath }, key: { file: files.ingressNginxPlusKeyPath } } : undefined;
    }
    if (env[NGINX_REPO_ENV.certificate] && env[NGINX_REPO_ENV.key]) {
        return { certificate: { env: NGINX_REPO_ENV.certificate }, key: { env: NGINX_REPO_ENV.key } };
    }
    findings.problem({
        key: keyOf("ingressMakeTarget"),
        value: makeTarget,
        problem: "builds NGINX Plus, which needs the NGINX Plus repository certificate and key, and neither their files nor the environment variables are set",
        allowed: `${KEYS.ingressNginxPlusCertPath.key} and ${KEYS.ingressNginxPlusKeyPath.key} (MARA's kic:nginx_plus fields kic:cert_path and kic:key_path) naming nginx-repo.crt and nginx-repo.key from MyF5, or the environment variables ${NGINX_REPO_ENV.certificate} and ${NGINX_REPO_ENV.key} holding them`,
        fix: `${configSetCommand(KEYS.ingressNginxPlusCertPath.key, "/etc/ssl/nginx/nginx-repo.crt")} && ${configSetCommand(KEYS.ingressNginxPlusKeyPath.key, "/etc/ssl/nginx/nginx-repo.key")}`,
    });
    return undefined;
}

/**
 * A source build pushes the image it builds: on Linode or an existing cluster whose infrastructure has no registry,
 * there is nowhere to push it unless the stack names a registry of its own (the mara:registry* keys).
 */
export function checkSourceBuildRegistry(
    kic: IngressControllerImageSettings,
    infra: { readonly type: string; readonly registry?: unknown } | undefined,
    { r, keyOf }: Pick<Lookup, "r" | "keyOf">,
    findings: Findings,
): void {
    const registryKeysSet = (["registryServer", "registryRepository", "registryUsername", "registryPassword"] as const).some((id) => r(id).source !== undefined);
    // Registry keys that are set but incomplete or refused have their own problem; the registry is then not "missing".
    if (kic.imageOrigin === "source" && (infra?.type === "linode" || infra?.type === "kubeconfig") && !infra.registry && !registryKeysSet) {
        findings.problem({
            key: keyOf("ingressImageOrigin"),
            value: "source",
            problem: `builds the image, but ${infra.type === "linode" ? "Linode" : "an existing cluster"} has no registry to push it to`,
            allowed: "registry (pull the published image), or source together with your own registry (mara:registryServer, mara:registryRepository, mara:registryUsername, mara:registryPassword)",
            fix: `${configSetCommand(keyOf("ingressImageOrigin"), "registry")}, or configure mara:registryServer and the other mara:registry* keys`,
        });
    }
}

// ---- The image against the chart -------------------------------------------------------------
// The chart renders command-line flags, and a controller older than one of them exits with "flag provided but not
// defined" until the Helm release times out (the range is data, in defaults.ts). Checked for the image
// pulled from a registry (its tag) and for a source build (the release its source names: a git tag, a tarball's
// name, `#<version>`).

/** Checks the controller image (or source release) against the ingress chart version. */
export function checkIngressControllerImage(kic: IngressControllerImageSettings, chartVersion: string, { r, keyOf }: Lookup, findings: Findings): void {
    // A chart version without recorded facts is reported by the chart-version check.
    const facts = KIC_CHARTS[chartVersion];
    if (!facts) return;
    const range = supportedImageRange(chartVersion)!;
    const allowed = `controller ${range.oldest} to ${range.newest} for nginx-ingress chart ${chartVersion}, such as ${facts.appVersion}`;
    if (kic.imageOrigin === "source") {
        const key = keyOf("ingressSrcUrl");
        const release = releaseAdvice(kic.sourceUrl, facts.appVersion);
        // The release the source names (a git tag, a tarball's name, a directory's #<version>).
        if (kic.version === undefined) {
            findings.warn(`${key} = ${kic.sourceUrl} names no release, so the controller built from it cannot be checked against nginx-ingress chart ${chartVersion} (controller ${range.oldest} to ${range.newest}); ${release.name}.`);
            return;
        }
        const why = kicImageProblem(chartVersion, kic.version);
        if (why) findings.problem({ key, value: kic.sourceUrl, problem: `builds a controller that does not run with the chart: ${why}`, allowed, fix: `build the v${facts.appVersion} release: ${release.set(key)}` });
        return;
    }
    const [repository, tag] = splitImageName(kic.imageName);
    if (tag.startsWith("sha256:")) {
        findings.warn(`The ingress controller image ${kic.imageName} is pinned by digest, so its version cannot be checked against nginx-ingress chart ${chartVersion}; make sure it is controller ${range.oldest} to ${range.newest}.`);
        return;
    }
    const why = kicImageProblem(chartVersion, tag);
    if (!why) return;
    // Name the key that chose the image: the image name, or MARA's repository and tag keys it was composed from.
    const key = r("ingressImageName").source ?? r("ingressImageTag").source ?? r("ingressImageRepository").source ?? keyOf("ingressImageName");
    const tagKey = key === r("ingressImageTag").source;
    findings.problem({
        key,
        value: tagKey ? tag : kic.imageName,
        problem: `is not an image the chart runs: ${why}`,
        allowed,
        fix: tagKey ? configSetCommand(key, facts.appVersion) : configSetCommand(key, `${repository}:${facts.appVersion}`),
    });
}

/** The official repository, whose tags are the controller's releases. */
const KIC_GIT = "https://github.com/nginx/kubernetes-ingress.git";

/**
 * How to name release `version` in source location `location`, in a form classifyKicSource accepts: a git URL or a
 * directory takes `#v<version>` (a git URL keeps its `:<subdir>`), while a tarball has no refs (a `#fragment` on it
 * is refused), so its release is named by the file or the build moves to the git repository at that tag.
 */
export function releaseAdvice(location: string, version: string): { value: string; name: string; set: (key: string) => string } {
    const classified = classifyKicSource(location);
    if ("source" in classified && classified.source.kind === "tarball") {
        const git = `${KIC_GIT}#v${version}`;
        return {
            value: git,
            name: `a tarball has no #ref, so name the release in its file name (…-v${version}.tar.gz), or build from git: ${configSetCommand(KEYS.ingressSrcUrl.key, git)}`,
            set: (key) => `${configSetCommand(key, git)} (a tarball names its release in its file name only)`,
        };
    }
    const [address, fragment = ""] = location.trim().split(/#(.*)/s);
    const subdir = fragment.includes(":") ? fragment.slice(fragment.indexOf(":")) : "";
    const named = `${address}#v${version}${subdir}`;
    return { value: named, name: `name the release, e.g. ${named}`, set: (key) => configSetCommand(key, named) };
}

// ---- Which controller images the pinned chart runs ----------------------------------------------
// From the flags each recorded chart version renders and the release that first defined each (defaults.ts).

/** The recorded chart versions' facts, for the chart version check (config/chartVersions.ts) and the render tier. */
export { FLAG_SINCE, KIC_CHARTS, type KicChartFacts } from "./defaults";

/** A controller version as numbers, from an image tag such as `5.5.4`, `v5.5.4` or `5.5.4-ubi`. */
export function controllerVersion(tag: string): [number, number, number] | undefined {
    const m = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(tag);
    return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

const cmp = (a: readonly number[], b: readonly number[]) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;

/** The flags in `flags` that the controller at `version` does not define (unknown flags count as undefined). */
export function flagsUndefinedBy(version: string, flags: readonly string[]): string[] {
    const v = controllerVersion(version);
    return flags.filter((f) => {
        const since = FLAG_SINCE[f];
        return !v || since === undefined || cmp(v, controllerVersion(since)!) < 0;
    });
}

/** The range of controller versions a chart version runs: from the newest flag it renders to its appVersion line. */
export function supportedImageRange(chartVersion: string): { oldest: string; newest: string } | undefined {
    const facts = KIC_CHARTS[chartVersion];
    if (!facts) return undefined;
    const oldest = facts.flags
        .map((f) => FLAG_SINCE[f]!)
        .reduce((a, b) => (cmp(controllerVersion(a)!, controllerVersion(b)!) >= 0 ? a : b));
    const [major, minor] = controllerVersion(facts.appVersion)!;
    return { oldest, newest: `${major}.${minor}.x` };
}

/**
 * Whether the controller image tag `tag` can run with nginx-ingress chart `chartVersion`: a reason when it
 * cannot (or cannot be told), undefined when it can.
 */
export function kicImageProblem(chartVersion: string, tag: string): string | undefined {
    const range = supportedImageRange(chartVersion);
    if (!range) return `nginx-ingress chart ${chartVersion} has no recorded controller compatibility (components/ingressController/defaults.ts knows ${Object.keys(KIC_CHARTS).join(", ")})`;
    const v = controllerVersion(tag);
    if (!v) return `image tag "${tag}" is not a controller version, so its compatibility with nginx-ingress chart ${chartVersion} (controller ${range.oldest} to ${range.newest}) cannot be checked`;
    const missing = flagsUndefinedBy(tag, KIC_CHARTS[chartVersion]!.flags);
    const [major, minor] = controllerVersion(KIC_CHARTS[chartVersion]!.appVersion)!;
    if (missing.length > 0 || v[0] !== major || v[1] > minor) {
        return `controller ${tag} is outside ${range.oldest} to ${range.newest}, the versions nginx-ingress chart ${chartVersion} runs` +
            (missing.length > 0 ? ` (it does not define ${missing.map((f) => `-${f}`).join(", ")})` : "");
    }
    return undefined;
}
