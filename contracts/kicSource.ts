/**
 * Where the NGINX Ingress Controller is built from, and what each make target of nginx/kubernetes-ingress
 * builds: read by the config validator (`mara validate`) and by IngressControllerImage, with the same rules and words.
 *
 * Make targets: the repository's Makefile (tag v5.5.4) runs `docker build --target <TARGET> -f build/Dockerfile`
 * with `--build-arg BUILD_OS=<os>` per image target, and for NGINX Plus targets adds
 * `--secret id=nginx-repo.crt,src=nginx-repo.crt --secret id=nginx-repo.key,src=nginx-repo.key`, the ids its
 * Dockerfile mounts (`RUN --mount=type=secret,id=nginx-repo.crt …`) to install NGINX Plus packages. The table
 * below holds those targets and their build arguments; every other build argument keeps the Dockerfile's default.
 */
import * as os from "os";
import * as path from "path";

/** What one make target builds. */
export interface MakeTargetSpec {
    /** The Dockerfile's `BUILD_OS` argument: the base stage of the image. */
    readonly buildOs: string;
    /** Whether it installs NGINX Plus, which needs the repository certificate and key as BuildKit secrets. */
    readonly plus: boolean;
    /** Further build arguments the Makefile sets for it (App Protect modules). */
    readonly args?: Readonly<Record<string, string>>;
}

/** The image targets of nginx/kubernetes-ingress that need no secret other than the NGINX Plus repository's. */
export const MAKE_TARGETS: Readonly<Record<string, MakeTargetSpec>> = {
    "debian-image": { buildOs: "debian", plus: false },
    "alpine-image": { buildOs: "alpine", plus: false },
    "ubi-image": { buildOs: "ubi", plus: false },
    "debian-image-plus": { buildOs: "debian-plus", plus: true },
    "debian-image-nap-plus": { buildOs: "debian-plus-nap", plus: true, args: { NAP_MODULES: "waf" } },
    "debian-image-nap-plus-agent": { buildOs: "debian-plus-nap-agent", plus: true, args: { NAP_MODULES: "waf" } },
    "debian-image-nap-v5-plus": { buildOs: "debian-plus-nap-v5", plus: true },
    "debian-image-nap-v5-plus-agent": { buildOs: "debian-plus-nap-v5-agent", plus: true },
    "debian-image-dos-plus": { buildOs: "debian-plus-nap-agent", plus: true, args: { NAP_MODULES: "dos" } },
    "debian-image-nap-dos-plus": { buildOs: "debian-plus-nap", plus: true, args: { NAP_MODULES: "waf,dos" } },
    "debian-image-nap-dos-plus-agent": { buildOs: "debian-plus-nap-agent", plus: true, args: { NAP_MODULES: "waf,dos" } },
    "alpine-image-plus": { buildOs: "alpine-plus", plus: true },
    "alpine-image-plus-fips": { buildOs: "alpine-plus-fips", plus: true },
    "alpine-image-nap-plus-fips": { buildOs: "alpine-plus-nap-fips", plus: true },
    "alpine-image-nap-plus-fips-agent": { buildOs: "alpine-plus-nap-fips-agent", plus: true },
    "alpine-image-nap-v5-plus-fips": { buildOs: "alpine-plus-nap-v5-fips", plus: true },
    "alpine-image-nap-v5-plus-fips-agent": { buildOs: "alpine-plus-nap-v5-fips-agent", plus: true },
    "ubi-image-plus": { buildOs: "ubi-10-plus", plus: true },
};

/**
 * MARA's targets that nginx/kubernetes-ingress no longer has, with the one that replaced them; the UBI App
 * Protect targets also need a Red Hat license secret (`rhel_license`), which this program does not pass.
 */
export const RETIRED_MAKE_TARGETS: Readonly<Record<string, string>> = {
    "openshift-image": "ubi-image",
    "openshift-image-plus": "ubi-image-plus",
    "openshift-image-nap-plus": "debian-image-nap-plus",
    "debian-image-opentracing": "debian-image",
    "debian-image-opentracing-plus": "debian-image-plus",
    "ubi-image-nap-plus": "debian-image-nap-plus",
    "ubi-image-nap-plus-agent": "debian-image-nap-plus-agent",
    "ubi-image-nap-v5-plus": "debian-image-nap-v5-plus",
    "ubi-image-nap-v5-plus-agent": "debian-image-nap-v5-plus-agent",
    "ubi-image-dos-plus": "debian-image-dos-plus",
    "ubi-image-nap-dos-plus": "debian-image-nap-dos-plus",
    "ubi-image-nap-dos-plus-agent": "debian-image-nap-dos-plus-agent",
};

