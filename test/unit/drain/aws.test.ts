/**
 * The AWS drain in an account full of neighbours: it deletes exactly what this cluster's records prove
 * it made, keeps what the user keeps, follows every page, and finishes although EKS's own security
 * groups and the VPC CNI's interfaces are still there (AWS refuses to delete those while the cluster runs).
 */
import { describe, expect, it } from "vitest";
import { awsDrainApi, EBS_CSI_DRIVER, eniLoadBalancer } from "../../../components/drain/aws";
import { awsDrainClient } from "../../../components/drain/awsSdk";
import { DrainProps, runDrain } from "../../../components/drain/run";
import { FakeAws, fakeClock, FakeKubernetes, FakePv, STUCK_CONTROLLER } from "../../support/fakeClouds";

const OURS = "kubernetes.io/cluster/mara-dev";
const VPC = "vpc-0ours";
const PV = (n: number) => `pvc-0000000${n}-aaaa-4bbb-8ccc-00000000000${n}`;
const provisioned = (name: string, handle: string, extra: Partial<FakePv> = {}): FakePv => ({
    name,
    reclaimPolicy: "Delete",
    driver: EBS_CSI_DRIVER,
    handle,
    provisionedBy: EBS_CSI_DRIVER,
    claim: `bos/data-${name}`,
    ...extra,
});

/** Our cluster's records and an account with every neighbour the issue lists, in pages of two. */
function neighbourhood() {
    const k8s = new FakeKubernetes(
        [
            provisioned(PV(1), "vol-ours1"),
            { name: "nfs-share", reclaimPolicy: "Delete", driver: "efs.csi.aws.com", handle: "fs-123", provisionedBy: "efs.csi.aws.com" },
            provisioned(PV(3), "vol-retain", { reclaimPolicy: "Retain" }),
            // Imported: a PV written by hand for an existing volume carries no provisioned-by.
            provisioned("imported-data", "vol-imported", { provisionedBy: undefined }),
            provisioned(PV(4), "vol-mismatch"),
            provisioned(PV(2), "vol-ours2"),
        ],
        [
            { namespace: "default", name: "web", type: "ClusterIP" },
            { namespace: "shop", name: "api", type: "LoadBalancer", hostnames: ["nlb-ours-1.elb.us-east-1.amazonaws.com"] },
            { namespace: "legacy", name: "classic", type: "LoadBalancer", hostnames: ["classic-ours-1.us-east-1.elb.amazonaws.com"], annotations: { [STUCK_CONTROLLER]: "true" } },
            { namespace: "team", name: "shared", type: "LoadBalancer", hostnames: ["nlb-shared-1.elb.us-east-1.amazonaws.com"] },
        ],
    );
    const aws = new FakeAws(
        [
            { arn: "arn:lb/prefix", name: "nlb-prefix", dnsName: "nlb-prefix-1.elb.us-east-1.amazonaws.com", vpcId: VPC, tags: { "kubernetes.io/cluster/mara-dev-2": "owned" } },
            { arn: "arn:lb/samename-othervpc", name: "nlb-other", dnsName: "nlb-other-1.elb.us-east-1.amazonaws.com", vpcId: "vpc-0other", tags: { [OURS]: "owned" } },
            { arn: "arn:lb/untracked", name: "nlb-untracked", dnsName: "nlb-untracked-1.elb.us-east-1.amazonaws.com", vpcId: VPC, tags: { [OURS]: "owned" } },
            { arn: "arn:lb/shared", name: "nlb-shared", dnsName: "nlb-shared-1.elb.us-east-1.amazonaws.com", vpcId: VPC, tags: { [OURS]: "shared" } },
            { arn: "arn:lb/ours", name: "nlb-ours", dnsName: "nlb-ours-1.elb.us-east-1.amazonaws.com", vpcId: VPC, tags: { [OURS]: "owned" } },
        ],
        [
            { name: "classic-theirs", dnsName: "classic-theirs-1.us-east-1.elb.amazonaws.com", vpcId: VPC, tags: { [OURS]: "notowned" } },
            { name: "classic-x", dnsName: "classic-x-1.us-east-1.elb.amazonaws.com", vpcId: "vpc-0other", tags: {} },
            { name: "classic-ours", dnsName: "classic-ours-1.us-east-1.elb.amazonaws.com", vpcId: VPC, tags: { [OURS]: "owned" } },
        ],
        [
            { id: "eni-cni-attached", description: "aws-K8S-i-0abc", status: "in-use", vpcId: VPC },
            { id: "eni-cni-free", description: "aws-K8S-i-0def", status: "available", vpcId: VPC },
            { id: "eni-neighbour", description: "ELB net/nlb-untracked/77", status: "in-use", vpcId: VPC },
            { id: "eni-ours-a", description: "ELB net/nlb-ours/01", status: "in-use", vpcId: VPC },
            { id: "eni-node", description: "", status: "in-use", vpcId: VPC },
            { id: "eni-ours-b", description: "ELB net/nlb-ours/01", status: "in-use", vpcId: VPC },
            { id: "eni-classic", description: "ELB classic-ours", status: "in-use", vpcId: VPC },
        ],
        [
            { id: "sg-eks-cluster", name: "eks-cluster-sg-mara-dev-1234", vpcId: VPC, tags: { [OURS]: "owned", "aws:eks:cluster-name": "mara-dev" } },
            { id: "sg-node", name: "mara-dev-node-sg", vpcId: VPC, tags: { [OURS]: "owned" } },
            { id: "sg-theirs", name: "k8s-elb-classic-theirs", vpcId: VPC, tags: { [OURS]: "notowned" } },
            { id: "sg-classic", name: "k8s-elb-classic-ours", vpcId: VPC, tags: { [OURS]: "owned" } },
        ],
        [
            // An earlier cluster of the same name, its volume kept on purpose with retainVolumes.
            { id: "vol-earlier", state: "available", tags: { [OURS]: "owned", CSIVolumeName: "pvc-earlier" } },
            // A different, non-EKS cluster with the same name in another VPC.
            { id: "vol-samename", state: "available", tags: { [OURS]: "owned", CSIVolumeName: "pvc-samename" } },
            { id: "vol-prefix", state: "available", tags: { "kubernetes.io/cluster/mara-dev-2": "owned" } },
            { id: "vol-shared", state: "available", tags: { [OURS]: "shared" } },
            { id: "vol-wrongvalue", state: "available", tags: { [OURS]: "notowned" } },
            { id: "vol-retain", state: "available", tags: { [OURS]: "owned", CSIVolumeName: PV(3) } },
            { id: "vol-imported", state: "available", tags: { [OURS]: "owned" } },
            { id: "vol-mismatch", state: "available", tags: { [OURS]: "owned", CSIVolumeName: "pvc-someone-else" } },
            { id: "vol-ours1", state: "in-use", detachIn: 2, tags: { [OURS]: "owned", CSIVolumeName: PV(1) } },
            { id: "vol-ours2", state: "available", tags: { [OURS]: "owned", CSIVolumeName: PV(2) } },
        ],
    );
    k8s.onServiceDeleted = (s) => aws.serviceDeleted(s);
    return { k8s, aws };
}

