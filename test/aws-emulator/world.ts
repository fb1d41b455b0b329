/**
 * An AWS account in moto, built through the AWS API, with the parts of the world around the drain that
 * act on it: the in-tree cloud controller (which deletes a deleted Service's load balancer and, for a
 * classic one, first removes its group's rule from the nodes' group, then retries deleting that group
 * until AWS lets it, as cloud-provider-aws does), the CSI driver detaching volumes once their pods are
 * gone, and ELB releasing interfaces (gaps.ts). Every resource is created under a label, so a test says
 * which labels are gone afterwards, whoever deleted them.
 */
import type { AwsSdk } from "../../components/drain/awsSdk";
import { FakeService, STUCK_CONTROLLER } from "../support/fakeClouds";
import { InjectedFaults } from "./faults";
import { AwsGaps, GapOptions } from "./gaps";
import { sdkFor } from "./moto";
import { asSdk, motoSend, Send } from "./send";

type Tags = Record<string, string>;
const tagList = (tags: Tags) => Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));

/** A VPC with two subnets in two zones. */
export interface TestVpc {
    readonly id: string;
    readonly subnets: readonly string[];
}

type Kind = "lbv2" | "classic" | "group" | "eni" | "volume" | "instance";

/** A clock whose sleeps pass instantly and let the world act (controllers, ELB, CSI driver). */
export interface WorldClock {
    now(): number;
    sleep(ms: number): Promise<void>;
}

/** One account and region in moto, and the actors around the drain. */
export class AwsWorld {
    /** Every call the drain or an actor made, with its pagination token. */
    readonly calls: { key: string; token?: string }[] = [];
    readonly faults = new InjectedFaults();
    readonly clock: WorldClock;
    /** Straight to moto, for building and inspecting. */
    readonly raw: Send;
    readonly gaps: AwsGaps;
    private readonly send: Send;
    private t = 0;
    private readonly labels = new Map<string, { kind: Kind; id: string }>();
    private readonly detachAt: { at: number; volume: string; instance: string }[] = [];
    /** Groups the controller still has to delete (AWS refuses while the load balancer's interfaces use them). */
    private readonly controllerGroups = new Set<string>();

    /** @param pages the page sizes of the gaps (gaps.ts), when a test needs smaller ones */
    constructor(endpoint: string, pages: Omit<GapOptions, "now" | "interfaceReleaseMs"> = {}) {
        this.raw = motoSend(sdkFor(endpoint));
        this.gaps = new AwsGaps(this.raw, { ...pages, now: () => this.t });
        const recorded: Send = (api, command, input) => {
            this.calls.push({ key: `${api}:${command}`, token: (input.NextToken ?? input.Marker) as string | undefined });
            return this.faults.wrap(this.gaps.send)(api, command, input);
        };
        this.send = recorded;
        this.clock = {
            now: () => this.t,
            sleep: async (ms) => {
                this.t += ms;
                await this.tick();
            },
        };
    }

    /** The SDK the drain is given: through the faults and the gaps to moto. */
    sdk(): AwsSdk {
        return asSdk(this.send);
    }

    private name(label: string, kind: Kind, id: string): string {
        this.labels.set(label, { kind, id });
        return id;
    }

    /** The ID of a labelled resource (an ARN, a name, an AWS ID). */
    id(label: string): string {
        const r = this.labels.get(label);
        if (!r) throw new Error(`no resource labelled ${label}`);
        return r.id;
    }

    async vpc(cidr: string): Promise<TestVpc> {
        const id = ((await this.raw("ec2", "CreateVpc", { CidrBlock: cidr })).Vpc as { VpcId: string }).VpcId;
        const subnets: string[] = [];
        for (const [i, zone] of ["us-east-1a", "us-east-1b"].entries()) {
            const block = cidr.replace(/\.0\.0\/16$/, `.${i + 1}.0/24`);
            subnets.push(((await this.raw("ec2", "CreateSubnet", { VpcId: id, CidrBlock: block, AvailabilityZone: zone })).Subnet as { SubnetId: string }).SubnetId);
        }
        return { id, subnets };
    }

    async group(label: string, vpc: TestVpc, name: string, tags: Tags = {}): Promise<string> {
        const out = await this.raw("ec2", "CreateSecurityGroup", {
            GroupName: name,
            Description: name,
            VpcId: vpc.id,
            ...(Object.keys(tags).length ? { TagSpecifications: [{ ResourceType: "security-group", Tags: tagList(tags) }] } : {}),
        });
        return this.name(label, "group", out.GroupId as string);
    }

    /** Adds to `group` an ingress rule admitting all traffic from `from`, as the controller does for a classic load balancer. */
    async allowFrom(group: string, from: string): Promise<void> {
        await this.raw("ec2", "AuthorizeSecurityGroupIngress", { GroupId: group, IpPermissions: [{ IpProtocol: "-1", UserIdGroupPairs: [{ GroupId: from }] }] });
    }

