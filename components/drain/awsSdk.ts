/**
 * The AWS drain's calls made with the official AWS SDK v3 clients, loaded only when a drain runs. Every
 * describe call follows AWS's pagination (`NextToken` for EC2, `NextMarker`/`Marker` for both load
 * balancer APIs), so nothing on a later page is missed.
 */
import type { AwsDrainClient } from "./aws";

/** What the drain needs of an SDK client: `send`. */
export interface AwsSender {
    send(command: unknown): Promise<unknown>;
}

/** An SDK package: command classes by name (`DescribeVolumesCommand`, ...). */
export type AwsCommands = Record<string, new (input: Record<string, unknown>) => unknown>;

/** The three SDK packages and a client of each. */
export interface AwsSdk {
    readonly ec2: { commands: AwsCommands; client: AwsSender };
    readonly elb: { commands: AwsCommands; client: AwsSender };
    readonly elbv2: { commands: AwsCommands; client: AwsSender };
}

type Tag = { Key?: string; Value?: string };
const tagsOf = (tags: Tag[] | undefined) => Object.fromEntries((tags ?? []).filter((t) => t.Key).map((t) => [t.Key!, t.Value ?? ""]));

/** Splits a list into chunks an API accepts in one call. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
    return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));
}

/** Every page of a paginated describe call: `token` names the request field, `next` the response field. */
async function allPages<R extends Record<string, unknown>>(
    send: (input: Record<string, unknown>) => Promise<R>,
    input: Record<string, unknown>,
    token: "NextToken" | "Marker",
    next: "NextToken" | "NextMarker",
): Promise<R[]> {
    const pages: R[] = [];
    let cursor: string | undefined;
    do {
        const page = await send({ ...input, ...(cursor ? { [token]: cursor } : {}) });
        pages.push(page);
        cursor = (page[next] as string | undefined) || undefined;
    } while (cursor);
    return pages;
}

