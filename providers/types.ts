/**
 * What every infrastructure provider returns, whatever the cloud: the one Kubernetes provider, the
 * cluster's credentials, its registry (if any) and the facts add-ons need about the platform.
 */
import type * as k8s from "@pulumi/kubernetes";
import type * as pulumi from "@pulumi/pulumi";
import type { RegistryCredentials } from "../components/ecr";
import type { InfraType, MaraConfig } from "../config";

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

/** Facts about the cluster that add-ons adapt to. */
export interface PlatformFacts {
    /** Container runtime of the nodes. */
    readonly containerRuntime: "containerd" | "docker";
    /**
     * Host directory where the kubelet exposes container logs (symlinks named
     * `<pod>_<namespace>_<container>-<id>.log`); a log agent mounts it and the directory it points into.
     */
    readonly containerLogPath: string;
    /** Host directory the log symlinks point into. */
    readonly podLogPath: string;
    /** Whether a LoadBalancer Service gets a host name (AWS) or only an IP address (DigitalOcean, Linode). */
    readonly loadBalancerAddress: "hostname" | "ip";
    /** Annotations a LoadBalancer Service needs on this platform. */
    readonly loadBalancerAnnotations: Readonly<Record<string, string>>;
    /** StorageClass for persistent volumes; undefined means the cluster's default. */
    readonly storageClass?: string;
    /**
     * How to provision the platform's own StorageClass, whose reclaim policy follows `mara:retainVolumes`
     * and whose volumes carry this cluster's tag (so destroy can find leftovers). None on existing clusters.
     */
    readonly storageProvisioner?: { readonly provisioner: string; readonly parameters: Readonly<Record<string, string>> };
}

/** The cluster, however it was created. */
export interface ClusterInfrastructure {
    /** Normalised infrastructure type. */
    readonly infraType: InfraType;
    /** Name of the Kubernetes cluster. */
    readonly clusterName: pulumi.Output<string>;
    /** Kubeconfig; secret. */
    readonly kubeconfig: pulumi.Output<string>;
    /** The Kubernetes provider every Kubernetes object must use. */
    readonly provider: k8s.Provider;
    /** Where the ingress controller image is pushed; undefined when the chart pulls it directly. */
    readonly registry?: ContainerRegistry;
    /** What add-ons need to know about the platform. */
    readonly platform: PlatformFacts;
    /** Provider-specific stack outputs (VPC ID, subnets, registry URL, ...), keyed by output name. */
    readonly outputs: Readonly<Record<string, pulumi.Output<unknown>>>;
    /**
     * Publishes the platform's host name in DNS pointing at the ingress load balancer, where the provider
     * manages DNS (DigitalOcean); elsewhere the user maps the name.
     */
    readonly publishHostname?: (fqdn: string, address: pulumi.Input<string>) => pulumi.Resource;
}

/** Builds the infrastructure for one infra type from validated config. */
export type InfrastructureFactory = (cfg: MaraConfig) => ClusterInfrastructure;
