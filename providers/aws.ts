/** The AWS path: VPC, EKS, ECR and the Kubernetes provider, all through one explicit AWS provider. */
import * as aws from "@pulumi/aws";
import { Ecr } from "../components/ecr";
import { Eks } from "../components/eks";
import { Vpc } from "../components/vpc";
import type { ClusterInfrastructure } from "../contracts";
import type { AwsInfraConfig, MaraConfig } from "../config";
import { connectCluster } from "./clusterAccess";
import { EKS_PLATFORM } from "./platformFacts";

/** Tags on every AWS resource, so the stack's resources can be found and attributed in the account. */
export function awsDefaultTags(cfg: MaraConfig): Record<string, string> {
    return { "mara:project": cfg.project, "mara:stack": cfg.stack, "mara:cluster": cfg.clusterName };
}

/** Creates the AWS infrastructure. */
export function createAwsInfrastructure(cfg: MaraConfig<AwsInfraConfig>): ClusterInfrastructure {
    const infra = cfg.infra;
    const provider = new aws.Provider("aws", {
        region: infra.region as aws.Region,
        profile: infra.profile,
        defaultTags: { tags: awsDefaultTags(cfg) },
    });
    const opts = { providers: [provider] };

    const vpc = new Vpc(
        "vpc",
        {
            clusterName: cfg.clusterName,
            cidrBlock: infra.vpc.cidr,
            availabilityZones: infra.vpc.availabilityZones ? [...infra.vpc.availabilityZones] : undefined,
            availabilityZoneCount: infra.vpc.availabilityZoneCount,
            natGateways: infra.vpc.natGateways,
        },
        opts,
    );
    const cluster = new Eks(
        "eks",
        {
            clusterName: cfg.clusterName,
            vpcId: vpc.vpcId,
            publicSubnetIds: vpc.publicSubnetIds,
            privateSubnetIds: vpc.privateSubnetIds,
            version: infra.eks.version,
            instanceType: infra.eks.instanceType,
            minSize: infra.eks.minSize,
            maxSize: infra.eks.maxSize,
            desiredSize: infra.eks.desiredSize,
            profile: infra.profile,
        },
        opts,
    );
    const ecr = new Ecr("ecr", { repositoryName: infra.ecr.repositoryName, imageRetention: infra.ecr.imageRetention }, opts);
    return connectCluster(
        cfg.teardown,
        {
            clusterName: cluster.clusterName,
            kubeconfig: cluster.kubeconfig,
            cloud: { kind: "aws", region: infra.region, profile: infra.profile, vpcId: vpc.vpcId },
            cluster,
            network: [vpc],
        },
        {
            infraType: "aws",
            registry: { kind: "ecr", repositoryUrl: ecr.repositoryUrl, credentials: ecr.credentials, needsPullSecret: false },
            platform: EKS_PLATFORM,
            outputs: {
                vpc_id: vpc.vpcId,
                public_subnet_ids: vpc.publicSubnetIds,
                private_subnet_ids: vpc.privateSubnetIds,
                azs: vpc.availabilityZones,
                registry_id: ecr.registryId,
                oidc_provider_arn: cluster.oidcProviderArn,
            },
        },
    );
}