const PROPS: DrainProps = { cloud: "aws", clusterName: "mara-dev", region: "us-east-1", vpcId: VPC, kubeconfig: "fake", removeCrds: false, retainVolumes: false, timeoutMinutes: 15 };

async function destroy(world: ReturnType<typeof neighbourhood>, props: Partial<DrainProps> = {}) {
    const log: string[] = [];
    const p = { ...PROPS, ...props };
    const report = await runDrain(
        p,
        (m) => log.push(m),
        {
            cluster: () => world.k8s.client(),
            cloud: (q, records) => awsDrainApi(awsDrainClient(world.aws.sdk()), { region: q.region!, clusterName: q.clusterName, vpcId: q.vpcId!, retainVolumes: q.retainVolumes }, records),
        },
        { ...fakeClock(), graceMs: 120_000, pollMs: 15_000 },
    );
    return { report, log };
}

describe("AWS drain among neighbours", () => {
    it("deletes exactly this cluster's load balancers, their security group and its Delete volumes, and finishes", async () => {
        const world = neighbourhood();
        const { report, log } = await destroy(world);
        expect(report).toBeDefined();
        expect([...world.aws.deleted].sort()).toEqual(["arn:lb/ours", "classic:classic-ours", "sg-classic", "vol-ours1", "vol-ours2"]);
        // The drain itself deleted what the controllers did not: the stuck classic load balancer, its group, the volumes.
        expect(report!.deleted.map((r) => r.id).sort()).toEqual(["classic-ours", "sg-classic", "vol-ours1", "vol-ours2"]);
        expect(log.at(-1)).toBe("AWS cluster mara-dev in us-east-1: nothing this cluster created is left (4 resource(s) kept, listed above); the cluster can be deleted.");
    });

    it("leaves EKS's own security groups and the CNI's interfaces to the EKS and VPC deletion, never waiting for them", async () => {
        const world = neighbourhood();
        await destroy(world);
        expect(world.aws.groups.map((g) => g.id).sort()).toEqual(["sg-eks-cluster", "sg-node", "sg-theirs"]);
        expect(world.aws.enis.map((e) => e.id).sort()).toEqual(["eni-cni-attached", "eni-cni-free", "eni-neighbour", "eni-node"]);
        expect(world.aws.calls.some((c) => c.command === "ec2:DeleteNetworkInterface")).toBe(false);
    });

    it("reports what it keeps and why: Retain, imported, not proven, shared", async () => {
        const { report } = await destroy(neighbourhood());
        expect(report!.kept.map((k) => `${k.kind} ${k.id}: ${k.reason}`).sort()).toEqual([
            "load balancer nlb-shared: not tagged kubernetes.io/cluster/mara-dev: owned, so not proven made by this cluster's controller",
            `volume vol-imported: imported: the PersistentVolume was not provisioned by ${EBS_CSI_DRIVER} in this cluster`,
            `volume vol-mismatch: its CSIVolumeName tag does not name ${PV(4)}, so the volume is not proven the one this cluster provisioned`,
            "volume vol-retain: its PersistentVolume's reclaim policy is Retain",
        ]);
    });

    it("asks Kubernetes to delete the LoadBalancer Services still there, and waits for the controller before deleting itself", async () => {
        const world = neighbourhood();
        const { log } = await destroy(world);
        expect(world.k8s.deletedServices.sort()).toEqual(["legacy/classic", "shop/api", "team/shared"]);
        // The NLB went through its controller; the drain only waited for its interfaces.
        expect(log.some((m) => m.includes("waiting for Kubernetes to remove") && m.includes("eni-ours-a"))).toBe(true);
        expect(log.some((m) => /deleted leftover load balancer nlb-ours/.test(m))).toBe(false);
    });

    it("follows every page of every list: the ours on later pages are found", async () => {
        const world = neighbourhood();
        await destroy(world);
        for (const command of ["elbv2:DescribeLoadBalancers", "elb:DescribeLoadBalancers", "ec2:DescribeNetworkInterfaces", "ec2:DescribeSecurityGroups", "ec2:DescribeVolumes"]) {
            expect(world.aws.calls.some((c) => c.command === command && c.token !== undefined), command).toBe(true);
        }
        // nlb-ours is the fifth load balancer, classic-ours the third, vol-ours2 the last volume: all on a later page.
        expect(world.aws.deleted).toEqual(expect.arrayContaining(["arn:lb/ours", "classic:classic-ours", "vol-ours2"]));
    });

    it("keeps every volume when mara:retainVolumes is set", async () => {
        const world = neighbourhood();
        const { report } = await destroy(world, { retainVolumes: true });
        expect(world.aws.deleted.filter((id) => id.startsWith("vol-"))).toEqual([]);
        expect(report!.kept.filter((k) => k.reason === "mara:retainVolumes is true").map((k) => k.id).sort()).toEqual(["vol-imported", "vol-mismatch", "vol-ours1", "vol-ours2", "vol-retain"]);
    });

    it("deletes nothing when the cluster's records cannot be read", async () => {
        const world = neighbourhood();
        world.k8s.unreachable = true;
        const { report, log } = await destroy(world);
        expect(report).toBeUndefined();
        expect(world.aws.deleted).toEqual([]);
        expect(world.aws.calls).toEqual([]);
        expect(log[0]).toMatch(/cannot read the cluster's PersistentVolumes and Services \(connect ECONNREFUSED .*\)\. Nothing can be proven to be this cluster's, so the drain deletes nothing/);
    });

    it("reads the load balancer name out of an interface description", () => {
        expect(eniLoadBalancer("ELB net/a1b2c3/0123abc")).toBe("a1b2c3");
        expect(eniLoadBalancer("ELB app/k8s-web/9876")).toBe("k8s-web");
        expect(eniLoadBalancer("ELB classic-lb")).toBe("classic-lb");
        expect(eniLoadBalancer("aws-K8S-i-0abc")).toBeUndefined();
    });
});
