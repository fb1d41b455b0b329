/**
 * What every infrastructure provider returns, whatever the cloud, and what the platform's add-ons need
 * to know about the cluster they run on. Providers produce these values; components and the program
 * consume them; neither side owns them.
 */
import type * as k8s from "@pulumi/kubernetes";
import type * as pulumi from "@pulumi/pulumi";
import type { ContainerRegistry } from "./registry";

/** The infrastructure types, as `mara:infraType` (`kubernetes:infra_type`) names them after normalisation. */
export const INFRA_TYPES = ["aws", "digitalocean", "linode", "kubeconfig"] as const;
/** One of {@link INFRA_TYPES}. */
export type InfraType = (typeof INFRA_TYPES)[number];

/**
 * The infrastructure types whose provider publishes the platform's host name (`mara:fqdn`) in the cloud's DNS, as an
 * A record in the domain the name is in ({@link ClusterInfrastructure.publishHostname}); on the others the user maps
 * every name. Validation reads it to tell which names the platform points at the load balancer.
 */
export const DNS_PUBLISHING_INFRA_TYPES: readonly InfraType[] = ["digitalocean"];

/**
 * Which cluster components outside the platform Prometheus can scrape. kube-prometheus-stack scrapes all four
 * and alerts when one is down ("target down" from day one), but a managed control plane (EKS, DOKS, LKE) runs
 * the controller manager, scheduler and etcd out of the cluster's reach, and kube-proxy binds its metrics to
 * 127.0.0.1 by default (EKS's add-on and kubeadm alike; DOKS replaces kube-proxy with Cilium).
 */
export interface ControlPlaneMetrics {
    /** kube-controller-manager's metrics are reachable from inside the cluster. */
    readonly controllerManager: boolean;
    /** kube-scheduler's metrics are reachable from inside the cluster. */
    readonly scheduler: boolean;
    /** etcd's metrics are reachable from inside the cluster. */
    readonly etcd: boolean;
    /** kube-proxy runs on the nodes and serves its metrics on an address Prometheus reaches. */
    readonly kubeProxy: boolean;
}

/** A control plane that exposes none of them: every managed one, and a kubeadm cluster with its default bind addresses. */
export const UNREACHABLE_CONTROL_PLANE: ControlPlaneMetrics = { controllerManager: false, scheduler: false, etcd: false, kubeProxy: false };

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
    /** What of the control plane Prometheus can scrape; undefined means none of it ({@link UNREACHABLE_CONTROL_PLANE}). */
    readonly controlPlaneMetrics?: ControlPlaneMetrics;
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
    readonly publishHostname?: (fqdn: string, address: pulumi.Input<string>, opts?: pulumi.ComponentResourceOptions) => pulumi.Resource;
}
