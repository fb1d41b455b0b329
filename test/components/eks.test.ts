import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { Eks, validateEksArgs } from "../../components";
import { awsProvider, providerRef } from "../support/aws";
import { find, installMocks, promiseOf, Registration, settle } from "../support/mocks";

describe("Eks", () => {
    let regs: Registration[];
    let cluster: Eks;
    let provider: string;

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        const aws = awsProvider();
        cluster = new Eks(
            "eks",
            {
                clusterName: "mara-test",
                vpcId: "vpc-1",
                publicSubnetIds: ["pub-a", "pub-b"],
                privateSubnetIds: ["priv-a", "priv-b"],
                instanceType: "m6i.large",
                minSize: 2,
                maxSize: 5,
                desiredSize: 4,
                profile: "ops",
            },
            { providers: [aws] },
        );
        await settle();
        provider = await providerRef(aws);
    });

    it("creates the cluster with OIDC, access entries, both subnet sets and no default node group", () => {
        expect(find(regs, "eks:index:Cluster", "eks-cluster").inputs).toMatchObject({
            name: "mara-test",
            version: "1.35",
            vpcId: "vpc-1",
            publicSubnetIds: ["pub-a", "pub-b"],
            privateSubnetIds: ["priv-a", "priv-b"],
            skipDefaultNodeGroup: true,
            createOidcProvider: true,
            authenticationMode: "API",
            nodeAssociatePublicIpAddress: false,
        });
    });

    it("encrypts Kubernetes Secrets with a rotated KMS key of its own", () => {
        const key = find(regs, "aws:kms/key:Key", "eks-secrets");
        expect(key.inputs).toMatchObject({ enableKeyRotation: true, deletionWindowInDays: 7 });
        expect(key.parent).toBe(find(regs, "mara:infra:Eks", "eks").urn);
        expect(find(regs, "eks:index:Cluster", "eks-cluster").inputs!.encryptionConfigKeyArn).toMatch(/^arn:aws:kms:us-east-1:\d{12}:key\//);
    });

    it("writes the AWS profile into the generated kubeconfig", () => {
        expect(find(regs, "eks:index:Cluster", "eks-cluster").inputs!.providerCredentialOpts).toEqual({ profileName: "ops" });
    });

    it("sizes a managed node group in the private subnets", () => {
        expect(find(regs, "eks:index:ManagedNodeGroup", "eks-nodes").inputs).toMatchObject({
            instanceTypes: ["m6i.large"],
            scalingConfig: { minSize: 2, maxSize: 5, desiredSize: 4 },
            subnetIds: ["priv-a", "priv-b"],
        });
    });

    it("hands the explicit AWS provider to the multi-language eks components", () => {
        expect(find(regs, "eks:index:Cluster", "eks-cluster").providers).toEqual({ aws: provider });
        expect(find(regs, "eks:index:ManagedNodeGroup", "eks-nodes").providers).toEqual({ aws: provider });
        for (const r of regs.filter((x) => x.custom && x.type.startsWith("aws:"))) expect(r.provider, r.name).toBe(provider);
    });

    it("gives the worker nodes the three policies they need", () => {
        const attached = regs.filter((r) => r.type === "aws:iam/rolePolicyAttachment:RolePolicyAttachment" && r.name.startsWith("eks-node-"));
        expect(attached.map((r) => r.inputs!.policyArn).sort()).toEqual([
            "arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly",
            "arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy",
            "arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy",
        ]);
    });

    it("installs the EBS CSI driver with an IAM role only its service account can assume, after the nodes exist", () => {
        const addon = find(regs, "aws:eks/addon:Addon", "eks-ebs-csi");
        expect(addon.inputs).toMatchObject({ clusterName: "mara-test", addonName: "aws-ebs-csi-driver", serviceAccountRoleArn: "arn:aws:iam::123456789012:role/eks-ebs-csi" });
        expect(addon.dependencies).toContain(find(regs, "eks:index:ManagedNodeGroup", "eks-nodes").urn);
        const trust = JSON.parse(find(regs, "aws:iam/role:Role", "eks-ebs-csi").inputs!.assumeRolePolicy as string);
        expect(trust.Statement[0].Principal.Federated).toBe("arn:aws:iam::123456789012:oidc-provider/oidc.eks.us-east-1.amazonaws.com/id/EXAMPLE");
        expect(trust.Statement[0].Condition.StringEquals).toEqual({
            "oidc.eks.us-east-1.amazonaws.com/id/EXAMPLE:sub": "system:serviceaccount:kube-system:ebs-csi-controller-sa",
            "oidc.eks.us-east-1.amazonaws.com/id/EXAMPLE:aud": "sts.amazonaws.com",
        });
        expect(find(regs, "aws:iam/rolePolicyAttachment:RolePolicyAttachment", "eks-ebs-csi").inputs!.policyArn).toBe(
            "arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy",
        );
    });

    it("exports the kubeconfig as a secret", async () => {
        expect(await pulumi.isSecret(cluster.kubeconfig)).toBe(true);
        expect(JSON.parse(await promiseOf(cluster.kubeconfig)).clusters[0].name).toBe("mara-test");
        expect(await promiseOf(cluster.clusterName)).toBe("mara-test");
    });
});

describe("Eks argument checks", () => {
    const base = { clusterName: "c", minSize: 3, maxSize: 12, desiredSize: 3, version: "1.35" };
    it.each([
        [{ minSize: 5, maxSize: 2, desiredSize: 3 }, "Eks: minSize (5) is greater than maxSize (2)."],
        [{ desiredSize: 20 }, "Eks: desiredSize (20) must be within [minSize, maxSize] = [3, 12]."],
        [{ minSize: 1.5 }, "Eks: minSize must be a whole number of nodes, got 1.5."],
        [{ maxSize: 0, minSize: 0, desiredSize: 0 }, "Eks: maxSize must be at least 1; the platform needs nodes to run on."],
        [{ version: "v1.35" }, 'Eks: version "v1.35" is not a Kubernetes minor version such as "1.35".'],
        [{ clusterName: "-bad" }, 'Eks: clusterName "-bad" is not a valid EKS name (letters, digits, \'-\' and \'_\', at most 100).'],
    ])("rejects %j", (override, message) => {
        expect(() => validateEksArgs({ ...base, ...override })).toThrow(message);
    });

    it("fails in the constructor before creating anything", async () => {
        const { registrations } = await installMocks();
        expect(() => new Eks("bad", { clusterName: "c", vpcId: "v", publicSubnetIds: [], privateSubnetIds: [], minSize: 4, maxSize: 2 })).toThrow(
            "Eks: minSize (4) is greater than maxSize (2).",
        );
        await settle();
        expect(registrations.filter((r) => r.custom || r.type.startsWith("eks:"))).toEqual([]);
    });
});

describe("Eks with a Secrets key of the user's", () => {
    it("uses that key and creates none", async () => {
        const { registrations } = await installMocks();
        new Eks(
            "eks",
            { clusterName: "mara-test", vpcId: "vpc-1", publicSubnetIds: ["a", "b"], privateSubnetIds: ["c", "d"], secretsKeyArn: "arn:aws:kms:us-east-1:111122223333:key/mine" },
            { providers: [awsProvider()] },
        );
        await settle();
        expect(registrations.filter((r) => r.type === "aws:kms/key:Key")).toEqual([]);
        expect(find(registrations, "eks:index:Cluster", "eks-cluster").inputs!.encryptionConfigKeyArn).toBe("arn:aws:kms:us-east-1:111122223333:key/mine");
    });
});
