/** What add-ons need to know about each kind of cluster. */
import type { PlatformFacts } from "../contracts";

/** Every supported distribution runs a CRI runtime whose kubelet links container logs here. */
const CRI_LOGS = { containerRuntime: "containerd", containerLogPath: "/var/log/containers", podLogPath: "/var/log/pods" } as const;

/** EKS: containerd nodes, Network Load Balancers with host names, gp3 volumes from the EBS CSI driver. */
export const EKS_PLATFORM: PlatformFacts = {
    ...CRI_LOGS,
    loadBalancerAddress: "hostname",
    // Network Load Balancers, not the Classic ELBs the in-tree controller makes by default.
    loadBalancerAnnotations: { "service.beta.kubernetes.io/aws-load-balancer-type": "nlb" },
    storageClass: "gp2",
    // The driver tags volumes kubernetes.io/cluster/<name> (its k8sTagClusterId setting, see Eks).
    storageProvisioner: { provisioner: "ebs.csi.aws.com", parameters: { type: "gp3", encrypted: "true" } },
};

/** DOKS: load balancers with an IP only; `do-block-storage` deletes volumes with their claims. */
export function doksPlatform(clusterName: string): PlatformFacts {
    return {
        ...CRI_LOGS,
        loadBalancerAddress: "ip",
        loadBalancerAnnotations: { "service.beta.kubernetes.io/do-loadbalancer-name": `${clusterName}-ingress` },
        storageClass: "do-block-storage",
        storageProvisioner: { provisioner: "dobs.csi.digitalocean.com", parameters: {} },
    };
}

/**
 * LKE: NodeBalancers with an IP only, tagged with the cluster so they can be found at destroy time;
 * `linode-block-storage` deletes volumes with their claims (LKE's default class retains them).
 */
export function lkePlatform(clusterName: string): PlatformFacts {
    return {
        ...CRI_LOGS,
        loadBalancerAddress: "ip",
        loadBalancerAnnotations: { "service.beta.kubernetes.io/linode-loadbalancer-tags": `mara-cluster-${clusterName}` },
        storageClass: "linode-block-storage",
        storageProvisioner: { provisioner: "linodebs.csi.linode.com", parameters: { "linodebs.csi.linode.com/volumeTags": `mara-cluster-${clusterName}` } },
    };
}

/** An existing cluster: CRI log paths, an IP or nothing from its load balancer, its default StorageClass. */
export const EXISTING_CLUSTER_PLATFORM: PlatformFacts = { ...CRI_LOGS, loadBalancerAddress: "ip", loadBalancerAnnotations: {} };
