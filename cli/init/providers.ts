/** What each infrastructure type is, as `mara list-providers` and the first-run prompt describe it. */
import type { InfraType } from "../../contracts";

/** One supported infrastructure type. */
export interface ProviderInfo {
    /** How MARA's runner and stack files spelled it (`kubernetes:infra_type`). */
    readonly maraName: string;
    /** Short title for menus. */
    readonly title: string;
    /** What `mara up` creates for it. */
    readonly creates: string;
    /** Where its credentials come from. */
    readonly credentials: string;
}

/** Every infra type, keyed by its canonical value; the type forces a row for each one. */
export const PROVIDERS: Readonly<Record<InfraType, ProviderInfo>> = {
    aws: {
        maraName: "AWS",
        title: "Amazon EKS",
        creates:
            "a VPC (public and private subnets per zone, NAT gateways), an EKS cluster with a managed node group and the EBS CSI driver, " +
            "an ECR repository the ingress controller image is copied into, then the platform and Bank of Sirius",
        credentials: "AWS_PROFILE or aws:profile, or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY; aws:region or AWS_REGION",
    },
    digitalocean: {
        maraName: "DO",
        title: "DigitalOcean Kubernetes (DOKS)",
        creates:
            "a DOKS cluster, a DigitalOcean container registry (DOCR) for the ingress controller image and a DNS record for kic-helm:fqdn, " +
            "then the platform and Bank of Sirius",
        credentials: "DIGITALOCEAN_TOKEN or digitalocean:token",
    },
    linode: {
        maraName: "LKE",
        title: "Linode Kubernetes Engine (LKE)",
        creates:
            "an LKE cluster, then the platform and Bank of Sirius; the ingress controller image goes to your own registry " +
            "(mara:registry*) or is pulled directly (MARA's Harbor VM is not needed)",
        credentials: "LINODE_TOKEN or linode:token",
    },
    kubeconfig: {
        maraName: "kubeconfig",
        title: "an existing cluster",
        creates: "no cloud resources: the platform and Bank of Sirius on the cluster that mara:kubeconfig (kubernetes:kubeconfig) points at",
        credentials: "the kubeconfig file named by mara:kubeconfig",
    },
};
