/**
 * AWS: data at rest encrypted (EBS volumes, Kubernetes Secrets in EKS's etcd), images scanned when pushed, and the
 * EKS API reachable from the internet only by the blocks that need it. Each rule reads both the AWS resources and
 * `@pulumi/eks`'s Cluster component (whose inputs are all an offline run sees; a real preview also shows the
 * aws.eks.Cluster it makes).
 */
import type { PulumiResource, ResourceRule } from "../rule";
import { ALLOWED_CIDRS_SETTING, cidrProblem } from "./cidr";

type Props = Record<string, unknown>;
const res = (type: string, name: string, props: Props): PulumiResource => ({ type, name, props });
const truthy = (v: unknown) => v === true || v === "true";

/**
 * Whether an input is given, without reading it: a value Pulumi does not know yet during a preview (a key's ARN
 * from the same deployment) is given all the same, and reading it would stop the policy.
 */
export function isGiven(props: object, key: string): boolean {
    const d = Object.getOwnPropertyDescriptor(props, key);
    return d !== undefined && d.value !== undefined && d.value !== null;
}

const VOLUME = "aws:ebs/volume:Volume";
const LAUNCH_TEMPLATE = "aws:ec2/launchTemplate:LaunchTemplate";
const INSTANCE = "aws:ec2/instance:Instance";

export const ebsEncrypted: ResourceRule = {
    kind: "resource",
    id: "aws-ebs-encrypted",
    description: "EBS volumes are encrypted: volumes, launch templates' and instances' block devices.",
    level: "mandatory",
    settings: {},
    types: [VOLUME, LAUNCH_TEMPLATE, INSTANCE],
    check: ({ type, name, props }) => {
        if (type === VOLUME) return truthy(props.encrypted) ? [] : [`EBS volume "${name}" is not encrypted: set encrypted: true`];
        if (type === LAUNCH_TEMPLATE) {
            const mappings = (props.blockDeviceMappings ?? []) as { deviceName?: string; ebs?: Props }[];
            return mappings.filter((m) => m.ebs && !truthy(m.ebs.encrypted)).map((m) => `launch template "${name}" device ${m.deviceName ?? "(unnamed)"} is not encrypted: set ebs.encrypted: "true"`);
        }
        const devices = [props.rootBlockDevice as Props | undefined, ...((props.ebsBlockDevices ?? []) as Props[])].filter((d): d is Props => d !== undefined);
        return devices.filter((d) => !truthy(d.encrypted)).map((d) => `instance "${name}" device ${typeof d.deviceName === "string" ? d.deviceName : "root"} is not encrypted: set encrypted: true`);
    },
    examples: {
        pass: [
            res(VOLUME, "data", { availabilityZone: "us-east-1a", size: 10, encrypted: true }),
            res(LAUNCH_TEMPLATE, "nodes", { blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeSize: 50, encrypted: "true" } }] }),
            res(INSTANCE, "bastion", { ami: "ami-1", instanceType: "t3.micro", rootBlockDevice: { encrypted: true } }),
        ],
        fail: [
            res(VOLUME, "data", { availabilityZone: "us-east-1a", size: 10 }),
            res(LAUNCH_TEMPLATE, "nodes", { blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeSize: 50 } }] }),
            res(INSTANCE, "bastion", { ami: "ami-1", instanceType: "t3.micro", rootBlockDevice: { volumeSize: 20 } }),
        ],
    },
};

const AWS_EKS = "aws:eks/cluster:Cluster";
const PULUMI_EKS = "eks:index:Cluster";

export const eksSecretsEncryption: ResourceRule = {
    kind: "resource",
    id: "aws-eks-secrets-encryption",
    description: "EKS clusters encrypt Kubernetes Secrets with a KMS key (envelope encryption).",
    level: "mandatory",
    settings: {},
    types: [AWS_EKS, PULUMI_EKS],
    check: ({ type, name, props }) => {
        const on =
            type === PULUMI_EKS
                ? isGiven(props, "encryptionConfigKeyArn")
                : ((props.encryptionConfig as { resources?: string[] } | undefined)?.resources ?? []).includes("secrets");
        return on ? [] : [`EKS cluster "${name}" does not encrypt Secrets: ${type === PULUMI_EKS ? "set encryptionConfigKeyArn" : 'set encryptionConfig with resources ["secrets"]'} to a KMS key`];
    },
    examples: {
        pass: [
            res(PULUMI_EKS, "eks", { encryptionConfigKeyArn: "arn:aws:kms:us-east-1:111122223333:key/1" }),
            res(AWS_EKS, "eks", { roleArn: "arn", vpcConfig: {}, encryptionConfig: { provider: { keyArn: "arn:aws:kms:us-east-1:111122223333:key/1" }, resources: ["secrets"] } }),
        ],
        fail: [res(PULUMI_EKS, "eks", { version: "1.35" }), res(AWS_EKS, "eks", { roleArn: "arn", vpcConfig: {} })],
    },
};

const REPOSITORY = "aws:ecr/repository:Repository";

export const ecrScanOnPush: ResourceRule = {
    kind: "resource",
    id: "aws-ecr-scan-on-push",
    description: "ECR repositories scan every image when it is pushed.",
    level: "mandatory",
    settings: {},
    types: [REPOSITORY],
    check: ({ name, props }) =>
        (props.imageScanningConfiguration as { scanOnPush?: boolean } | undefined)?.scanOnPush === true
            ? []
            : [`ECR repository "${name}" does not scan images on push: set imageScanningConfiguration.scanOnPush: true`],
    examples: {
        pass: [res(REPOSITORY, "images", { imageScanningConfiguration: { scanOnPush: true } })],
        fail: [res(REPOSITORY, "images", {}), res(REPOSITORY, "images", { imageScanningConfiguration: { scanOnPush: false } })],
    },
};

export const eksPublicEndpoint: ResourceRule<{ allowedCidrs: string[] }> = {
    kind: "resource",
    id: "aws-eks-public-endpoint",
    description: "An EKS API endpoint open to the internet admits only given CIDR blocks (publicAccessCidrs), never 0.0.0.0/0.",
    // Advisory: `pulumi up` and `kubectl` must reach the API from wherever they run, which only the user knows.
    level: "advisory",
    settings: { allowedCidrs: ALLOWED_CIDRS_SETTING },
    types: [AWS_EKS, PULUMI_EKS],
    check: ({ type, name, props }, s) => {
        const vpc = (type === PULUMI_EKS ? props : props.vpcConfig ?? {}) as { endpointPublicAccess?: boolean; publicAccessCidrs?: string[] };
        if (vpc.endpointPublicAccess === false) return [];
        const problem = cidrProblem(vpc.publicAccessCidrs, s.allowedCidrs);
        return problem ? [`EKS cluster "${name}"'s public API endpoint ${problem}: set publicAccessCidrs, or make the endpoint private`] : [];
    },
    examples: {
        pass: [
            res(PULUMI_EKS, "eks", { publicAccessCidrs: ["203.0.113.0/24"] }),
            res(AWS_EKS, "eks", { vpcConfig: { endpointPublicAccess: false, endpointPrivateAccess: true } }),
            res(AWS_EKS, "eks", { vpcConfig: { endpointPublicAccess: true, publicAccessCidrs: ["198.51.100.7/32"] } }),
        ],
        fail: [res(PULUMI_EKS, "eks", { version: "1.35" }), res(AWS_EKS, "eks", { vpcConfig: { endpointPublicAccess: true, publicAccessCidrs: ["0.0.0.0/0"] } })],
    },
};
