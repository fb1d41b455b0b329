import * as aws from "@pulumi/aws";
import * as eks from "@pulumi/eks";
import * as pulumi from "@pulumi/pulumi";
import { DEFAULTS, defaultDesiredSize, PATTERNS, requireMatch, withDefaults } from "../contracts";

/** Arguments of {@link Eks}. */
export interface EksArgs {
    /** EKS cluster name (1–100 characters; letters, digits, '-' and '_'). Required. */
    clusterName: string;
    /** VPC the cluster runs in. Required. */
    vpcId: pulumi.Input<string>;
    /** Public subnets, for internet-facing load balancers. Required, at least two zones. */
    publicSubnetIds: pulumi.Input<pulumi.Input<string>[]>;
    /** Private subnets, for the worker nodes and internal load balancers. Required, at least two zones. */
    privateSubnetIds: pulumi.Input<pulumi.Input<string>[]>;
    /** Kubernetes minor version of the control plane and nodes, e.g. "1.35". Default `1.35`. */
    version?: string;
    /** EC2 instance type of the managed node group. Default `t3.large`. */
    instanceType?: string;
    /** Minimum number of nodes. Default 3. Must not exceed `maxSize`. */
    minSize?: number;
    /** Maximum number of nodes. Default 12. */
    maxSize?: number;
    /** Nodes to start with, within [minSize, maxSize]. Default 3 (clamped into the range). */
    desiredSize?: number;
    /**
     * AWS CLI profile written into the generated kubeconfig, so `kubectl` and the Kubernetes provider
     * authenticate the way Pulumi's AWS provider does. Default: none (the default credential chain).
     */
    profile?: string;
    /** Extra tags for every AWS resource of the cluster. */
    tags?: Record<string, string>;
    /**
     * ARN of a KMS key that encrypts the cluster's Kubernetes Secrets in etcd (EKS envelope encryption). Default: a
     * key the component creates, with yearly rotation. Encryption cannot be turned off once a cluster has it.
     */
    secretsKeyArn?: pulumi.Input<string>;
}


/** IAM policies every EKS worker node needs: join the cluster, run the VPC CNI, pull from ECR. */
const NODE_POLICIES = ["AmazonEKSWorkerNodePolicy", "AmazonEKS_CNI_Policy", "AmazonEC2ContainerRegistryReadOnly"] as const;

/**
 * An EKS cluster ready for the platform: control plane with its Secrets encrypted by a KMS key, a managed node
 * group in the private subnets, an OIDC provider for workload IAM roles, and the EBS CSI driver (without it, no PersistentVolumeClaim
 * binds on EKS, and Prometheus, Elasticsearch and the Bank of Sirius databases all need volumes).
 *
 * The AWS provider comes from `opts.providers`; `@pulumi/eks` builds the cluster inside its own plugin
 * and receives that provider from this component, so no default AWS provider is ever used.
 */
export class Eks extends pulumi.ComponentResource {
    /** Name of the EKS cluster. */
    public readonly clusterName: pulumi.Output<string>;
    /** Kubeconfig (JSON) for the cluster; secret. It authenticates through `aws eks get-token`. */
    public readonly kubeconfig: pulumi.Output<string>;
    /** ARN of the cluster's IAM OIDC provider, for IAM roles for service accounts. */
    public readonly oidcProviderArn: pulumi.Output<string>;
    /** Issuer URL of the cluster's OIDC provider, without the scheme. */
    public readonly oidcProviderUrl: pulumi.Output<string>;
    /** ARN of the worker nodes' IAM role. */
    public readonly nodeRoleArn: pulumi.Output<string>;
    /** The managed node group; depend on it (or on this component) before scheduling pods. */
    public readonly nodeGroup: eks.ManagedNodeGroup;

