/**
 * The AWS drain against moto (the AWS API emulator, test/aws-emulator/), in an account full of
 * neighbours built through the AWS API: it deletes exactly what this cluster's records prove it made,
 * keeps what the user keeps, follows every page, and finishes although EKS's own security groups and the
 * VPC CNI's interfaces are still there. What moto does not model is put in front of it and listed in
 * test/aws-emulator/gaps.ts (DependencyViolation, tags of a deleted load balancer, EC2 paging, ELB's
 * interfaces); the faults are injected above the SDK client (test/aws-emulator/faults.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { awsDrainApi, EBS_CSI_DRIVER, eniLoadBalancer } from "../../../components/drain/aws";
import { awsDrainClient } from "../../../components/drain/awsSdk";
import { DrainProps, runDrain } from "../../../components/drain/run";
import { authFailure, throttled, unavailable } from "../../aws-emulator/faults";
import { Moto, startMoto } from "../../aws-emulator/moto";
import { AwsWorld } from "../../aws-emulator/world";
import { FakeKubernetes, FakePv, FakeService, STUCK_CONTROLLER } from "../../support/fakeClouds";

const CLUSTER = "mara-dev";
const OURS = `kubernetes.io/cluster/${CLUSTER}`;
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

// A drain here is a few hundred calls to moto, a Python server: seconds each test on a quiet machine,
// several times that on two cores shared with other builds.
vi.setConfig({ testTimeout: 120_000 });

let moto: Moto;
let missing: Error | undefined;
beforeAll(async () => {
    // Kept for each test to throw, so that every test fails (a failed beforeAll only marks them skipped).
    moto = await startMoto().catch((e: unknown) => ((missing = e instanceof Error ? e : new Error(String(e))), undefined as unknown as Moto));
}, 120_000);
afterAll(async () => {
    await moto?.stop();
});
beforeEach(async () => {
    if (missing) throw missing;
    await moto.reset();
});

/** Our cluster's records and an account with every neighbour, on several pages of every list. */
async function neighbourhood(pages: ConstructorParameters<typeof AwsWorld>[1] = {}) {
    const aws = new AwsWorld(moto.endpoint, pages);
    const vpc = await aws.vpc("10.0.0.0/16");
    const other = await aws.vpc("10.1.0.0/16");

    // EKS's cluster group on the nodes, where the controller lets a classic load balancer's traffic in.
    const nodes = await aws.group("sg-eks-cluster", vpc, `eks-cluster-sg-${CLUSTER}-1234`, { [OURS]: "owned", "aws:eks:cluster-name": CLUSTER });
    const classicGroup = await aws.group("sg-classic", vpc, "k8s-elb-classicours", { [OURS]: "owned" });
    await aws.allowFrom(nodes, classicGroup);
    const theirGroup = await aws.group("sg-theirs", vpc, "k8s-elb-classictheirs", { [OURS]: "notowned" });
    await aws.group("sg-user", vpc, "users-own", {});
    const node = await aws.instance("node", vpc);
    await aws.eni("eni-cni", vpc, "aws-K8S-i-0abc");

    const nlbOurs = await aws.nlb("nlb-ours", "nlb-ours", vpc, { [OURS]: "owned" });
    await aws.nlb("nlb-prefix", "nlb-prefix", vpc, { [`${OURS}-2`]: "owned" });
    await aws.nlb("nlb-untracked", "nlb-untracked", vpc, { [OURS]: "owned" });
    const nlbShared = await aws.nlb("nlb-shared", "nlb-shared", vpc, { [OURS]: "shared" });
    // Tagged for our cluster and even named by one of its Services, but in another VPC.
    const nlbElsewhere = await aws.nlb("nlb-othervpc", "nlb-othervpc", other, { [OURS]: "owned" });
    const classicOurs = await aws.classic("classic-ours", "classicours", vpc, { [OURS]: "owned" }, classicGroup);
    await aws.classic("classic-theirs", "classictheirs", vpc, { [OURS]: "notowned" }, theirGroup);
    await aws.classic("classic-othervpc", "classicothervpc", other, {});

    const vol = (label: string, tags: Record<string, string>, attach?: { instance: string; until: number }) => aws.volume(label, tags, attach);
    // An earlier cluster of the same name, its volume kept on purpose; another cluster's; a prefix; shared.
    await vol("vol-earlier", { [OURS]: "owned", CSIVolumeName: "pvc-earlier" });
    await vol("vol-prefix", { [`${OURS}-2`]: "owned" });
    await vol("vol-shared", { [OURS]: "shared" });
    const retain = await vol("vol-retain", { [OURS]: "owned", CSIVolumeName: PV(3) });
    const imported = await vol("vol-imported", { [OURS]: "owned" });
    const mismatch = await vol("vol-mismatch", { [OURS]: "owned", CSIVolumeName: "pvc-someone-else" });
    const ours1 = await vol("vol-ours1", { [OURS]: "owned", CSIVolumeName: PV(1) }, { instance: node, until: 30_000 });
    const ours2 = await vol("vol-ours2", { [OURS]: "owned", CSIVolumeName: PV(2) });

    const services: FakeService[] = [
        { namespace: "default", name: "web", type: "ClusterIP" },
        { namespace: "shop", name: "api", type: "LoadBalancer", hostnames: [nlbOurs] },
        { namespace: "legacy", name: "classic", type: "LoadBalancer", hostnames: [classicOurs], annotations: { [STUCK_CONTROLLER]: "true" } },
        { namespace: "team", name: "shared", type: "LoadBalancer", hostnames: [nlbShared] },
        { namespace: "odd", name: "elsewhere", type: "LoadBalancer", hostnames: [nlbElsewhere], annotations: { [STUCK_CONTROLLER]: "true" } },
    ];
    const k8s = new FakeKubernetes(
        [
            provisioned(PV(1), ours1),
            { name: "nfs-share", reclaimPolicy: "Delete", driver: "efs.csi.aws.com", handle: "fs-123", provisionedBy: "efs.csi.aws.com" },
            provisioned(PV(3), retain, { reclaimPolicy: "Retain" }),
            // Imported: a PV written by hand for an existing volume carries no provisioned-by.
            provisioned("imported-data", imported, { provisionedBy: undefined }),
            provisioned(PV(4), mismatch),
            provisioned(PV(2), ours2),
        ],
        services,
    );
    k8s.onServiceDeleted = (s) => aws.serviceDeleted(s);
    return { k8s, aws, vpc };
}

