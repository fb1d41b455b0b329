/** The user's own OCI registry (GHCR, Docker Hub, Quay, a company Harbor...) as the platform's registry. */
import * as pulumi from "@pulumi/pulumi";
import type { ContainerRegistry } from "../contracts";
import type { ExternalRegistryConfig } from "../config";

/** The registry the ingress controller image is pushed to, when one is configured. */
export function externalRegistry(r: ExternalRegistryConfig | undefined): ContainerRegistry | undefined {
    if (!r) return undefined;
    return {
        kind: "external",
        repositoryUrl: pulumi.output(`${r.server}/${r.repository}`),
        credentials: pulumi.secret(r.password.apply((password) => ({ server: r.server, username: r.username, password }))),
        needsPullSecret: true,
    };
}
