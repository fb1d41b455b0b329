/** The Docker engine the program pushes the ingress controller image with. */
import type * as docker from "@pulumi/docker";
import type * as pulumi from "@pulumi/pulumi";

/**
 * The Docker engine that pulls or builds the ingress controller image and pushes it. It uses the local
 * daemon (DOCKER_HOST); with a JWT it can also pull NGINX Plus images from NGINX's private registry.
 */
export function dockerProvider(nginxJwt: pulumi.Output<string> | undefined): docker.Provider {
    // Loaded only where an image is pushed: existing clusters and Linode without a registry never need it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Provider } = require("@pulumi/docker") as typeof import("@pulumi/docker");
    return new Provider("docker", {
        registryAuth: nginxJwt ? [{ address: "private-registry.nginx.com", username: nginxJwt, password: "none" }] : undefined,
    });
}