    /** Ingress rules of `group` that refer to other groups, as their group IDs. */
    async referencedBy(group: string): Promise<string[]> {
        const g = ((await this.raw("ec2", "DescribeSecurityGroups", { GroupIds: [group] })).SecurityGroups as { IpPermissions?: { UserIdGroupPairs?: { GroupId?: string }[] }[] }[])[0];
        return (g?.IpPermissions ?? []).flatMap((p) => (p.UserIdGroupPairs ?? []).map((u) => u.GroupId!));
    }

    /**
     * A network load balancer with ELB's interfaces; returns its DNS name.
     * @param interfaces false when the drain reaches moto without the gaps in front (then nothing would release them)
     */
    async nlb(label: string, name: string, vpc: TestVpc, tags: Tags, interfaces = true): Promise<string> {
        const out = await this.raw("elbv2", "CreateLoadBalancer", { Name: name, Type: "network", Subnets: vpc.subnets, Tags: tagList(tags) });
        const lb = (out.LoadBalancers as { LoadBalancerArn: string; DNSName: string }[])[0]!;
        this.name(label, "lbv2", lb.LoadBalancerArn);
        if (!interfaces) return lb.DNSName;
        const ids = await this.gaps.createInterfaces(name, `ELB net/${name}/${lb.LoadBalancerArn.split("/").at(-1)}`, vpc.subnets);
        ids.forEach((id, i) => this.name(`${label}/eni-${i}`, "eni", id));
        return lb.DNSName;
    }

    /** A classic load balancer using `group`, with ELB's interfaces in that group; returns its DNS name. */
    async classic(label: string, name: string, vpc: TestVpc, tags: Tags, group?: string): Promise<string> {
        const out = await this.raw("elb", "CreateLoadBalancer", {
            LoadBalancerName: name,
            Listeners: [{ Protocol: "TCP", LoadBalancerPort: 80, InstancePort: 30080 }],
            Subnets: vpc.subnets,
            ...(group ? { SecurityGroups: [group] } : {}),
            Tags: tagList(tags),
        });
        this.name(label, "classic", name);
        const ids = await this.gaps.createInterfaces(name, `ELB ${name}`, vpc.subnets, group ? [group] : []);
        ids.forEach((id, i) => this.name(`${label}/eni-${i}`, "eni", id));
        return out.DNSName as string;
    }

    /** A network interface that is not a load balancer's (the VPC CNI's, a user's). */
    async eni(label: string, vpc: TestVpc, description: string): Promise<string> {
        const out = await this.raw("ec2", "CreateNetworkInterface", { SubnetId: vpc.subnets[0], Description: description });
        return this.name(label, "eni", (out.NetworkInterface as { NetworkInterfaceId: string }).NetworkInterfaceId);
    }

    /** A node of the cluster (its primary interface comes with it). */
    async instance(label: string, vpc: TestVpc): Promise<string> {
        const out = await this.raw("ec2", "RunInstances", { ImageId: "ami-12345678", MinCount: 1, MaxCount: 1, SubnetId: vpc.subnets[0], InstanceType: "t3.medium" });
        return this.name(label, "instance", (out.Instances as { InstanceId: string }[])[0]!.InstanceId);
    }

    /** An EBS volume; attached to `attach.instance` until the clock reaches `attach.until` (its pod's end), when given. */
    async volume(label: string, tags: Tags, attach?: { instance: string; until: number }): Promise<string> {
        const out = await this.raw("ec2", "CreateVolume", { AvailabilityZone: "us-east-1a", Size: 1, ...(Object.keys(tags).length ? { TagSpecifications: [{ ResourceType: "volume", Tags: tagList(tags) }] } : {}) });
        const id = this.name(label, "volume", out.VolumeId as string);
        if (attach) {
            await this.raw("ec2", "AttachVolume", { VolumeId: id, InstanceId: attach.instance, Device: "/dev/xvdf" });
            this.detachAt.push({ at: attach.until, volume: id, instance: attach.instance });
        }
        return id;
    }