/** An {@link AwsDrainClient} over SDK clients (real ones from {@link awsSdkClient}, fakes in tests). */
export function awsDrainClient(sdk: AwsSdk): AwsDrainClient {
    const call = (api: keyof AwsSdk, command: string) => async (input: Record<string, unknown>) => {
        const Command = sdk[api].commands[`${command}Command`];
        if (!Command) throw new Error(`the AWS SDK has no ${command}Command`);
        return (await sdk[api].client.send(new Command(input))) as Record<string, unknown>;
    };
    const vpcFilter = (vpcId: string) => ({ Filters: [{ Name: "vpc-id", Values: [vpcId] }], MaxResults: 1000 });

    return {
        async loadBalancersV2(vpcId) {
            const pages = await allPages(call("elbv2", "DescribeLoadBalancers"), { PageSize: 400 }, "Marker", "NextMarker");
            type Lb = { LoadBalancerArn?: string; LoadBalancerName?: string; DNSName?: string; VpcId?: string };
            const mine = pages.flatMap((p) => (p.LoadBalancers as Lb[] | undefined) ?? []).filter((lb) => lb.VpcId === vpcId && lb.LoadBalancerArn);
            const tags = new Map<string, Record<string, string>>();
            for (const arns of chunks(mine.map((lb) => lb.LoadBalancerArn!), 20)) {
                const out = await call("elbv2", "DescribeTags")({ ResourceArns: arns });
                for (const d of (out.TagDescriptions as { ResourceArn?: string; Tags?: Tag[] }[] | undefined) ?? []) tags.set(d.ResourceArn!, tagsOf(d.Tags));
            }
            return mine.map((lb) => ({ arn: lb.LoadBalancerArn!, name: lb.LoadBalancerName ?? "", dnsName: lb.DNSName ?? "", tags: tags.get(lb.LoadBalancerArn!) ?? {} }));
        },
        async classicLoadBalancers(vpcId) {
            const pages = await allPages(call("elb", "DescribeLoadBalancers"), { PageSize: 400 }, "Marker", "NextMarker");
            type Lb = { LoadBalancerName?: string; DNSName?: string; VPCId?: string };
            const mine = pages.flatMap((p) => (p.LoadBalancerDescriptions as Lb[] | undefined) ?? []).filter((lb) => lb.VPCId === vpcId && lb.LoadBalancerName);
            const tags = new Map<string, Record<string, string>>();
            for (const names of chunks(mine.map((lb) => lb.LoadBalancerName!), 20)) {
                const out = await call("elb", "DescribeTags")({ LoadBalancerNames: names });
                for (const d of (out.TagDescriptions as { LoadBalancerName?: string; Tags?: Tag[] }[] | undefined) ?? []) tags.set(d.LoadBalancerName!, tagsOf(d.Tags));
            }
            return mine.map((lb) => ({ name: lb.LoadBalancerName!, dnsName: lb.DNSName ?? "", tags: tags.get(lb.LoadBalancerName!) ?? {} }));
        },
        async networkInterfaces(vpcId) {
            const pages = await allPages(call("ec2", "DescribeNetworkInterfaces"), vpcFilter(vpcId), "NextToken", "NextToken");
            type Eni = { NetworkInterfaceId?: string; Description?: string; Status?: string };
            return pages.flatMap((p) => (p.NetworkInterfaces as Eni[] | undefined) ?? []).map((n) => ({ id: n.NetworkInterfaceId!, description: n.Description ?? "", status: n.Status ?? "" }));
        },
        async securityGroups(vpcId) {
            const pages = await allPages(call("ec2", "DescribeSecurityGroups"), vpcFilter(vpcId), "NextToken", "NextToken");
            type Sg = { GroupId?: string; GroupName?: string; Tags?: Tag[] };
            return pages.flatMap((p) => (p.SecurityGroups as Sg[] | undefined) ?? []).map((g) => ({ id: g.GroupId!, name: g.GroupName ?? "", tags: tagsOf(g.Tags) }));
        },
        async volumes(ids) {
            // A filter, not VolumeIds: with VolumeIds one volume already deleted fails the whole call.
            const out = [];
            for (const batch of chunks(ids, 200)) {
                const pages = await allPages(call("ec2", "DescribeVolumes"), { Filters: [{ Name: "volume-id", Values: batch }], MaxResults: 500 }, "NextToken", "NextToken");
                type Vol = { VolumeId?: string; State?: string; Tags?: Tag[] };
                out.push(...pages.flatMap((p) => (p.Volumes as Vol[] | undefined) ?? []).map((v) => ({ id: v.VolumeId!, state: v.State ?? "", tags: tagsOf(v.Tags) })));
            }
            return out;
        },
        deleteLoadBalancerV2: async (arn) => void (await call("elbv2", "DeleteLoadBalancer")({ LoadBalancerArn: arn })),
        deleteClassicLoadBalancer: async (name) => void (await call("elb", "DeleteLoadBalancer")({ LoadBalancerName: name })),
        deleteSecurityGroup: async (id) => void (await call("ec2", "DeleteSecurityGroup")({ GroupId: id })),
        deleteVolume: async (id) => void (await call("ec2", "DeleteVolume")({ VolumeId: id })),
    };
}

/** An {@link AwsDrainClient} for a region (and profile, as the stack's AWS provider uses). */
export function awsSdkClient(region: string, profile?: string): AwsDrainClient {
    // require, not import(): this runs in Pulumi's dynamic-provider host, whose evaluated code cannot import().
    /* eslint-disable @typescript-eslint/no-require-imports */
    const ec2 = require("@aws-sdk/client-ec2") as AwsCommands & { EC2Client: new (c: object) => AwsSender };
    const elbv2 = require("@aws-sdk/client-elastic-load-balancing-v2") as AwsCommands & { ElasticLoadBalancingV2Client: new (c: object) => AwsSender };
    const elb = require("@aws-sdk/client-elastic-load-balancing") as AwsCommands & { ElasticLoadBalancingClient: new (c: object) => AwsSender };
    /* eslint-enable @typescript-eslint/no-require-imports */
    const config = { region, ...(profile ? { profile } : {}) };
    return awsDrainClient({
        ec2: { commands: ec2, client: new ec2.EC2Client(config) },
        elb: { commands: elb, client: new elb.ElasticLoadBalancingClient(config) },
        elbv2: { commands: elbv2, client: new elbv2.ElasticLoadBalancingV2Client(config) },
    });
}