type World = Awaited<ReturnType<typeof neighbourhood>>;

async function destroy(world: World, props: Partial<DrainProps> = {}) {
    const log: string[] = [];
    const p: DrainProps = { cloud: "aws", clusterName: CLUSTER, region: "us-east-1", vpcId: world.vpc.id, kubeconfig: "fake", removeCrds: false, retainVolumes: false, timeoutMinutes: 15, ...props };
    const report = await runDrain(
        p,
        (m) => log.push(m),
        {
            cluster: () => world.k8s.client(),
            cloud: (q, records) => awsDrainApi(awsDrainClient(world.aws.sdk()), { region: q.region!, clusterName: q.clusterName, vpcId: q.vpcId!, retainVolumes: q.retainVolumes }, records),
        },
        // Polls every 30 s rather than 15: half the rounds, each a few dozen calls to moto.
        { ...world.aws.clock, graceMs: 120_000, pollMs: 30_000 },
    );
    return { report, log };
}

/** What the drain may take: our NLB (its controller), the stuck classic one, its group, ELB's interfaces of both, our two volumes. */
const OURS_GONE = ["classic-ours", "classic-ours/eni-0", "classic-ours/eni-1", "nlb-ours", "nlb-ours/eni-0", "nlb-ours/eni-1", "sg-classic", "vol-ours1", "vol-ours2"];

