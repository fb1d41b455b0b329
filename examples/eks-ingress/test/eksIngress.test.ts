/**
 * The example program under Pulumi mocks: no CLI, cloud or cluster. It checks what matters when the
 * library's components are wired by hand: every resource reaches the right provider, the platform's
 * add-ons wait for the cluster and for each other, and the literal arguments reach the add-ons.
 */
import { beforeAll, describe, expect, it } from "vitest";
import eksIngress from "../index";
import { find, installMocks, promiseOf, providerRef, type Registration, settle } from "mara-platform/testing";
import * as pulumi from "@pulumi/pulumi";

const CONFIG = {
    "aws:region": "eu-west-1",
    "eks-ingress:vpcId": "vpc-0a1b2c3d",
    "eks-ingress:publicSubnetIds": JSON.stringify(["subnet-pub-a", "subnet-pub-b"]),
    "eks-ingress:privateSubnetIds": JSON.stringify(["subnet-priv-a", "subnet-priv-b"]),
    "eks-ingress:acmeEmail": "ops@example.com",
};

describe("eks-ingress example", () => {
    let regs: Registration[];
    let outputs: Record<string, pulumi.Input<unknown>>;
    let awsRef: string;
    let k8sRef: string;

    beforeAll(async () => {
        regs = (await installMocks({ config: CONFIG, project: "eks-ingress", stack: "test" })).registrations;
        outputs = eksIngress();
        await settle();
        awsRef = providerRef(find(regs, "pulumi:providers:aws", "aws"));
        k8sRef = providerRef(find(regs, "pulumi:providers:kubernetes", "kubeconfig-provider"));
    });

    it("builds EKS in the configured VPC and subnets", () => {
        expect(find(regs, "pulumi:providers:aws", "aws").inputs).toMatchObject({ region: "eu-west-1" });
        expect(find(regs, "eks:index:Cluster", "eks-cluster").inputs).toMatchObject({
            name: "eks-ingress-test",
            vpcId: "vpc-0a1b2c3d",
            publicSubnetIds: ["subnet-pub-a", "subnet-pub-b"],
            privateSubnetIds: ["subnet-priv-a", "subnet-priv-b"],
        });
    });

    it("hands the explicit AWS provider to eks and to every AWS resource", () => {
        // eks.Cluster and ManagedNodeGroup are built by the eks plugin, which gets the AWS provider in its providers map.
        expect(find(regs, "eks:index:Cluster", "eks-cluster").providers).toEqual({ aws: awsRef });
        expect(find(regs, "eks:index:ManagedNodeGroup", "eks-nodes").providers).toEqual({ aws: awsRef });
        const awsResources = regs.filter((r) => r.custom && r.type.startsWith("aws:"));
        expect(awsResources.length).toBeGreaterThan(3);
        for (const r of awsResources) expect(r.provider, r.name).toBe(awsRef);
    });

    it("builds the whole platform from literals, every add-on named after it", () => {
        const addOns = regs.filter((r) => r.parent === find(regs, "mara:platform:Platform", "platform").urn).map((r) => r.name);
        expect(addOns).toEqual(
            expect.arrayContaining([
                "platform-secrets",
                "platform-cert-manager",
                "platform-ingress-controller",
                "platform-logstore",
                "platform-log-agent",
                "platform-prometheus",
                "platform-observability",
                "platform-storage-class",
            ]),
        );
        // No registry was given, so no image is copied and no Docker provider is needed.
        expect(regs.filter((r) => r.type === "mara:registry:IngressControllerImage" || r.type === "pulumi:providers:docker")).toEqual([]);
    });

    it("deploys the platform through the new cluster's Kubernetes provider only", () => {
        const onCluster = regs.filter((r) => r.custom && r.type.startsWith("kubernetes:"));
        expect(onCluster.length).toBeGreaterThan(20);
        for (const r of onCluster) expect(r.provider, r.name).toBe(k8sRef);
    });

    it("makes the Kubernetes provider wait for the node group, and the issuers for cert-manager", () => {
        expect(find(regs, "pulumi:providers:kubernetes", "kubeconfig-provider").dependencies).toContain(find(regs, "eks:index:ManagedNodeGroup", "eks-nodes").urn);
        const release = find(regs, "kubernetes:helm.sh/v3:Release", "platform-cert-manager-release").urn;
        expect(find(regs, "kubernetes:cert-manager.io/v1:ClusterIssuer", "platform-cert-manager-acme").dependencies).toContain(release);
    });

    it("passes the literal arguments to the add-ons", () => {
        expect(find(regs, "kubernetes:helm.sh/v3:Release", "platform-ingress-controller-release").inputs).toMatchObject({ values: { controller: { replicaCount: 2 } } });
        expect(find(regs, "kubernetes:helm.sh/v3:Release", "platform-prometheus-release").inputs).toMatchObject({
            values: { prometheus: { prometheusSpec: { storageSpec: { volumeClaimTemplate: { spec: { resources: { requests: { storage: "20Gi" } } } } } } } },
        });
        // EKS facts: the platform's own StorageClass on the EBS CSI driver.
        expect(find(regs, "kubernetes:storage.k8s.io/v1:StorageClass", "platform-storage-class").inputs).toMatchObject({ provisioner: "ebs.csi.aws.com" });
    });

    it("exposes the load balancer through an NLB and reports the ACME issuer", async () => {
        expect(find(regs, "kubernetes:core/v1:Service", "platform-ingress-controller-service").inputs).toMatchObject({
            metadata: { annotations: { "service.beta.kubernetes.io/aws-load-balancer-type": "nlb" } },
            spec: { type: "LoadBalancer" },
        });
        // The host name the simulated cloud gives an AWS load balancer.
        expect(await promiseOf(pulumi.output(outputs.loadBalancerHostname))).toMatch(/^[a-z0-9-]+\.elb\.[a-z0-9-]+\.amazonaws\.com$/);
        expect(await promiseOf(pulumi.output(outputs.clusterIssuer))).toBe("letsencrypt");
        expect(await pulumi.isSecret(pulumi.output(outputs.kubeconfig))).toBe(true);
        expect(await pulumi.isSecret(pulumi.output(outputs.grafanaAdminPassword))).toBe(true);
    });
});
