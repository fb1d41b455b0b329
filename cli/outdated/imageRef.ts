/**
 * Splits an image reference the way Docker and containerd read it: the first path component is a
 * registry host only when it has a dot or a port or is `localhost`; otherwise the image is on Docker
 * Hub, whose one-word names live under `library/`.
 */

/** Docker Hub's name in image references, and the host its registry API answers on. */
export const DOCKER_HUB = "docker.io";
const DOCKER_HUB_API = "registry-1.docker.io";

/** An image reference, split. */
export interface ImageRef {
    /** Registry host as users write it (`docker.io` for Docker Hub). */
    readonly registry: string;
    /** Repository within the registry, e.g. `nginx/nginx-ingress` or `library/postgres`. */
    readonly repository: string;
    /** The tag, when the reference has one. */
    readonly tag?: string;
    /** The digest (`sha256:…`), when the reference pins one. */
    readonly digest?: string;
}

/**
 * Splits `[registry/]repository[:tag][@digest]`.
 *
 * @param reference - e.g. `nginx/nginx-ingress:5.5.4` or `ghcr.io/nginxinc/bos-frontend:v1.3.0`.
 * @throws Error naming the reference when it has no repository.
 */
export function parseImageRef(reference: string): ImageRef {
    let rest = reference.trim();
    let digest: string | undefined;
    const at = rest.indexOf("@");
    if (at >= 0) {
        digest = rest.slice(at + 1);
        rest = rest.slice(0, at);
    }
    let tag: string | undefined;
    const colon = rest.lastIndexOf(":");
    if (colon > rest.lastIndexOf("/")) {
        tag = rest.slice(colon + 1);
        rest = rest.slice(0, colon);
    }
    const slash = rest.indexOf("/");
    const first = slash >= 0 ? rest.slice(0, slash) : "";
    const isHost = first.includes(".") || first.includes(":") || first === "localhost";
    const registry = isHost ? first : DOCKER_HUB;
    let repository = isHost ? rest.slice(slash + 1) : rest;
    if (repository === "") throw new Error(`image reference "${reference}" names no repository`);
    if (registry === DOCKER_HUB && !repository.includes("/")) repository = `library/${repository}`;
    return { registry, repository, tag, digest };
}

/** The image's name as users write it, without tag: `nginx/nginx-ingress`, `ghcr.io/nginxinc/bos-frontend`. */
export function displayName(ref: ImageRef): string {
    if (ref.registry !== DOCKER_HUB) return `${ref.registry}/${ref.repository}`;
    return ref.repository.startsWith("library/") ? ref.repository.slice("library/".length) : ref.repository;
}

/** The base URL of a registry's API (`/v2/...` is appended): HTTPS, and Docker Hub's API host for docker.io. */
export function registryApiBase(registry: string): string {
    return `https://${registry === DOCKER_HUB ? DOCKER_HUB_API : registry}`;
}
