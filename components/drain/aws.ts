/**
 * What Kubernetes leaves in AWS for one cluster: load balancers (NLB/ALB and classic) and the security
 * groups the service controller made for them, tagged `kubernetes.io/cluster/<name>`; the network
 * interfaces of those load balancers (their description names the load balancer) and interfaces the VPC
 * CNI left behind (tagged `cluster.k8s.amazonaws.com/name`); volumes the EBS CSI driver tagged for the
 * cluster. Anything without these marks is never listed, so never deleted.
 */
import type { DrainApi, LeftoverResource } from "./engine";

/** The calls the AWS drain makes, in the shape of the AWS SDK v3 responses (a fake implements them in tests). */
export interface AwsDrainClient {
    /** ELBv2 load balancers of the VPC with their tags. */
    loadBalancersV2(vpcId: string): Promise<{ arn: string; name: string; tags: Record<string, string> }[]>;
    /** Classic load balancers of the VPC with their tags. */
    classicLoadBalancers(vpcId: string): Promise<{ name: string; tags: Record<string, string> }[]>;
    /** Network interfaces of the VPC. */
    networkInterfaces(vpcId: string): Promise<{ id: string; description: string; status: string; tags: Record<string, string> }[]>;
    /** Security groups of the VPC with their tags. */
    securityGroups(vpcId: string): Promise<{ id: string; name: string; tags: Record<string, string> }[]>;
    /** Volumes carrying the tag key. */
    volumes(tagKey: string): Promise<{ id: string; state: string; tags: Record<string, string> }[]>;
    deleteLoadBalancerV2(arn: string): Promise<void>;
    deleteClassicLoadBalancer(name: string): Promise<void>;
    deleteNetworkInterface(id: string): Promise<void>;
    deleteSecurityGroup(id: string): Promise<void>;
    deleteVolume(id: string): Promise<void>;
}

/** Settings of the AWS drain. */
export interface AwsDrainTarget {
    readonly region: string;
    readonly clusterName: string;
    readonly vpcId: string;
    /** Keep volumes (data the user chose to retain). */
    readonly retainVolumes: boolean;
}

/** The AWS view of one cluster's leftovers. */
export function awsDrainApi(client: AwsDrainClient, t: AwsDrainTarget): DrainApi {
    const clusterTag = `kubernetes.io/cluster/${t.clusterName}`;
    const owned = (tags: Record<string, string>) => tags[clusterTag] === "owned";
    const seenLoadBalancers = new Set<string>();
    return {
        target: `AWS cluster ${t.clusterName} in ${t.region}`,
        async list() {
            const [v2, classic, enis, groups, volumes] = await Promise.all([
                client.loadBalancersV2(t.vpcId),
                client.classicLoadBalancers(t.vpcId),
                client.networkInterfaces(t.vpcId),
                client.securityGroups(t.vpcId),
                t.retainVolumes ? Promise.resolve([]) : client.volumes(clusterTag),
            ]);
            const ownV2 = v2.filter((lb) => owned(lb.tags));
            const ownClassic = classic.filter((lb) => owned(lb.tags));
            for (const lb of [...ownV2, ...ownClassic]) seenLoadBalancers.add(lb.name);
            // A load balancer's interfaces are described "ELB net/<name>/<id>", "ELB app/<name>/<id>" or "ELB <name>",
            // and outlive it by minutes; they are ours when the load balancer was ours, seen in this or an earlier round.
            const ownEni = (e: { description: string; tags: Record<string, string> }) =>
                e.tags["cluster.k8s.amazonaws.com/name"] === t.clusterName || seenLoadBalancers.has(eniLoadBalancer(e.description) ?? "");
            const lbsLeft = ownV2.length + ownClassic.length;
            return [
                ...ownV2.map((lb): LeftoverResource => ({ kind: "load balancer", id: lb.arn, name: lb.name, deletable: true })),
                ...ownClassic.map((lb): LeftoverResource => ({ kind: "classic load balancer", id: lb.name, name: lb.name, deletable: true })),
                ...enis.filter(ownEni).map((e): LeftoverResource => ({ kind: "network interface", id: e.id, name: e.description, deletable: e.status === "available" })),
                // A load balancer's security group can only go once the load balancer and its interfaces are gone.
                ...groups.filter((g) => owned(g.tags)).map((g): LeftoverResource => ({ kind: "security group", id: g.id, name: g.name, deletable: lbsLeft === 0 })),
                ...volumes.filter((v) => owned(v.tags)).map((v): LeftoverResource => ({ kind: "volume", id: v.id, deletable: v.state === "available" })),
            ];
        },
        async remove(r) {
            switch (r.kind) {
                case "load balancer":
                    return client.deleteLoadBalancerV2(r.id);
                case "classic load balancer":
                    return client.deleteClassicLoadBalancer(r.id);
                case "network interface":
                    return client.deleteNetworkInterface(r.id);
                case "security group":
                    return client.deleteSecurityGroup(r.id);
                case "volume":
                    return client.deleteVolume(r.id);
                default:
                    throw new Error(`unknown resource kind ${r.kind}`);
            }
        },
    };
}

/** The load balancer name in an ELB network interface's description. */
export function eniLoadBalancer(description: string): string | undefined {
    return /^ELB (?:(?:app|net|gwy)\/)?([^/\s]+)/.exec(description)?.[1];
}