/**
 * Where a BuildKit secret is read from when the image is built: a file on the machine running Pulumi, or an
 * environment variable of that machine's Pulumi process. Only the path or the variable's name is ever an
 * input; the provider reads the contents at build time, so they never reach the Pulumi state.
 */
export type BuildSecretSource = { readonly file: string } | { readonly env: string };

/**
 * Environment variables holding the NGINX Plus repository certificate and key, read when no files are configured.
 * CI secret stores and Pulumi ESC environments (`environmentVariables`) can set them.
 */
export const NGINX_REPO_ENV = { certificate: "NGINX_REPO_CRT", key: "NGINX_REPO_KEY" } as const;

/** The NGINX Plus repository certificate and key (nginx-repo.crt and nginx-repo.key from MyF5). */
export interface NginxRepoCredentials {
    /** The certificate, mounted as BuildKit secret `nginx-repo.crt`. */
    readonly certificate: BuildSecretSource;
    /** The private key, mounted as BuildKit secret `nginx-repo.key`. */
    readonly key: BuildSecretSource;
}

/** The Dockerfile stage every make target builds with `TARGET=container`: the controller is compiled inside Docker. */
export const KIC_BUILD_STAGE = "container";
/** The Dockerfile's path inside the kubernetes-ingress sources. */
export const KIC_DOCKERFILE = "build/Dockerfile";
/** The BuildKit secret ids the Dockerfile mounts for NGINX Plus: the repository certificate and key. */
export const NGINX_REPO_SECRET_IDS = { certificate: "nginx-repo.crt", key: "nginx-repo.key" } as const;

/** Why a make target cannot be built, or undefined when it can. */
export function makeTargetProblem(target: string): string | undefined {
    if (MAKE_TARGETS[target]) return undefined;
    const instead = RETIRED_MAKE_TARGETS[target];
    if (instead) {
        return target.startsWith("ubi-image-")
            ? `needs a Red Hat license secret (rhel_license) besides the NGINX Plus repository's, which this program does not pass; ${instead} builds the same controller on Debian`
            : `no longer exists in nginx/kubernetes-ingress; ${instead} replaced it`;
    }
    return `is not an image target of nginx/kubernetes-ingress`;
}

/** The tag suffix of a make target, as MARA named its alias tags: the target without `-image`. */
export function makeTargetTag(target: string): string {
    return target.replace("-image", "");
}

/** A build source, classified. */
export type KicSource =
    /** A git repository BuildKit clones: `url` as Docker takes it (`<repo>#<ref>[:<subdir>]`). */
    | { readonly kind: "git"; readonly url: string; readonly ref?: string }
    /** An https tarball BuildKit downloads and unpacks; its root must hold the sources. */
    | { readonly kind: "tarball"; readonly url: string }
    /** A directory on the machine running Pulumi, absolute; `ref` names the version it holds (never checked out). */
    | { readonly kind: "directory"; readonly path: string; readonly ref?: string };

/** How local paths are resolved: the home directory for `~`, the directory relative paths start from. */
export interface PathBase {
    /** Replaces a leading `~`. Default: the user's home directory. */
    readonly home?: string;
    /** Relative paths are resolved against it. Default: the working directory (the project's, under Pulumi). */
    readonly cwd?: string;
}

const TARBALL = /\.(tar\.gz|tgz|tar|tar\.bz2|tar\.xz)$/i;
/** GitHub's archive of a tag or branch: its files sit under one top-level directory, which BuildKit cannot strip. */
const GITHUB_ARCHIVE = /^https:\/\/github\.com\/([\w.-]+)\/([\w.-]+)\/archive\/(?:refs\/(?:tags|heads)\/)?(.+?)\.(?:tar\.gz|tgz|zip)$/;

/** Splits `x#fragment` at the first `#`. */
function splitFragment(url: string): [string, string | undefined] {
    const hash = url.indexOf("#");
    return hash < 0 ? [url, undefined] : [url.slice(0, hash), url.slice(hash + 1) || undefined];
}

