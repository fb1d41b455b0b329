import { beforeAll, describe, expect, it } from "vitest";
import { Vpc } from "../../components";
import { awsProvider, providerRef } from "../support/aws";
import { find, installMocks, ofType, promiseOf, Registration, settle } from "../support/mocks";

describe("Vpc with explicit zones and a single NAT gateway", () => {
    let regs: Registration[];
    let vpc: Vpc;
    let provider: string;

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        const aws = awsProvider();
        vpc = new Vpc("net", { clusterName: "mara-test", availabilityZones: ["us-east-1a", "us-east-1c"], natGateways: "single" }, { providers: [aws] });
        await settle();
        provider = await providerRef(aws);
    });

    it("creates a DNS-enabled VPC with MARA's address range", () => {
        expect(find(regs, "aws:ec2/vpc:Vpc", "net-vpc").inputs).toMatchObject({
            cidrBlock: "10.100.0.0/16",
            enableDnsHostnames: true,
            enableDnsSupport: true,
        });
    });

    it("places public and private subnets in the given zones with load balancer and cluster tags", () => {
        const pub = find(regs, "aws:ec2/subnet:Subnet", "net-public-1").inputs!;
        expect(pub).toMatchObject({ cidrBlock: "10.100.1.0/24", availabilityZone: "us-east-1c", mapPublicIpOnLaunch: true });
        expect(pub.tags).toMatchObject({ "kubernetes.io/role/elb": "1", "kubernetes.io/cluster/mara-test": "shared" });
        const priv = find(regs, "aws:ec2/subnet:Subnet", "net-private-0").inputs!;
        expect(priv).toMatchObject({ cidrBlock: "10.100.16.0/20", availabilityZone: "us-east-1a", mapPublicIpOnLaunch: false });
        expect(priv.tags).toMatchObject({ "kubernetes.io/role/internal-elb": "1", "kubernetes.io/cluster/mara-test": "shared" });
    });

    it("routes private subnets through the NAT gateway, not the internet gateway", () => {
        expect(ofType(regs, "aws:ec2/natGateway:NatGateway").map((r) => r.name)).toEqual(["net-nat-0"]);
        for (const i of [0, 1]) {
            const routes = find(regs, "aws:ec2/routeTable:RouteTable", `net-private-${i}`).inputs!.routes as Record<string, unknown>[];
            expect(routes).toEqual([expect.objectContaining({ cidrBlock: "0.0.0.0/0", natGatewayId: "net-nat-0-id" })]);
            expect(routes[0]).not.toHaveProperty("gatewayId");
        }
        const publicRoutes = find(regs, "aws:ec2/routeTable:RouteTable", "net-public").inputs!.routes as Record<string, unknown>[];
        expect(publicRoutes).toEqual([expect.objectContaining({ cidrBlock: "0.0.0.0/0", gatewayId: "net-igw-id" })]);
    });

    it("creates the NAT gateway in a public subnet after the internet gateway", () => {
        const nat = find(regs, "aws:ec2/natGateway:NatGateway", "net-nat-0");
        expect(nat.inputs).toMatchObject({ subnetId: "net-public-0-id", allocationId: "net-nat-0-id" });
        expect(nat.dependencies).toContain(find(regs, "aws:ec2/internetGateway:InternetGateway", "net-igw").urn);
    });

    it("parents every child to the component and gives each the explicit AWS provider", async () => {
        const urn = await promiseOf(vpc.urn);
        const children = regs.filter((r) => r.type.startsWith("aws:"));
        expect(children.length).toBe(15); // VPC, IGW, 3 route tables, 4 subnets, 4 associations, EIP, NAT
        for (const r of children) {
            expect(r.parent, r.name).toBe(urn);
            expect(r.provider, r.name).toBe(provider);
        }
    });

    it("exports subnet IDs in zone order", async () => {
        expect(await promiseOf(vpc.privateSubnetIds)).toEqual(["net-private-0-id", "net-private-1-id"]);
        expect(await promiseOf(vpc.availabilityZones)).toEqual(["us-east-1a", "us-east-1c"]);
    });
});

describe("Vpc without explicit zones", () => {
    it("takes the region's first zones that need no opt-in, one NAT gateway each", async () => {
        const { registrations, calls } = await installMocks();
        const aws = awsProvider("us-west-2");
        const vpc = new Vpc("net", { clusterName: "c", availabilityZoneCount: 3 }, { providers: [aws] });
        await settle();
        expect(await promiseOf(vpc.availabilityZones)).toEqual(["us-west-2a", "us-west-2b", "us-west-2c"]);
        const call = calls.find((c) => c.token === "aws:index/getAvailabilityZones:getAvailabilityZones")!;
        expect(call.inputs).toEqual({ state: "available", filters: [{ name: "opt-in-status", values: ["opt-in-not-required"] }] });
        expect(call.provider).toBe(await providerRef(aws));
        expect(ofType(registrations, "aws:ec2/natGateway:NatGateway")).toHaveLength(3);
    });
});

describe("Vpc argument checks", () => {
    it.each([
        [{ clusterName: "c", availabilityZones: ["us-east-1a"] }, "Vpc: availabilityZones lists 1 zone(s); EKS needs subnets in at least 2 zones and this layout holds at most 15."],
        [{ clusterName: "c", availabilityZoneCount: 20 }, "Vpc: availabilityZoneCount is 20; EKS needs subnets in at least 2 zones and this layout holds at most 15."],
        [{ clusterName: "c", availabilityZones: ["us-east-1a", "us-east-1a"] }, "Vpc: availabilityZones lists a zone twice: us-east-1a, us-east-1a."],
        [{ clusterName: "" }, "Vpc: clusterName is required; it tags the subnets for the cluster's load balancers."],
    ])("rejects %j before creating anything", async (args, message) => {
        const { registrations } = await installMocks();
        expect(() => new Vpc("bad", args)).toThrow(message);
        await settle();
        expect(registrations.filter((r) => r.type.startsWith("aws:"))).toEqual([]);
    });
});
