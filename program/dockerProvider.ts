/** The Docker engine the program pulls, builds and pushes the ingress controller image with. */
import type * as docker from "@pulumi/docker";
import * as pulumi from "@pulumi/pulumi";
import type { ContainerRegistry } from "../contracts";

/** NGINX's registry for NGINX Plus images: the JWT from MyF5 is the user name, and any password is accepted. */
export const NGINX_PLUS_REGISTRY = "private-registry.nginx.com";

/**
 * The credentials each registry gets, as the Docker provider's `registryAuth`: the cluster's registry (ECR's
 * 12-hour token, DigitalOcean's API token, or the configured registry's user and password), used to push and
 * to read back the pushed digest; and, with a JWT, NGINX's private registry, used to pull NGINX Plus images.
 * Every entry is secret, so none of them is stored in plain text or shown in a preview. The Docker provider
 * keys them by registry host, so `docker login` is never needed.
 */
export function registryAuth(registry: ContainerRegistry, nginxJwt: pulumi.Output<string> | undefined): pulumi.Output<docker.types.input.ProviderRegistryAuth[]> {
    return pulumi.secret(
        pulumi.all([registry.credentials, nginxJwt]).apply(([c, jwt]) => [
            { address: c.server, username: c.username, password: c.password },
            ...(jwt ? [{ address: NGINX_PLUS_REGISTRY, username: jwt, password: "none" }] : []),
        ]),
    );
}

/**
 * The Docker provider for the image: the local daemon (DOCKER_HOST, or the current Docker context), which pulls
 * or builds the image and pushes it with the credentials of {@link registryAuth}.
 */
export function dockerProvider(registry: ContainerRegistry, nginxJwt: pulumi.Output<string> | undefined): docker.Provider {
    // Loaded only where an image is pushed: existing clusters and Linode without a registry never need it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Provider } = require("@pulumi/docker") as typeof import("@pulumi/docker");
    return new Provider("docker", { registryAuth: registryAuth(registry, nginxJwt) });
}
