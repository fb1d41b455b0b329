/** What add-ons need to know about each kind of cluster. */
import { PlatformFacts, UNREACHABLE_CONTROL_PLANE } from "../contracts";

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
    // AWS runs the control plane; the kube-proxy add-on binds its metrics to 127.0.0.1 (and resets any change).
    controlPlaneMetrics: UNREACHABLE_CONTROL_PLANE,
};

/** DOKS: load balancers with an IP only; `do-block-storage` deletes volumes with their claims. */
export function doksPlatform(clusterName: string): PlatformFacts {
    return {
        ...CRI_LOGS,
        loadBalancerAddress: "ip",
        loadBalancerAnnotations: { "service.beta.kubernetes.io/do-loadbalancer-name": `${clusterName}-ingress` },
        storageClass: "do-block-storage",
        storageProvisioner: { provisioner: "dobs.csi.digitalocean.com", parameters: {} },
        // DigitalOcean runs the control plane; Cilium replaces kube-proxy.
        controlPlaneMetrics: UNREACHABLE_CONTROL_PLANE,
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
        // Akamai runs the control plane; kube-proxy keeps its default metrics address, 127.0.0.1.
        controlPlaneMetrics: UNREACHABLE_CONTROL_PLANE,
    };
}

/**
 * An existing cluster: CRI log paths, an IP or nothing from its load balancer, its default StorageClass. Its
 * control plane is assumed out of reach, as kubeadm's defaults leave it (127.0.0.1 bind addresses); a library
 * user whose cluster exposes it passes facts saying so.
 */
export const EXISTING_CLUSTER_PLATFORM: PlatformFacts = { ...CRI_LOGS, loadBalancerAddress: "ip", loadBalancerAnnotations: {}, controlPlaneMetrics: UNREACHABLE_CONTROL_PLANE };