    /** The in-tree cloud controller's part when a Service is deleted (nothing when it is stuck). */
    async serviceDeleted(s: FakeService): Promise<void> {
        if (s.annotations?.[STUCK_CONTROLLER]) return;
        const owned = (tags: Tags) => Object.entries(tags).some(([k, v]) => k.startsWith("kubernetes.io/cluster/") && v === "owned");
        const hostnames = new Set((s.hostnames ?? []).map((h) => h.toLowerCase()));
        const v2 = ((await this.raw("elbv2", "DescribeLoadBalancers", { PageSize: 400 })).LoadBalancers as { LoadBalancerArn: string; DNSName: string }[]) ?? [];
        for (const lb of v2.filter((l) => hostnames.has(l.DNSName.toLowerCase()))) {
            if (owned(await this.tagsV2(lb.LoadBalancerArn))) await this.send("elbv2", "DeleteLoadBalancer", { LoadBalancerArn: lb.LoadBalancerArn });
        }
        const classic = ((await this.raw("elb", "DescribeLoadBalancers", { PageSize: 400 })).LoadBalancerDescriptions as { LoadBalancerName: string; DNSName: string; SecurityGroups?: string[] }[]) ?? [];
        for (const lb of classic.filter((l) => hostnames.has(l.DNSName.toLowerCase()))) {
            if (!owned(await this.tagsClassic(lb.LoadBalancerName))) continue;
            // cloud-provider-aws: the nodes' rule goes first, then the load balancer, then (retried) its group.
            for (const group of lb.SecurityGroups ?? []) {
                for (const node of await this.groupsReferring(group)) {
                    await this.send("ec2", "RevokeSecurityGroupIngress", { GroupId: node, IpPermissions: [{ IpProtocol: "-1", UserIdGroupPairs: [{ GroupId: group }] }] });
                }
                this.controllerGroups.add(group);
            }
            await this.send("elb", "DeleteLoadBalancer", { LoadBalancerName: lb.LoadBalancerName });
        }
    }

    private async tagsV2(arn: string): Promise<Tags> {
        const d = ((await this.raw("elbv2", "DescribeTags", { ResourceArns: [arn] })).TagDescriptions as { Tags?: { Key: string; Value: string }[] }[])[0];
        return Object.fromEntries((d?.Tags ?? []).map((t) => [t.Key, t.Value]));
    }

    private async tagsClassic(name: string): Promise<Tags> {
        const d = ((await this.raw("elb", "DescribeTags", { LoadBalancerNames: [name] })).TagDescriptions as { Tags?: { Key: string; Value: string }[] }[])[0];
        return Object.fromEntries((d?.Tags ?? []).map((t) => [t.Key, t.Value]));
    }

    private async groupsReferring(group: string): Promise<string[]> {
        const all = ((await this.raw("ec2", "DescribeSecurityGroups", {})).SecurityGroups as { GroupId: string; IpPermissions?: { UserIdGroupPairs?: { GroupId?: string }[] }[] }[]) ?? [];
        return all.filter((g) => g.GroupId !== group && (g.IpPermissions ?? []).some((p) => (p.UserIdGroupPairs ?? []).some((u) => u.GroupId === group))).map((g) => g.GroupId);
    }

    /** Time passes: ELB releases interfaces, the CSI driver detaches volumes, the controller retries its groups. */
    async tick(): Promise<void> {
        await this.gaps.tick();
        for (const d of this.detachAt.filter((x) => x.at <= this.t)) {
            await this.raw("ec2", "DetachVolume", { VolumeId: d.volume, InstanceId: d.instance, Device: "/dev/xvdf" });
            this.detachAt.splice(this.detachAt.indexOf(d), 1);
        }
        for (const group of [...this.controllerGroups]) {
            try {
                await this.send("ec2", "DeleteSecurityGroup", { GroupId: group });
                this.controllerGroups.delete(group);
            } catch (e) {
                const name = (e as Error).name;
                if (name === "InvalidGroup.NotFound") this.controllerGroups.delete(group);
                else if (name !== "DependencyViolation") throw e;
            }
        }
    }

    /** Detaches an attached volume now (its pod is gone). */
    async detach(label: string): Promise<void> {
        const d = this.detachAt.find((x) => x.volume === this.id(label));
        if (d) d.at = this.t;
        await this.tick();
    }

    /** The labels whose resources no longer exist, sorted. */
    async gone(): Promise<string[]> {
        const v2 = new Set((((await this.raw("elbv2", "DescribeLoadBalancers", { PageSize: 400 })).LoadBalancers as { LoadBalancerArn: string }[]) ?? []).map((l) => l.LoadBalancerArn));
        const classic = new Set((((await this.raw("elb", "DescribeLoadBalancers", { PageSize: 400 })).LoadBalancerDescriptions as { LoadBalancerName: string }[]) ?? []).map((l) => l.LoadBalancerName));
        const groups = new Set((((await this.raw("ec2", "DescribeSecurityGroups", {})).SecurityGroups as { GroupId: string }[]) ?? []).map((g) => g.GroupId));
        const enis = new Set((((await this.raw("ec2", "DescribeNetworkInterfaces", {})).NetworkInterfaces as { NetworkInterfaceId: string }[]) ?? []).map((e) => e.NetworkInterfaceId));
        const volumes = new Set((((await this.raw("ec2", "DescribeVolumes", {})).Volumes as { VolumeId: string }[]) ?? []).map((v) => v.VolumeId));
        const exists: Record<Kind, Set<string> | undefined> = { lbv2: v2, classic, group: groups, eni: enis, volume: volumes, instance: undefined };
        return [...this.labels]
            .filter(([, r]) => exists[r.kind] && !exists[r.kind]!.has(r.id))
            .map(([label]) => label)
            .sort();
    }
}
