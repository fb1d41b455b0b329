/**
 * An example consumer of the mara-platform library: an EKS cluster in a VPC that already exists, with the
 * whole MARA platform on it (NGINX Ingress Controller, cert-manager, logs, metrics, tracing) built from
 * literal arguments. It uses only the package's public entry points ("mara-platform" and
 * "mara-platform/providers"), as any other project would, and no MARA configuration object.
 *
 * Pulumi calls the exported function and publishes what it returns as the stack's outputs; tests call it
 * under mocks (test/eksIngress.test.ts).
 */
import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import { Eks, Kubeconfig, Platform } from "mara-platform";
import { EKS_PLATFORM } from "mara-platform/providers";

export = function eksIngress(): Record<string, pulumi.Input<unknown>> {
    const config = new pulumi.Config();
    const awsConfig = new pulumi.Config("aws");
    const profile = awsConfig.get("profile");

    // Default providers are disabled in Pulumi.yaml, so this provider is the only way to AWS. The library's
    // components never create providers: they take this one through `opts.providers`.
    const awsProvider = new aws.Provider("aws", { region: awsConfig.require("region") as aws.Region, profile });

    const eks = new Eks(
        "eks",
        {
            clusterName: config.get("clusterName") ?? `eks-ingress-${pulumi.getStack()}`,
            vpcId: config.require("vpcId"),
            publicSubnetIds: config.requireObject<string[]>("publicSubnetIds"),
            privateSubnetIds: config.requireObject<string[]>("privateSubnetIds"),
            // Written into the kubeconfig, so `aws eks get-token` uses the same credentials as the provider.
            profile,
        },
        { providers: [awsProvider] },
    );

    // The cluster's Kubernetes provider. It waits for the whole Eks component (node group included), so
    // nothing below is deployed to a cluster that has no nodes yet.
    const kubeconfig = new Kubeconfig("kubeconfig", { kubeconfig: eks.kubeconfig, clusterName: eks.clusterName, waitFor: [eks] });

    // The platform from literals. Every group is optional; what is left out takes the library's defaults.
    // No registry: the ingress controller pulls its image from Docker Hub, so no Docker provider is needed.
    const acmeEmail = config.get("acmeEmail");
    const platform = new Platform(
        "platform",
        {
            // What EKS gives add-ons: Network Load Balancers with host names, containerd log paths, EBS volumes.
            cluster: EKS_PLATFORM,
            ingressController: { replicas: 2 },
            certManager: acmeEmail ? { acme: { email: acmeEmail } } : {},
            logstore: { storageSize: "20Gi" },
            prometheus: { storageSize: "20Gi", dashboardStorageSize: "5Gi" },
            observability: { collectorVariant: "basic" },
        },
        { providers: [kubeconfig.provider] },
    );

    return {
        clusterName: eks.clusterName,
        kubeconfig: kubeconfig.kubeconfig,
        loadBalancerHostname: platform.ingressController.loadBalancerHostname,
        ingressClass: platform.ingressController.ingressClassName,
        clusterIssuer: platform.certManager.acmeIssuer ?? platform.certManager.selfSignedIssuer,
        grafanaAddress: platform.prometheus.grafanaAddress,
        grafanaAdminPassword: platform.secrets.grafanaAdminPassword,
    };
};
