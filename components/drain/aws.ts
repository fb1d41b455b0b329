/**
 * What Kubernetes made in AWS for one cluster, as the cluster's records prove it:
 * - load balancers (NLB/ALB and classic) whose DNS name a LoadBalancer Service's status names, in the
 *   stack's VPC (a VPC ID no other stack has), tagged for the cluster by its controller; their network
 *   interfaces (AWS deletes those itself, so the drain only waits), and a classic load balancer's
 *   `k8s-elb-<name>` security group;
 * - EBS volumes that a `Delete` PersistentVolume provisioned by the EBS CSI driver names, whose
 *   `CSIVolumeName` tag names that same PV (`pvc-<claim UID>`, unique to this cluster).
 * EKS's own security groups and the VPC CNI's interfaces are never listed: the EKS and VPC deletion that
 * follows removes them, and AWS refuses to while the cluster runs.
 */
import type { DrainApi, KeptResource, LeftoverResource } from "./engine";
import { volumeOwnership } from "./ownership";
import type { ClusterRecords } from "./records";

/** The EBS CSI driver's name, as PersistentVolumes carry it. */
export const EBS_CSI_DRIVER = "ebs.csi.aws.com";

/** An ELBv2 (network or application) load balancer. */
export interface AwsLoadBalancerV2 {
    readonly arn: string;
    readonly name: string;
    readonly dnsName: string;
    readonly tags: Readonly<Record<string, string>>;
}

/** A classic load balancer. */
export interface AwsClassicLoadBalancer {
    readonly name: string;
    readonly dnsName: string;
    readonly tags: Readonly<Record<string, string>>;
}

/** The calls the AWS drain makes, each following AWS's pagination (a fake implements them in tests). */
export interface AwsDrainClient {
    /** ELBv2 load balancers of the VPC with their tags. */
    loadBalancersV2(vpcId: string): Promise<AwsLoadBalancerV2[]>;
    /** Classic load balancers of the VPC with their tags. */
    classicLoadBalancers(vpcId: string): Promise<AwsClassicLoadBalancer[]>;
    /** Network interfaces of the VPC. */
    networkInterfaces(vpcId: string): Promise<{ id: string; description: string; status: string }[]>;
    /** Security groups of the VPC with their tags. */
    securityGroups(vpcId: string): Promise<{ id: string; name: string; tags: Readonly<Record<string, string>> }[]>;
    /** The volumes among `ids` that still exist. */
    volumes(ids: readonly string[]): Promise<{ id: string; state: string; tags: Readonly<Record<string, string>> }[]>;
    deleteLoadBalancerV2(arn: string): Promise<void>;
    deleteClassicLoadBalancer(name: string): Promise<void>;
    deleteSecurityGroup(id: string): Promise<void>;
    deleteVolume(id: string): Promise<void>;
}

/** Settings of the AWS drain. */
export interface AwsDrainTarget {
    readonly region: string;
    readonly clusterName: string;
    /** The stack's VPC: load balancers outside it are never considered. */
    readonly vpcId: string;
    /** Keep every volume. */
    readonly retainVolumes: boolean;
}