describe("AWS drain among neighbours, against moto", () => {
    it("deletes exactly this cluster's load balancers, their group and its Delete volumes, and finishes", async () => {
        const world = await neighbourhood();
        const { report, log } = await destroy(world);
        expect(await world.aws.gone()).toEqual(OURS_GONE);
        // The drain itself deleted what the controller did not: the stuck classic load balancer, its group, the volumes.
        expect(report!.deleted.map((r) => r.name).sort()).toEqual(["classicours", "k8s-elb-classicours", PV(1), PV(2)]);
        expect(log.at(-1)).toBe("AWS cluster mara-dev in us-east-1: nothing this cluster created is left (4 resource(s) kept, listed above); the cluster can be deleted.");
    });

    it("removes the nodes' rule that refers to a classic load balancer's group before deleting the group, as the controller does", async () => {
        const world = await neighbourhood();
        expect(await world.aws.referencedBy(world.aws.id("sg-eks-cluster"))).toEqual([world.aws.id("sg-classic")]);
        await destroy(world);
        expect(await world.aws.referencedBy(world.aws.id("sg-eks-cluster"))).toEqual([]);
        // AWS refused the group while ELB's interfaces still used it: the drain waited instead of failing.
        expect(world.aws.calls.filter((c) => c.key === "ec2:RevokeSecurityGroupIngress")).toHaveLength(1);
    });

    it("never removes a rule of a group that is not this cluster's, and says which one keeps the group at the timeout", async () => {
        const world = await neighbourhood();
        const users = world.aws.id("sg-user");
        await world.aws.allowFrom(users, world.aws.id("sg-classic"));
        await expect(destroy(world, { timeoutMinutes: 10 })).rejects.toThrow(
            new RegExp(`still exist after 10 min: security group k8s-elb-classicours \\(${world.aws.id("sg-classic")}\\) \\[waits for the rules of ${users} \\(not this cluster's groups\\) that refer to it to be removed\\]`),
        );
        expect(await world.aws.referencedBy(users)).toEqual([world.aws.id("sg-classic")]);
        expect(await world.aws.gone()).not.toContain("sg-classic");
    });

    it("leaves EKS's own groups and the CNI's interfaces to the EKS and VPC deletion, never waiting for them", async () => {
        const world = await neighbourhood();
        await destroy(world);
        const gone = await world.aws.gone();
        for (const label of ["sg-eks-cluster", "sg-theirs", "sg-user", "eni-cni", "nlb-untracked/eni-0", "classic-theirs/eni-0"]) expect(gone, label).not.toContain(label);
        expect(world.aws.calls.some((c) => c.key === "ec2:DeleteNetworkInterface")).toBe(false);
    });

    it("reports what it keeps and why: Retain, imported, not proven, shared", async () => {
        const world = await neighbourhood();
        const { report } = await destroy(world);
        const id = (label: string) => world.aws.id(label);
        expect(report!.kept.map((k) => `${k.kind} ${k.id}: ${k.reason}`).sort()).toEqual(
            [
                `load balancer nlb-shared: not tagged ${OURS}: owned, so not proven made by this cluster's controller`,
                `volume ${id("vol-imported")}: imported: the PersistentVolume was not provisioned by ${EBS_CSI_DRIVER} in this cluster`,
                `volume ${id("vol-mismatch")}: its CSIVolumeName tag does not name ${PV(4)}, so the volume is not proven the one this cluster provisioned`,
                `volume ${id("vol-retain")}: its PersistentVolume's reclaim policy is Retain`,
            ].sort(),
        );
    });

    it("asks Kubernetes to delete the LoadBalancer Services, waits for the controller, and waits for ELB's interfaces", async () => {
        const world = await neighbourhood();
        const { log } = await destroy(world);
        expect(world.k8s.deletedServices.sort()).toEqual(["legacy/classic", "odd/elsewhere", "shop/api", "team/shared"]);
        expect(log.some((m) => m.includes("waiting for Kubernetes to remove") && m.includes(world.aws.id("nlb-ours/eni-0")))).toBe(true);
        expect(log.some((m) => /deleted leftover load balancer nlb-ours/.test(m))).toBe(false);
    });

    it("follows every page of every list (moto's own pages for load balancers)", async () => {
        const world = await neighbourhood({ ec2PageSize: 2 });
        await destroy(world);
        for (const key of ["elbv2:DescribeLoadBalancers", "elb:DescribeLoadBalancers", "ec2:DescribeNetworkInterfaces", "ec2:DescribeSecurityGroups", "ec2:DescribeVolumes"]) {
            expect(world.aws.calls.some((c) => c.key === key && c.token !== undefined), key).toBe(true);
        }
    });

    it("never deletes a load balancer made during the drain under the name of one it deleted: the set is fixed at the first look", async () => {
        const world = await neighbourhood();
        let recreate = false;
        world.aws.faults.on("elb:DeleteLoadBalancer", 1, () => void (recreate = true));
        world.aws.faults.on("elb:DescribeLoadBalancers", 1_000, async () => {
            if (!recreate) return;
            recreate = false;
            // Same name, same VPC, same DNS name, even tagged for a cluster of our name: still not the one the Service named.
            await world.aws.classic("classic-again", "classicours", world.vpc, { [OURS]: "owned" });
        });
        const { report } = await destroy(world);
        expect(report!.deleted.filter((r) => r.kind === "classic load balancer")).toHaveLength(1);
        const left = (await world.aws.raw("elb", "DescribeLoadBalancers", {})).LoadBalancerDescriptions as { LoadBalancerName: string }[];
        expect(left.map((l) => l.LoadBalancerName)).toContain("classicours");
    });

    it("keeps every volume when mara:retainVolumes is set", async () => {
        const world = await neighbourhood();
        const { report } = await destroy(world, { retainVolumes: true });
        expect((await world.aws.gone()).filter((l) => l.startsWith("vol-"))).toEqual([]);
        expect(report!.kept.filter((k) => k.reason === "mara:retainVolumes is true")).toHaveLength(5);
    });

    it("deletes nothing, and calls nothing, when the cluster's records cannot be read", async () => {
        const world = await neighbourhood();
        world.k8s.unreachable = true;
        const { report, log } = await destroy(world);
        expect(report).toBeUndefined();
        expect(await world.aws.gone()).toEqual([]);
        expect(world.aws.calls).toEqual([]);
        expect(log[0]).toMatch(/cannot read the cluster's PersistentVolumes and Services \(connect ECONNREFUSED .*\)\. Nothing can be proven to be this cluster's, so the drain deletes nothing/);
    });
});

