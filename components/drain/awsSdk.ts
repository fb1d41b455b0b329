/** The AWS drain's calls made with the official AWS SDK v3 clients, loaded only when a drain runs. */
import type { AwsDrainClient } from "./aws";

const tagsOf = (tags: { Key?: string; Value?: string }[] | undefined) =>
    Object.fromEntries((tags ?? []).filter((t) => t.Key).map((t) => [t.Key!, t.Value ?? ""]));

/** Splits a list into chunks the describe-tags calls accept. */
function chunks<T>(items: T[], size: number): T[][] {
    return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));
}

/** An {@link AwsDrainClient} for a region (and profile, as the stack's AWS provider uses). */
export async function awsSdkClient(region: string, profile?: string): Promise<AwsDrainClient> {
    // require, not import(): this runs in Pulumi's dynamic-provider host, whose evaluated code cannot import().
    /* eslint-disable @typescript-eslint/no-require-imports */
    const ec2sdk = require("@aws-sdk/client-ec2") as typeof import("@aws-sdk/client-ec2");
    const elbv2sdk = require("@aws-sdk/client-elastic-load-balancing-v2") as typeof import("@aws-sdk/client-elastic-load-balancing-v2");
    const elbsdk = require("@aws-sdk/client-elastic-load-balancing") as typeof import("@aws-sdk/client-elastic-load-balancing");
    /* eslint-enable @typescript-eslint/no-require-imports */
    const config = { region, ...(profile ? { profile } : {}) };
    const ec2 = new ec2sdk.EC2Client(config);
    const elbv2 = new elbv2sdk.ElasticLoadBalancingV2Client(config);
    const elb = new elbsdk.ElasticLoadBalancingClient(config);
    const vpcFilter = (vpcId: string) => [{ Name: "vpc-id", Values: [vpcId] }];

    return {
        async loadBalancersV2(vpcId) {
            const lbs = (await elbv2.send(new elbv2sdk.DescribeLoadBalancersCommand({}))).LoadBalancers ?? [];
            const mine = lbs.filter((lb) => lb.VpcId === vpcId && lb.LoadBalancerArn);
            const tags = new Map<string, Record<string, string>>();
            for (const arns of chunks(mine.map((lb) => lb.LoadBalancerArn!), 20)) {
                const out = await elbv2.send(new elbv2sdk.DescribeTagsCommand({ ResourceArns: arns }));
                for (const d of out.TagDescriptions ?? []) tags.set(d.ResourceArn!, tagsOf(d.Tags));
            }
            return mine.map((lb) => ({ arn: lb.LoadBalancerArn!, name: lb.LoadBalancerName ?? "", tags: tags.get(lb.LoadBalancerArn!) ?? {} }));
        },
        async classicLoadBalancers(vpcId) {
            const lbs = (await elb.send(new elbsdk.DescribeLoadBalancersCommand({}))).LoadBalancerDescriptions ?? [];
            const mine = lbs.filter((lb) => lb.VPCId === vpcId && lb.LoadBalancerName);
            const tags = new Map<string, Record<string, string>>();
            for (const names of chunks(mine.map((lb) => lb.LoadBalancerName!), 20)) {
                const out = await elb.send(new elbsdk.DescribeTagsCommand({ LoadBalancerNames: names }));
                for (const d of out.TagDescriptions ?? []) tags.set(d.LoadBalancerName!, tagsOf(d.Tags));
            }
            return mine.map((lb) => ({ name: lb.LoadBalancerName!, tags: tags.get(lb.LoadBalancerName!) ?? {} }));
        },
        async networkInterfaces(vpcId) {
            const out = await ec2.send(new ec2sdk.DescribeNetworkInterfacesCommand({ Filters: vpcFilter(vpcId) }));
            return (out.NetworkInterfaces ?? []).map((n) => ({
                id: n.NetworkInterfaceId!,
                description: n.Description ?? "",
                status: n.Status ?? "",
                tags: tagsOf(n.TagSet),
            }));
        },
        async securityGroups(vpcId) {
            const out = await ec2.send(new ec2sdk.DescribeSecurityGroupsCommand({ Filters: vpcFilter(vpcId) }));
            return (out.SecurityGroups ?? []).map((g) => ({ id: g.GroupId!, name: g.GroupName ?? "", tags: tagsOf(g.Tags) }));
        },
        async volumes(tagKey) {
            const out = await ec2.send(new ec2sdk.DescribeVolumesCommand({ Filters: [{ Name: "tag-key", Values: [tagKey] }] }));
            return (out.Volumes ?? []).map((v) => ({ id: v.VolumeId!, state: v.State ?? "", tags: tagsOf(v.Tags) }));
        },
        deleteLoadBalancerV2: async (arn) => void (await elbv2.send(new elbv2sdk.DeleteLoadBalancerCommand({ LoadBalancerArn: arn }))),
        deleteClassicLoadBalancer: async (name) => void (await elb.send(new elbsdk.DeleteLoadBalancerCommand({ LoadBalancerName: name }))),
        deleteNetworkInterface: async (id) => void (await ec2.send(new ec2sdk.DeleteNetworkInterfaceCommand({ NetworkInterfaceId: id }))),
        deleteSecurityGroup: async (id) => void (await ec2.send(new ec2sdk.DeleteSecurityGroupCommand({ GroupId: id }))),
        deleteVolume: async (id) => void (await ec2.send(new ec2sdk.DeleteVolumeCommand({ VolumeId: id }))),
    };
}
