/**
 * What Kubernetes made in AWS for one cluster, as the cluster's records prove it:
 * - load balancers (NLB/ALB and classic) whose DNS name a LoadBalancer Service's status names, in the
 *   stack's VPC (a VPC ID no other stack has), tagged for the cluster by its controller, as found at the
 *   first look; their network interfaces (AWS deletes those itself, so the drain only waits), and a
 *   classic load balancer's `k8s-elb-<name>` security group, once the rules of the cluster's own groups
 *   that refer to it are removed (as the in-tree controller does before it deletes that group);
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
    /** When it was created (ISO 8601), which tells it from a later one of the same name; empty when unknown. */
    readonly createdTime: string;
    readonly tags: Readonly<Record<string, string>>;
}

/** An ingress rule of a security group that admits traffic from another group. */
export interface AwsGroupReference {
    /** The group the rule admits traffic from. */
    readonly groupId: string;
    /** The rule's protocol and ports, as RevokeSecurityGroupIngress needs them to name the rule. */
    readonly ipProtocol: string;
    readonly fromPort?: number;
    readonly toPort?: number;
}

/** A security group with its tags and the groups its ingress rules refer to. */
export interface AwsSecurityGroup {
    readonly id: string;
    readonly name: string;
    readonly tags: Readonly<Record<string, string>>;
    /** Its ingress rules that admit traffic from another group (one entry per rule and group). */
    readonly referencesTo: readonly AwsGroupReference[];
}