    constructor(name: string, args: EksArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:infra:Eks", name, {}, opts);
        const a = withDefaults({ version: DEFAULTS.eks.version, instanceType: DEFAULTS.eks.instanceType, minSize: DEFAULTS.eks.minSize, maxSize: DEFAULTS.eks.maxSize }, args);
        const desiredSize = a.desiredSize ?? defaultDesiredSize(a.minSize, a.maxSize);
        validateEksArgs({ ...a, desiredSize });

        const nodeRole = new aws.iam.Role(
            `${name}-node`,
            { assumeRolePolicy: aws.iam.assumeRolePolicyForPrincipal({ Service: "ec2.amazonaws.com" }), tags: a.tags },
            { parent: this },
        );
        const partition = aws.getPartitionOutput({}, { parent: this }).partition;
        NODE_POLICIES.forEach(
            (policy) =>
                new aws.iam.RolePolicyAttachment(
                    `${name}-node-${policy}`,
                    { role: nodeRole.name, policyArn: pulumi.interpolate`arn:${partition}:iam::aws:policy/${policy}` },
                    { parent: this },
                ),
        );

        // Secrets in etcd are encrypted with a key of the account's, not only by EBS: a stolen etcd snapshot
        // reveals nothing, and the mara policy pack requires it (aws-eks-secrets-encryption).
        const secretsKeyArn =
            a.secretsKeyArn ??
            new aws.kms.Key(
                `${name}-secrets`,
                { description: `Encrypts the Kubernetes Secrets of EKS cluster ${a.clusterName}`, enableKeyRotation: true, deletionWindowInDays: 7, tags: a.tags },
                { parent: this },
            ).arn;

        // The SDK does not forward a parent's providers to multi-language components such as eks.Cluster,
        // so hand the AWS provider this component received to them explicitly.
        const remoteOpts = { parent: this, providers: inheritedProviders(this, ["aws"]) };
        const cluster = new eks.Cluster(
            `${name}-cluster`,
            {
                name: a.clusterName,
                version: a.version,
                vpcId: a.vpcId,
                publicSubnetIds: a.publicSubnetIds,
                privateSubnetIds: a.privateSubnetIds,
                // The managed node group below replaces the self-managed default group.
                skipDefaultNodeGroup: true,
                instanceRoles: [nodeRole],
                authenticationMode: eks.AuthenticationMode.Api,
                createOidcProvider: true,
                nodeAssociatePublicIpAddress: false,
                // The VPC CNI enforces NetworkPolicies only with its policy agent switched on.
                vpcCniOptions: { enableNetworkPolicy: true },
                encryptionConfigKeyArn: secretsKeyArn,
                providerCredentialOpts: a.profile ? { profileName: a.profile } : undefined,
                tags: a.tags,
            },
            remoteOpts,
        );

        this.nodeGroup = new eks.ManagedNodeGroup(
            `${name}-nodes`,
            {
                cluster,
                nodeRole,
                instanceTypes: [a.instanceType],
                scalingConfig: { minSize: a.minSize, maxSize: a.maxSize, desiredSize },
                subnetIds: a.privateSubnetIds,
                tags: a.tags,
            },
            remoteOpts,
        );

        const ebsCsiRole = new aws.iam.Role(
            `${name}-ebs-csi`,
            {
                assumeRolePolicy: serviceAccountTrustPolicy(
                    cluster.oidcProviderArn,
                    cluster.oidcProviderUrl,
                    "kube-system",
                    "ebs-csi-controller-sa",
                ),
                tags: a.tags,
            },
            { parent: this },
        );
        new aws.iam.RolePolicyAttachment(
            `${name}-ebs-csi`,
            { role: ebsCsiRole.name, policyArn: pulumi.interpolate`arn:${partition}:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy` },
            { parent: this },
        );
        // The cluster name is ours to choose, so the add-on takes it as a plain value; dependsOn orders it
        // after the nodes its controller runs on (an add-on with no nodes never becomes ACTIVE).
        new aws.eks.Addon(
            `${name}-ebs-csi`,
            {
                clusterName: a.clusterName,
                addonName: "aws-ebs-csi-driver",
                serviceAccountRoleArn: ebsCsiRole.arn,
                resolveConflictsOnCreate: "OVERWRITE",
                resolveConflictsOnUpdate: "OVERWRITE",
                // Tags every volume kubernetes.io/cluster/<name>: owned, which is how destroy finds leftovers.
                configurationValues: JSON.stringify({ controller: { k8sTagClusterId: a.clusterName } }),
                tags: a.tags,
            },
            { parent: this, dependsOn: [cluster, this.nodeGroup] },
        );

        this.clusterName = pulumi.output(a.clusterName);
        this.kubeconfig = pulumi.secret(cluster.kubeconfigJson);
        this.oidcProviderArn = cluster.oidcProviderArn;
        this.oidcProviderUrl = cluster.oidcProviderUrl;
        this.nodeRoleArn = nodeRole.arn;
        this.registerOutputs({
            clusterName: this.clusterName,
            kubeconfig: this.kubeconfig,
            oidcProviderArn: this.oidcProviderArn,
            oidcProviderUrl: this.oidcProviderUrl,
            nodeRoleArn: this.nodeRoleArn,
        });
    }
}