/** The AWS view of one cluster's leftovers, decided by its records. */
export function awsDrainApi(client: AwsDrainClient, t: AwsDrainTarget, records: ClusterRecords): DrainApi {
    const volumes = volumeOwnership(records.volumes, EBS_CSI_DRIVER, t.retainVolumes);
    const kept: KeptResource[] = [...volumes.kept];
    const keep = (k: KeptResource) => {
        if (!kept.some((x) => x.kind === k.kind && x.id === k.id)) kept.push(k);
    };
    // Which Service names each host name, so a kept load balancer can be reported by its Service.
    const serviceOf = new Map(records.loadBalancers.flatMap((lb) => lb.hostnames.map((h) => [h.toLowerCase(), lb.service] as const)));
    // The in-tree controller tags kubernetes.io/cluster/<name>: owned; the AWS Load Balancer Controller elbv2.k8s.aws/cluster.
    const taggedForCluster = (tags: Readonly<Record<string, string>>) =>
        tags[`kubernetes.io/cluster/${t.clusterName}`] === "owned" || tags["elbv2.k8s.aws/cluster"] === t.clusterName;
    const ours = <L extends { dnsName: string; name: string; tags: Readonly<Record<string, string>> }>(lb: L, kind: string): boolean => {
        const service = serviceOf.get(lb.dnsName.toLowerCase());
        if (!service) return false;
        if (taggedForCluster(lb.tags)) return true;
        keep({ kind, id: lb.name, name: `named by Service ${service}`, reason: `not tagged kubernetes.io/cluster/${t.clusterName}: owned, so not proven made by this cluster's controller` });
        return false;
    };
    // Load balancers proven ours in this or an earlier round: their interfaces outlive them by minutes.
    const ourLoadBalancers = new Set<string>();
    const ourClassic = new Set<string>();

    return {
        target: `AWS cluster ${t.clusterName} in ${t.region}`,
        kept,
        async list() {
            const [v2, classic, enis, groups, vols] = await Promise.all([
                client.loadBalancersV2(t.vpcId),
                client.classicLoadBalancers(t.vpcId),
                client.networkInterfaces(t.vpcId),
                client.securityGroups(t.vpcId),
                volumes.owned.length ? client.volumes(volumes.owned.map((v) => v.id)) : Promise.resolve([]),
            ]);
            const ownV2 = v2.filter((lb) => ours(lb, "load balancer"));
            const ownClassic = classic.filter((lb) => ours(lb, "classic load balancer"));
            for (const lb of [...ownV2, ...ownClassic]) ourLoadBalancers.add(lb.name);
            for (const lb of ownClassic) ourClassic.add(lb.name);
            const lbsLeft = ownV2.length + ownClassic.length;

            const ownVolumes: LeftoverResource[] = [];
            for (const v of vols) {
                const o = volumes.owned.find((x) => x.id === v.id);
                if (!o) continue;
                if (v.tags.CSIVolumeName === o.pv || v.tags["kubernetes.io/created-for/pv/name"] === o.pv) {
                    ownVolumes.push({ kind: "volume", id: v.id, name: o.pv, deletable: v.state === "available" });
                } else {
                    keep({ kind: "volume", id: v.id, name: `PersistentVolume ${o.pv}`, reason: `its CSIVolumeName tag does not name ${o.pv}, so the volume is not proven the one this cluster provisioned` });
                }
            }
            return [
                ...ownV2.map((lb): LeftoverResource => ({ kind: "load balancer", id: lb.arn, name: lb.name, deletable: true })),
                ...ownClassic.map((lb): LeftoverResource => ({ kind: "classic load balancer", id: lb.name, name: lb.name, deletable: true })),
                // Interfaces of our load balancers belong to the ELB service: it deletes them, the drain only waits.
                ...enis
                    .filter((e) => ourLoadBalancers.has(eniLoadBalancer(e.description) ?? ""))
                    .map((e): LeftoverResource => ({ kind: "network interface", id: e.id, name: e.description, deletable: false })),
                // The in-tree controller's group for a classic load balancer goes once the load balancer is gone.
                ...groups
                    .filter((g) => taggedForCluster(g.tags) && ourClassic.has(g.name.replace(/^k8s-elb-/, "")) && g.name.startsWith("k8s-elb-"))
                    .map((g): LeftoverResource => ({ kind: "security group", id: g.id, name: g.name, deletable: lbsLeft === 0 })),
                ...ownVolumes,
            ];
        },
        async remove(r) {
            switch (r.kind) {
                case "load balancer":
                    return client.deleteLoadBalancerV2(r.id);
                case "classic load balancer":
                    return client.deleteClassicLoadBalancer(r.id);
                case "security group":
                    return client.deleteSecurityGroup(r.id);
                case "volume":
                    return client.deleteVolume(r.id);
                default:
                    throw new Error(`the drain never deletes a ${r.kind}`);
            }
        },
    };
}

/** The load balancer name in an ELB network interface's description ("ELB net/<name>/<id>", "ELB app/...", "ELB <name>"). */
export function eniLoadBalancer(description: string): string | undefined {
    return /^ELB (?:(?:app|net|gwy)\/)?([^/\s]+)/.exec(description)?.[1];
}