/** The calls the AWS drain makes, each following AWS's pagination (a fake implements them in tests). */
export interface AwsDrainClient {
    /** ELBv2 load balancers of the VPC with their tags; one that disappears while they are read is left out. */
    loadBalancersV2(vpcId: string): Promise<AwsLoadBalancerV2[]>;
    /** Classic load balancers of the VPC with their tags; one that disappears while they are read is left out. */
    classicLoadBalancers(vpcId: string): Promise<AwsClassicLoadBalancer[]>;
    /** Network interfaces of the VPC. */
    networkInterfaces(vpcId: string): Promise<{ id: string; description: string; status: string }[]>;
    /** Security groups of the VPC with their tags and the groups their ingress rules refer to. */
    securityGroups(vpcId: string): Promise<AwsSecurityGroup[]>;
    /** The volumes among `ids` that still exist. */
    volumes(ids: readonly string[]): Promise<{ id: string; state: string; tags: Readonly<Record<string, string>> }[]>;
    deleteLoadBalancerV2(arn: string): Promise<void>;
    deleteClassicLoadBalancer(name: string): Promise<void>;
    /** Removes one ingress rule of `groupId` that admits traffic from another group. */
    revokeIngress(groupId: string, rule: AwsGroupReference): Promise<void>;
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

/** The prefix of the security group the in-tree controller makes for a classic load balancer (`k8s-elb-<load balancer name>`). */
export const CLASSIC_GROUP_PREFIX = "k8s-elb-";

/** The AWS view of one cluster's leftovers, decided by its records. */
export function awsDrainApi(client: AwsDrainClient, t: AwsDrainTarget, records: ClusterRecords): DrainApi {
    const volumes = volumeOwnership(records.volumes, EBS_CSI_DRIVER, t.retainVolumes);
    const kept: KeptResource[] = [...volumes.kept];
    const keep = (k: KeptResource) => {
        if (!kept.some((x) => x.kind === k.kind && x.id === k.id)) kept.push(k);
    };
    const clusterTag = `kubernetes.io/cluster/${t.clusterName}`;
    // Which Service names each host name, so a kept load balancer can be reported by its Service.
    const serviceOf = new Map(records.loadBalancers.flatMap((lb) => lb.hostnames.map((h) => [h.toLowerCase(), lb.service] as const)));
    // The in-tree controller tags kubernetes.io/cluster/<name>: owned; the AWS Load Balancer Controller elbv2.k8s.aws/cluster.
    const taggedForCluster = (tags: Readonly<Record<string, string>>) => tags[clusterTag] === "owned" || tags["elbv2.k8s.aws/cluster"] === t.clusterName;
    // The groups the controller adds a classic load balancer's ingress rule to: the nodes' groups, which carry
    // the cluster tag with any value (EKS's cluster group says owned; groups shared between clusters, shared).
    const clusterGroup = (g: AwsSecurityGroup) => g.tags[clusterTag] !== undefined || g.tags["aws:eks:cluster-name"] === t.clusterName;
    const ours = (lb: { dnsName: string; name: string; tags: Readonly<Record<string, string>> }, kind: string): boolean => {
        const service = serviceOf.get(lb.dnsName.toLowerCase());
        if (!service) return false;
        if (taggedForCluster(lb.tags)) return true;
        keep({ kind, id: lb.name, name: `named by Service ${service}`, reason: `not tagged ${clusterTag}: owned, so not proven made by this cluster's controller` });
        return false;
    };
    const classicKey = (lb: AwsClassicLoadBalancer) => `${lb.name}@${lb.createdTime}`;
    // Fixed at the first look, while the Services still name their load balancers: a load balancer that
    // appears later (another's, with a name or address ours had) is never ours.
    let proven: { v2: Set<string>; classic: Set<string>; enis: Set<string>; classicNames: Set<string> } | undefined;
    // Rules that admit traffic from a classic load balancer's group, by group: removed before the group is deleted.
    let referencesTo = new Map<string, { from: AwsSecurityGroup; rule: AwsGroupReference }[]>();

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
            if (!proven) {
                const ownV2 = v2.filter((lb) => ours(lb, "load balancer"));
                const ownClassic = classic.filter((lb) => ours(lb, "classic load balancer"));
                const names = new Set([...ownV2, ...ownClassic].map((lb) => lb.name));
                proven = {
                    v2: new Set(ownV2.map((lb) => lb.arn)),
                    classic: new Set(ownClassic.map(classicKey)),
                    // Their interfaces name them and outlive them by minutes (by ID: a later load balancer of the same name has its own).
                    enis: new Set(enis.filter((e) => names.has(eniLoadBalancer(e.description) ?? "")).map((e) => e.id)),
                    // A classic one's group is named after it.
                    classicNames: new Set(ownClassic.map((lb) => lb.name)),
                };
            }
            const ownV2 = v2.filter((lb) => proven!.v2.has(lb.arn));
            const ownClassic = classic.filter((lb) => proven!.classic.has(classicKey(lb)));
            const ownEnis = enis.filter((e) => proven!.enis.has(e.id));

            referencesTo = new Map();
            for (const from of groups) for (const rule of from.referencesTo) if (rule.groupId !== from.id) referencesTo.set(rule.groupId, [...(referencesTo.get(rule.groupId) ?? []), { from, rule }]);
            // The in-tree controller's group for a classic load balancer: AWS refuses to delete it while the load
            // balancer or its interfaces use it, or a rule of another group refers to it. The controller removes its
            // rule from the nodes' groups first; the drain does the same, and never touches a group not this cluster's.
            const classicGroups = groups
                .filter((g) => g.name.startsWith(CLASSIC_GROUP_PREFIX) && taggedForCluster(g.tags) && proven!.classicNames.has(g.name.slice(CLASSIC_GROUP_PREFIX.length)))
                .map((g): LeftoverResource => {
                    const lbName = g.name.slice(CLASSIC_GROUP_PREFIX.length);
                    const foreign = (referencesTo.get(g.id) ?? []).filter((r) => !clusterGroup(r.from)).map((r) => r.from.id);
                    const waitingFor = ownClassic.some((lb) => lb.name === lbName)
                        ? `its load balancer ${lbName} to be deleted`
                        : ownEnis.some((e) => eniLoadBalancer(e.description) === lbName)
                          ? `the network interfaces of ${lbName} to be released`
                          : foreign.length
                            ? `the rules of ${[...new Set(foreign)].join(", ")} (not this cluster's groups) that refer to it to be removed`
                            : undefined;
                    return { kind: "security group", id: g.id, name: g.name, deletable: !waitingFor, ...(waitingFor ? { waitingFor } : {}) };
                });

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
                ...ownEnis.map((e): LeftoverResource => ({ kind: "network interface", id: e.id, name: e.description, deletable: false })),
                ...classicGroups,
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
                    // Only rules of this cluster's groups are listed as removable (list() checked the rest).
                    for (const { from, rule } of (referencesTo.get(r.id) ?? []).filter((x) => clusterGroup(x.from))) await client.revokeIngress(from.id, rule);
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
