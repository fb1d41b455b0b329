/**
 * The AWS behaviours the drain depends on that moto 5.2.5 does not model, each put in front of moto as
 * AWS documents it, and nothing else (every other answer is moto's own):
 *
 * | behaviour | as AWS documents it | what moto 5.2.5 does |
 * |---|---|---|
 * | DeleteSecurityGroup fails with `DependencyViolation` while a network interface or load balancer uses the group, or a rule of another group refers to it | [DeleteSecurityGroup](https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DeleteSecurityGroup.html) | deletes the group |
 * | ELBv2 DescribeTags fails with `LoadBalancerNotFound` when one ARN names a load balancer that no longer exists | [DescribeTags (ELBv2)](https://docs.aws.amazon.com/elasticloadbalancing/latest/APIReference/API_DescribeTags.html), Errors | answers with the deleted load balancer's tags |
 * | EC2 describe calls return at most `MaxResults` items and a `NextToken` for the rest | [Pagination (EC2 API)](https://docs.aws.amazon.com/AWSEC2/latest/APIReference/Query-Requests.html#api-pagination) | ignores `MaxResults`, answers everything at once |
 * | A load balancer has network interfaces that ELB creates (description `ELB <name>`, `ELB net/<name>/<id>`, `ELB app/<name>/<id>`) and removes itself after the load balancer is deleted, not at once | [Requester-managed network interfaces](https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/requester-managed-eni.html) (minutes in practice; no figure is documented) | creates none |
 *
 * Load balancer lists are paged by moto itself: it honours `PageSize`, which {@link AwsGaps} lowers so
 * that a handful of load balancers spans pages ([DescribeLoadBalancers](https://docs.aws.amazon.com/elasticloadbalancing/latest/APIReference/API_DescribeLoadBalancers.html):
 * `PageSize` is a maximum).
 */
import type { AwsApi, Send } from "./send";

/* eslint-disable @typescript-eslint/no-require-imports */
const { EC2ServiceException } = require("@aws-sdk/client-ec2") as { EC2ServiceException: new (o: object) => Error };
const { LoadBalancerNotFoundException } = require("@aws-sdk/client-elastic-load-balancing-v2") as { LoadBalancerNotFoundException: new (o: object) => Error };
/* eslint-enable @typescript-eslint/no-require-imports */

/** An EC2 error as the SDK raises it for an error code EC2 answered (EC2's codes are not modelled classes). */
export function ec2Error(code: string, message: string, status = 400): Error {
    return new EC2ServiceException({ name: code, $fault: status >= 500 ? "server" : "client", $metadata: { httpStatusCode: status }, message });
}

/** How the gaps behave; all sizes are small so that a test's few resources span pages. */
export interface GapOptions {
    /** The test's clock, which the drain's sleeps advance. */
    readonly now: () => number;
    /** Most items an EC2 describe call returns. Default 4. */
    readonly ec2PageSize?: number;
    /** Most load balancers one DescribeLoadBalancers returns. Default 2. */
    readonly elbPageSize?: number;
    /** How long after its load balancer is deleted ELB removes a network interface. Default 3 minutes. */
    readonly interfaceReleaseMs?: number;
}

const EC2_LISTS: Record<string, string> = { DescribeNetworkInterfaces: "NetworkInterfaces", DescribeSecurityGroups: "SecurityGroups", DescribeVolumes: "Volumes" };

type Pair = { GroupId?: string };
type Permission = { UserIdGroupPairs?: Pair[] };
type Group = { GroupId?: string; IpPermissions?: Permission[]; IpPermissionsEgress?: Permission[] };

/** The name of the load balancer an ELBv2 ARN names (`...:loadbalancer/net/<name>/<id>`). */
export const nameInArn = (arn: string) => /:loadbalancer\/(?:app|net|gwy)\/([^/]+)\//.exec(arn)?.[1] ?? arn;

/** The gaps of moto, in front of `next` (moto). */
export class AwsGaps {
    private readonly ec2PageSize: number;
    private readonly elbPageSize: number;
    private readonly interfaceReleaseMs: number;
    /** ELB's interfaces of each load balancer, by its name. */
    private readonly interfaces = new Map<string, string[]>();
    /** When each deleted load balancer's interfaces go. */
    private readonly releaseAt = new Map<string, number>();

    constructor(
        private readonly next: Send,
        private readonly opts: GapOptions,
    ) {
        this.ec2PageSize = opts.ec2PageSize ?? 4;
        this.elbPageSize = opts.elbPageSize ?? 2;
        this.interfaceReleaseMs = opts.interfaceReleaseMs ?? 3 * 60_000;
    }

