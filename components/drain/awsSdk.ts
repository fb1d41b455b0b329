/**
 * The AWS drain's calls made with the official AWS SDK v3 clients, loaded only when a drain runs. Every
 * describe call follows AWS's pagination (`NextToken` for EC2, `NextMarker`/`Marker` for both load
 * balancer APIs), so nothing on a later page is missed. What AWS answers with "not found" is gone: a
 * delete of it is done, and a load balancer that disappears between its listing and its tags is left out.
 */
import type { AwsClassicLoadBalancer, AwsDrainClient, AwsGroupReference, AwsLoadBalancerV2, AwsSecurityGroup } from "./aws";
import { classify, unlessGone } from "./faults";

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

/**
 * The tags of `keys`, read in batches of 20 (both load balancer APIs' limit). AWS fails a whole batch
 * when one of its load balancers no longer exists (likeliest right after the Services are deleted), so
 * such a batch is read again one by one, and a load balancer gone by then is left out of the answer.
 */
async function tagsInBatches(keys: readonly string[], describe: (batch: string[]) => Promise<Map<string, Record<string, string>>>): Promise<Map<string, Record<string, string>>> {
    const tags = new Map<string, Record<string, string>>();
    for (const batch of chunks(keys, 20)) {
        try {
            for (const [k, v] of await describe(batch)) tags.set(k, v);
        } catch (e) {
            if (classify(e) !== "gone") throw e;
            if (batch.length === 1) continue;
            for (const key of batch) {
                try {
                    for (const [k, v] of await describe([key])) tags.set(k, v);
                } catch (e2) {
                    if (classify(e2) !== "gone") throw e2;
                }
            }
        }
    }
    return tags;
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
            const tags = await tagsInBatches(
                mine.map((lb) => lb.LoadBalancerArn!),
                async (arns) => {
                    const out = await call("elbv2", "DescribeTags")({ ResourceArns: arns });
                    return new Map(((out.TagDescriptions as { ResourceArn?: string; Tags?: Tag[] }[] | undefined) ?? []).map((d) => [d.ResourceArn!, tagsOf(d.Tags)]));
                },
            );
            return mine
                .filter((lb) => tags.has(lb.LoadBalancerArn!))
                .map((lb): AwsLoadBalancerV2 => ({ arn: lb.LoadBalancerArn!, name: lb.LoadBalancerName ?? "", dnsName: lb.DNSName ?? "", tags: tags.get(lb.LoadBalancerArn!)! }));
        },
        async classicLoadBalancers(vpcId) {
            const pages = await allPages(call("elb", "DescribeLoadBalancers"), { PageSize: 400 }, "Marker", "NextMarker");
            type Lb = { LoadBalancerName?: string; DNSName?: string; VPCId?: string; CreatedTime?: Date | string };
            const mine = pages.flatMap((p) => (p.LoadBalancerDescriptions as Lb[] | undefined) ?? []).filter((lb) => lb.VPCId === vpcId && lb.LoadBalancerName);
            const tags = await tagsInBatches(
                mine.map((lb) => lb.LoadBalancerName!),
                async (names) => {
                    const out = await call("elb", "DescribeTags")({ LoadBalancerNames: names });
                    return new Map(((out.TagDescriptions as { LoadBalancerName?: string; Tags?: Tag[] }[] | undefined) ?? []).map((d) => [d.LoadBalancerName!, tagsOf(d.Tags)]));
                },
            );
            const created = (t: Date | string | undefined) => (t instanceof Date ? t.toISOString() : (t ?? ""));
            return mine
                .filter((lb) => tags.has(lb.LoadBalancerName!))
                .map((lb): AwsClassicLoadBalancer => ({ name: lb.LoadBalancerName!, dnsName: lb.DNSName ?? "", createdTime: created(lb.CreatedTime), tags: tags.get(lb.LoadBalancerName!)! }));
        },
        async networkInterfaces(vpcId) {
            const pages = await allPages(call("ec2", "DescribeNetworkInterfaces"), vpcFilter(vpcId), "NextToken", "NextToken");
            type Eni = { NetworkInterfaceId?: string; Description?: string; Status?: string };
            return pages.flatMap((p) => (p.NetworkInterfaces as Eni[] | undefined) ?? []).map((n) => ({ id: n.NetworkInterfaceId!, description: n.Description ?? "", status: n.Status ?? "" }));
        },
        async securityGroups(vpcId) {
            const pages = await allPages(call("ec2", "DescribeSecurityGroups"), vpcFilter(vpcId), "NextToken", "NextToken");
            type Permission = { IpProtocol?: string; FromPort?: number; ToPort?: number; UserIdGroupPairs?: { GroupId?: string }[] };
            type Sg = { GroupId?: string; GroupName?: string; Tags?: Tag[]; IpPermissions?: Permission[] };
            return pages
                .flatMap((p) => (p.SecurityGroups as Sg[] | undefined) ?? [])
                .map(
                    (g): AwsSecurityGroup => ({
                        id: g.GroupId!,
                        name: g.GroupName ?? "",
                        tags: tagsOf(g.Tags),
                        referencesTo: (g.IpPermissions ?? []).flatMap((p) =>
                            (p.UserIdGroupPairs ?? [])
                                .filter((pair) => pair.GroupId)
                                .map((pair): AwsGroupReference => ({ groupId: pair.GroupId!, ipProtocol: p.IpProtocol ?? "-1", ...(p.FromPort !== undefined ? { fromPort: p.FromPort } : {}), ...(p.ToPort !== undefined ? { toPort: p.ToPort } : {}) })),
                        ),
                    }),
                );
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
        deleteLoadBalancerV2: (arn) => unlessGone(() => call("elbv2", "DeleteLoadBalancer")({ LoadBalancerArn: arn })),
        deleteClassicLoadBalancer: (name) => unlessGone(() => call("elb", "DeleteLoadBalancer")({ LoadBalancerName: name })),
        revokeIngress: (groupId, rule) =>
            unlessGone(() =>
                call("ec2", "RevokeSecurityGroupIngress")({
                    GroupId: groupId,
                    IpPermissions: [{ IpProtocol: rule.ipProtocol, ...(rule.fromPort !== undefined ? { FromPort: rule.fromPort } : {}), ...(rule.toPort !== undefined ? { ToPort: rule.toPort } : {}), UserIdGroupPairs: [{ GroupId: rule.groupId }] }],
                }),
            ),
        deleteSecurityGroup: (id) => unlessGone(() => call("ec2", "DeleteSecurityGroup")({ GroupId: id })),
        deleteVolume: (id) => unlessGone(() => call("ec2", "DeleteVolume")({ VolumeId: id })),
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