/**
 * Classifies a source location the way MARA's `kic:src_url` took it, or says why it cannot be built:
 * - a git URL (`https://…/repo.git`, `ssh://…`, `git://…`, `git@host:org/repo.git`), `#<tag or branch>` optional;
 * - an https tarball (`…tar.gz`, `.tgz`, `.tar`, `.tar.bz2`, `.tar.xz`) whose root holds the sources; GitHub's
 *   `…/archive/refs/tags/<tag>.tar.gz` is built from the same tag with git instead (its files sit in a top-level
 *   directory that BuildKit cannot strip);
 * - a local directory: absolute, `~/…`, `./…`, `../…` or `file://…` (its %-escapes decoded, as in any file URL),
 *   with an optional `#<version>` naming the version it holds.
 */
export function classifyKicSource(location: string, base: PathBase = {}): { source: KicSource } | { problem: string } {
    const url = location.trim();
    const github = GITHUB_ARCHIVE.exec(url);
    if (github) return { source: { kind: "git", url: `https://github.com/${github[1]}/${github[2]}.git#${github[3]}`, ref: github[3] } };
    if (/^git@[\w.-]+:\S+$/.test(url) || /^(ssh|git):\/\/\S+$/.test(url)) {
        const [, ref] = splitFragment(url);
        return { source: { kind: "git", url, ref: ref?.split(":")[0] } };
    }
    if (/^https?:\/\//.test(url)) {
        if (url.startsWith("http://")) return { problem: "is a plain http URL; the sources are fetched over https only" };
        const [address, ref] = splitFragment(url);
        if (/\.git$/.test(address)) return { source: { kind: "git", url, ref: ref?.split(":")[0] } };
        if (TARBALL.test(address)) {
            if (ref !== undefined) return { problem: "is a tarball URL with a #fragment; a tarball has no refs (name the release in the file, or use the .git URL with #<tag>)" };
            return { source: { kind: "tarball", url } };
        }
        return { problem: "is neither a git repository (ending in .git) nor a tarball (ending in .tar.gz, .tgz, .tar, .tar.bz2 or .tar.xz)" };
    }
    const fileUrl = url.startsWith("file://");
    const local = fileUrl ? url.slice("file://".length) : url;
    if (isLocalPath(local)) {
        const [encoded, ref] = splitFragment(local);
        // A file URL writes a space as %20 (RFC 8089, as `url.pathToFileURL` writes it); a plain path is taken as it is.
        let dir = encoded;
        if (fileUrl) {
            try {
                dir = decodeURIComponent(encoded);
            } catch {
                return { problem: "is a file:// URL with a broken %-escape (a space is %20, a % itself %25)" };
            }
        }
        if (TARBALL.test(dir)) return { problem: "is a local tarball; Docker builds from a directory or a URL, so extract it and give the directory" };
        const home = base.home ?? os.homedir();
        const expanded = dir === "~" ? home : dir.startsWith("~/") ? path.join(home, dir.slice(2)) : dir;
        return { source: { kind: "directory", path: path.resolve(base.cwd ?? process.cwd(), expanded), ref } };
    }
    return { problem: "is not a git URL, an https tarball URL or a local directory" };
}

/**
 * Whether a location is written as a path on this machine: absolute (`/…`), in the home directory (`~`, `~/…`) or
 * relative (`.`, `./…`, `..`, `../…`). A bare name (`kubernetes-ingress`) or `~user/…` is not: neither Node.js
 * nor the Kubernetes client expands `~user`, and a bare name reads as a mistyped URL.
 */
export function isLocalPath(location: string): boolean {
    return /^(\/|~(\/|$)|\.{1,2}(\/|$))/.test(location);
}

/** What {@link classifyKicSource} accepts, in the words error messages use. */
export const KIC_SOURCE_ALLOWED =
    "a git URL (https://…/kubernetes-ingress.git#v5.5.4, ssh://…, git@host:org/repo.git#<ref>), an https tarball URL (…tar.gz) whose root holds the sources, or a local directory (/abs/path, ~/path, ./relative, file:///path, optionally #<version>)";

/** The controller version a source names (`v5.5.4` in a git ref, a tarball's file name or a directory's `#5.5.4`), or undefined. */
export function kicSourceVersion(source: KicSource): string | undefined {
    const text = source.kind === "tarball" ? path.posix.basename(source.url).replace(TARBALL, "") : source.ref;
    return text ? /(?:^|[^\d.])v?(\d+\.\d+\.\d+(?:-[\w.]+)?)$/.exec(text)?.[1] : undefined;
}