    /** Creates the network interfaces ELB would give a new load balancer, one per subnet, using its groups. */
    async createInterfaces(loadBalancer: string, description: string, subnets: readonly string[], groups: readonly string[] = []): Promise<string[]> {
        const ids: string[] = [];
        for (const SubnetId of subnets) {
            const out = await this.next("ec2", "CreateNetworkInterface", { SubnetId, Description: description, ...(groups.length ? { Groups: groups } : {}) });
            ids.push((out.NetworkInterface as { NetworkInterfaceId: string }).NetworkInterfaceId);
        }
        this.interfaces.set(loadBalancer, [...(this.interfaces.get(loadBalancer) ?? []), ...ids]);
        return ids;
    }

    /** ELB's side of time passing: the interfaces of load balancers deleted long enough ago go. */
    async tick(): Promise<void> {
        for (const [name, at] of [...this.releaseAt]) {
            if (this.opts.now() < at) continue;
            for (const id of this.interfaces.get(name) ?? []) await this.next("ec2", "DeleteNetworkInterface", { NetworkInterfaceId: id });
            this.interfaces.delete(name);
            this.releaseAt.delete(name);
        }
    }

    /** Sends one call, with the gaps filled. */
    readonly send: Send = async (api, command, input) => {
        const key = `${api}:${command}`;
        if (api === "ec2" && EC2_LISTS[command] && input.MaxResults !== undefined) return this.ec2Page(command, input);
        if ((api === "elb" || api === "elbv2") && command === "DescribeLoadBalancers") {
            return this.next(api, command, { ...input, PageSize: Math.min(Number(input.PageSize ?? 400), this.elbPageSize) });
        }
        if (key === "ec2:DeleteSecurityGroup") await this.refuseWhileUsed(String(input.GroupId));
        if (key === "elbv2:DescribeTags") await this.refuseDeletedArns(input.ResourceArns as string[]);
        const out = await this.next(api, command, input);
        if (command === "DeleteLoadBalancer") this.deleted(api, input);
        return out;
    };

    private deleted(api: AwsApi, input: Record<string, unknown>): void {
        const name = api === "elb" ? String(input.LoadBalancerName) : nameInArn(String(input.LoadBalancerArn));
        if (this.interfaces.has(name) && !this.releaseAt.has(name)) this.releaseAt.set(name, this.opts.now() + this.interfaceReleaseMs);
    }

    private async ec2Page(command: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
        const { MaxResults, NextToken, ...rest } = input;
        const listKey = EC2_LISTS[command]!;
        const out = await this.next("ec2", command, rest);
        const all = (out[listKey] as unknown[] | undefined) ?? [];
        const start = NextToken ? Number(NextToken) : 0;
        const end = start + Math.min(Number(MaxResults), this.ec2PageSize);
        return { ...out, [listKey]: all.slice(start, end), NextToken: end < all.length ? String(end) : undefined };
    }

    private async refuseWhileUsed(groupId: string): Promise<void> {
        const groups = ((await this.next("ec2", "DescribeSecurityGroups", {})).SecurityGroups as Group[] | undefined) ?? [];
        const referring = groups.filter((g) => g.GroupId !== groupId && [...(g.IpPermissions ?? []), ...(g.IpPermissionsEgress ?? [])].some((p) => (p.UserIdGroupPairs ?? []).some((u) => u.GroupId === groupId)));
        const enis = ((await this.next("ec2", "DescribeNetworkInterfaces", { Filters: [{ Name: "group-id", Values: [groupId] }] })).NetworkInterfaces as unknown[] | undefined) ?? [];
        const classic = (((await this.next("elb", "DescribeLoadBalancers", {})).LoadBalancerDescriptions as { SecurityGroups?: string[] }[] | undefined) ?? []).filter((lb) => lb.SecurityGroups?.includes(groupId));
        const v2 = (((await this.next("elbv2", "DescribeLoadBalancers", {})).LoadBalancers as { SecurityGroups?: string[] }[] | undefined) ?? []).filter((lb) => lb.SecurityGroups?.includes(groupId));
        if (referring.length || enis.length || classic.length || v2.length) throw ec2Error("DependencyViolation", `resource ${groupId} has a dependent object`);
    }

    private async refuseDeletedArns(arns: readonly string[]): Promise<void> {
        const existing = new Set((((await this.next("elbv2", "DescribeLoadBalancers", {})).LoadBalancers as { LoadBalancerArn?: string }[] | undefined) ?? []).map((lb) => lb.LoadBalancerArn));
        const gone = arns.filter((a) => a.includes(":loadbalancer/") && !existing.has(a));
        if (gone.length) throw new LoadBalancerNotFoundException({ $metadata: { httpStatusCode: 400 }, message: `One or more load balancers not found: ${gone.join(", ")}` });
    }
}