describe("AWS drain under faults, against moto", () => {
    it("reads a classic load balancer's tags again one by one when one in the batch was deleted between the list and its tags", async () => {
        const world = await neighbourhood();
        // Another party deletes a neighbour right after the first listing: moto itself fails the whole batch.
        world.aws.faults.on("elb:DescribeTags", 1, async () => {
            await world.aws.raw("elb", "DeleteLoadBalancer", { LoadBalancerName: "classictheirs" });
        });
        await destroy(world);
        expect(world.aws.faults.pending("elb:DescribeTags")).toBe(0);
        expect(await world.aws.gone()).toEqual([...OURS_GONE, "classic-theirs"].sort());
    });

    it("does the same for network load balancers (ELBv2 fails the batch: a gap moto does not model)", async () => {
        const world = await neighbourhood();
        world.aws.faults.on("elbv2:DescribeTags", 1, async () => {
            await world.aws.raw("elbv2", "DeleteLoadBalancer", { LoadBalancerArn: world.aws.id("nlb-prefix") });
        });
        await destroy(world);
        expect(world.aws.faults.pending("elbv2:DescribeTags")).toBe(0);
        expect(await world.aws.gone()).toEqual([...OURS_GONE, "nlb-prefix"].sort());
    });

    it("retries throttling and 503s with backoff within the deadline, and finishes", async () => {
        const world = await neighbourhood();
        world.aws.faults.on("ec2:DescribeNetworkInterfaces", 4, throttled).on("ec2:DescribeVolumes", 2, unavailable);
        const { log } = await destroy(world);
        expect(world.aws.faults.pending("ec2:DescribeNetworkInterfaces") + world.aws.faults.pending("ec2:DescribeVolumes")).toBe(0);
        expect(log.filter((m) => m.includes("could not list its resources (RequestLimitExceeded"))).toHaveLength(4);
        expect(await world.aws.gone()).toEqual(OURS_GONE);
    });

    it("fails at the timeout, naming the fault, when the API never recovers", async () => {
        const world = await neighbourhood();
        world.aws.faults.on("ec2:DescribeSecurityGroups", 10_000, unavailable);
        await expect(destroy(world, { timeoutMinutes: 3 })).rejects.toThrow(/the cloud's API kept failing for 3 min \(last: ServiceUnavailable: .*\), so the drain cannot tell/);
        expect(await world.aws.gone()).toEqual([]);
    });

    it("fails at once on refused credentials, deleting nothing", async () => {
        const world = await neighbourhood();
        world.aws.faults.on("ec2:DescribeVolumes", 1, authFailure);
        await expect(destroy(world)).rejects.toThrow("AWS cluster mara-dev in us-east-1: the cloud's API refused a list call, which no retry can fix: AuthFailure: AWS was not able to validate the provided access credentials");
        expect(await world.aws.gone()).toEqual([]);
        expect(world.k8s.deletedServices).toEqual([]);
    });

    it("counts a delete answered 'not found' as done (the volume went by another hand)", async () => {
        const world = await neighbourhood();
        world.aws.faults.on("ec2:DeleteVolume", 1, async (input) => {
            await world.aws.raw("ec2", "DeleteVolume", input);
        });
        const { log } = await destroy(world);
        expect(await world.aws.gone()).toEqual(OURS_GONE);
        expect(log.some((m) => m.includes("could not delete volume"))).toBe(false);
    });
});

describe("interface descriptions", () => {
    it("reads the load balancer name out of an interface description", () => {
        expect(eniLoadBalancer("ELB net/a1b2c3/0123abc")).toBe("a1b2c3");
        expect(eniLoadBalancer("ELB app/k8s-web/9876")).toBe("k8s-web");
        expect(eniLoadBalancer("ELB classic-lb")).toBe("classic-lb");
        expect(eniLoadBalancer("aws-K8S-i-0abc")).toBeUndefined();
    });
});
