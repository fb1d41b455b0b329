/** What a container registry hands to the components that push to it and pull from it. */
import type * as pulumi from "@pulumi/pulumi";

/** Credentials for `docker login` to a registry. */
export interface RegistryCredentials {
    /** Registry host, e.g. `123456789012.dkr.ecr.us-east-1.amazonaws.com`. */
    readonly server: string;
    /** User name for `docker login` (`AWS` for ECR). */
    readonly username: string;
    /** Password or token; secret. ECR tokens expire after 12 hours, so they are fetched on every run. */
    readonly password: string;
}

/** A container registry the platform pushes the ingress controller image to. */
export interface ContainerRegistry {
    /** Which registry service this is. */
    readonly kind: "ecr" | "docr" | "external";
    /** Repository to push the ingress controller image to, without a tag. */
    readonly repositoryUrl: pulumi.Output<string>;
    /** Push credentials and registry host; secret. */
    readonly credentials: pulumi.Output<RegistryCredentials>;
    /** Credentials pods pull with, when they differ from the push credentials (read-only ones); secret. */
    readonly pullCredentials?: pulumi.Output<RegistryCredentials>;
    /** Whether pods need an image pull secret to pull from it (EKS nodes pull from ECR through their IAM role). */
    readonly needsPullSecret: boolean;
}