/** The providers a component received for the given packages, to pass on to multi-language components. */
export function inheritedProviders(component: pulumi.Resource, packages: string[]): Record<string, pulumi.ProviderResource> {
    const found: Record<string, pulumi.ProviderResource> = {};
    for (const pkg of packages) {
        const provider = component.getProvider(`${pkg}::`);
        if (provider) found[pkg] = provider;
    }
    return found;
}

/** Checks the sizes and names that decide the cluster's shape; throws naming the argument and the fix. */
export function validateEksArgs(a: { clusterName: string; minSize: number; maxSize: number; desiredSize: number; version: string }): void {
    if (!/^[0-9A-Za-z][A-Za-z0-9_-]{0,99}$/.test(a.clusterName)) {
        throw new Error(`Eks: clusterName "${a.clusterName}" is not a valid EKS name (letters, digits, '-' and '_', at most 100).`);
    }
    for (const [k, v] of Object.entries({ minSize: a.minSize, maxSize: a.maxSize, desiredSize: a.desiredSize })) {
        if (!Number.isInteger(v) || v < 0) throw new Error(`Eks: ${k} must be a whole number of nodes, got ${v}.`);
    }
    if (a.maxSize < 1) throw new Error("Eks: maxSize must be at least 1; the platform needs nodes to run on.");
    if (a.minSize > a.maxSize) throw new Error(`Eks: minSize (${a.minSize}) is greater than maxSize (${a.maxSize}).`);
    if (a.desiredSize < a.minSize || a.desiredSize > a.maxSize) {
        throw new Error(`Eks: desiredSize (${a.desiredSize}) must be within [minSize, maxSize] = [${a.minSize}, ${a.maxSize}].`);
    }
    requireMatch("Eks", "version", a.version, PATTERNS.kubernetesMinor);
}

/** Trust policy letting one Kubernetes service account assume a role through the cluster's OIDC provider. */
export function serviceAccountTrustPolicy(
    oidcProviderArn: pulumi.Input<string>,
    oidcProviderUrl: pulumi.Input<string>,
    namespace: string,
    serviceAccount: string,
): pulumi.Output<string> {
    return pulumi.all([oidcProviderArn, oidcProviderUrl]).apply(([arn, url]) => {
        const issuer = url.replace(/^https:\/\//, "");
        return JSON.stringify({
            Version: "2012-10-17",
            Statement: [
                {
                    Effect: "Allow",
                    Principal: { Federated: arn },
                    Action: "sts:AssumeRoleWithWebIdentity",
                    Condition: {
                        StringEquals: {
                            [`${issuer}:sub`]: `system:serviceaccount:${namespace}:${serviceAccount}`,
                            [`${issuer}:aud`]: "sts.amazonaws.com",
                        },
                    },
                },
            ],
        });
    });
}
