/**
 * An example consumer of the mara-platform library: an EKS cluster in a VPC that already exists, with the
 * NGINX Ingress Controller and cert-manager on it. It uses only the package's public entry points
 * ("mara-platform", "mara-platform/config", "mara-platform/providers"), as any other project would.
 *
 * Pulumi calls the exported function and publishes what it returns as the stack's outputs; tests call it
 * under mocks (test/eksIngress.test.ts).
 */
import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import { CertManager, Eks, IngressController, Kubeconfig, splitImageName } from "mara-platform";
import { DEFAULT_KIC_IMAGE } from "mara-platform/config";
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
    const onCluster = { providers: [kubeconfig.provider] };

    const acmeEmail = config.get("acmeEmail");
    const certManager = new CertManager("cert-manager", acmeEmail ? { acme: { email: acmeEmail } } : {}, onCluster);

    // The public image straight from Docker Hub: no registry of our own, so no KicImage and no pull secret.
    const [imageRepository, imageTag] = splitImageName(config.get("kicImage") ?? DEFAULT_KIC_IMAGE);
    const ingress = new IngressController(
        "ingress-controller",
        {
            imageRepository,
            imageTag,
            // What the platform uses on EKS: a Network Load Balancer, which reports a host name.
            serviceAnnotations: { ...EKS_PLATFORM.loadBalancerAnnotations },
            loadBalancerAddress: EKS_PLATFORM.loadBalancerAddress,
        },
        onCluster,
    );

    return {
        clusterName: eks.clusterName,
        kubeconfig: kubeconfig.kubeconfig,
        loadBalancerHostname: ingress.loadBalancerHostname,
        ingressClass: ingress.ingressClassName,
        clusterIssuer: certManager.acmeIssuer ?? certManager.selfSignedIssuer,
    };
};
