import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import { DEFAULTS, withDefaults } from "../contracts";
import { MAX_ZONES, planZones } from "./vpcLayout";

/** Arguments of {@link Vpc}. */
export interface VpcArgs {
    /**
     * Name of the Kubernetes cluster that will use this network. Written into the
     * `kubernetes.io/cluster/<name>` subnet tag, which the cloud controller needs to place load
     * balancers and which lets cleanup find what Kubernetes created. Required.
     */
    clusterName: string;
    /** VPC address range; must be a /16. Default `10.100.0.0/16` (MARA's). */
    cidrBlock?: string;
    /**
     * Availability zones to create subnets in, e.g. `["us-east-1a", "us-east-1b"]`. At least two
     * (EKS needs two), at most 15. Default: the first {@link VpcArgs.availabilityZoneCount} zones of the
     * provider's region that need no opt-in.
     */
    availabilityZones?: string[];
    /** How many zones to use when `availabilityZones` is not given. Default 3. Ignored otherwise. */
    availabilityZoneCount?: number;
    /**
     * NAT gateways for the private subnets: `perAz` (default) gives each zone its own, so losing a
     * zone does not cut the others off; `single` shares one, which is cheaper.
     */
    natGateways?: "perAz" | "single";
    /** Extra tags for every resource (the AWS provider's default tags apply as well). */
    tags?: Record<string, string>;
}

/**
 * The network for an EKS cluster: a VPC with DNS support, public subnets behind an internet gateway
 * for internet-facing load balancers, and private subnets for the nodes that reach out through NAT
 * gateways (MARA routed its "private" subnets through the internet gateway).
 */
export class Vpc extends pulumi.ComponentResource {
    /** ID of the VPC. */
    public readonly vpcId: pulumi.Output<string>;
    /** IDs of the public subnets, one per zone, in zone order. */
    public readonly publicSubnetIds: pulumi.Output<string[]>;
    /** IDs of the private subnets, one per zone, in zone order. */
    public readonly privateSubnetIds: pulumi.Output<string[]>;
    /** The availability zones used, in order. */
    public readonly availabilityZones: pulumi.Output<string[]>;

    constructor(name: string, args: VpcArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:infra:Vpc", name, {}, opts);
        const a = withDefaults(DEFAULTS.vpc, args);
        const zoneCount = a.availabilityZones?.length ?? a.availabilityZoneCount;
        validateVpcArgs(a.clusterName, zoneCount, a.availabilityZones);
        const layout = planZones(a.cidrBlock, zoneCount, a.natGateways);
        const tag = (role: string, extra: Record<string, string> = {}) => ({ ...a.tags, Name: `${a.clusterName}-${role}`, ...extra });
        const clusterTag = { [`kubernetes.io/cluster/${a.clusterName}`]: "shared" };

        const zones = a.availabilityZones
            ? pulumi.output(a.availabilityZones)
            : firstZones(zoneCount, this);

        const vpc = new aws.ec2.Vpc(
            `${name}-vpc`,
            { cidrBlock: a.cidrBlock, enableDnsHostnames: true, enableDnsSupport: true, tags: tag("vpc") },
            { parent: this },
        );
        const igw = new aws.ec2.InternetGateway(`${name}-igw`, { vpcId: vpc.id, tags: tag("igw") }, { parent: this });
        const publicRoutes = new aws.ec2.RouteTable(
            `${name}-public`,
            { vpcId: vpc.id, routes: [{ cidrBlock: "0.0.0.0/0", gatewayId: igw.id }], tags: tag("public") },
            { parent: this },
        );

        const publicSubnets = layout.map((z) => {
            const subnet = new aws.ec2.Subnet(
                `${name}-public-${z.index}`,
                {
                    vpcId: vpc.id,
                    cidrBlock: z.publicCidr,
                    availabilityZone: zones.apply((names) => names[z.index]!),
                    mapPublicIpOnLaunch: true,
                    tags: tag(`public-${z.index}`, { ...clusterTag, "kubernetes.io/role/elb": "1" }),
                },
                { parent: this },
            );
            new aws.ec2.RouteTableAssociation(
                `${name}-public-${z.index}`,
                { subnetId: subnet.id, routeTableId: publicRoutes.id },
                { parent: this },
            );
            return subnet;
        });

        // NAT gateways live in public subnets; they need the internet gateway attached to work.
        const natZones = [...new Set(layout.map((z) => z.natZone))];
        const natGateways = new Map(
            natZones.map((i) => {
                const eip = new aws.ec2.Eip(`${name}-nat-${i}`, { domain: "vpc", tags: tag(`nat-${i}`) }, { parent: this });
                const nat = new aws.ec2.NatGateway(
                    `${name}-nat-${i}`,
                    { allocationId: eip.id, subnetId: publicSubnets[i]!.id, tags: tag(`nat-${i}`) },
                    { parent: this, dependsOn: [igw] },
                );
                return [i, nat] as const;
            }),
        );

        const privateSubnets = layout.map((z) => {
            const subnet = new aws.ec2.Subnet(
                `${name}-private-${z.index}`,
                {
                    vpcId: vpc.id,
                    cidrBlock: z.privateCidr,
                    availabilityZone: zones.apply((names) => names[z.index]!),
                    mapPublicIpOnLaunch: false,
                    tags: tag(`private-${z.index}`, { ...clusterTag, "kubernetes.io/role/internal-elb": "1" }),
                },
                { parent: this },
            );
            const routes = new aws.ec2.RouteTable(
                `${name}-private-${z.index}`,
                {
                    vpcId: vpc.id,
                    routes: [{ cidrBlock: "0.0.0.0/0", natGatewayId: natGateways.get(z.natZone)!.id }],
                    tags: tag(`private-${z.index}`),
                },
                { parent: this },
            );
            new aws.ec2.RouteTableAssociation(
                `${name}-private-${z.index}`,
                { subnetId: subnet.id, routeTableId: routes.id },
                { parent: this },
            );
            return subnet;
        });

        this.vpcId = vpc.id;
        this.publicSubnetIds = pulumi.all(publicSubnets.map((s) => s.id));
        this.privateSubnetIds = pulumi.all(privateSubnets.map((s) => s.id));
        this.availabilityZones = zones;
        this.registerOutputs({
            vpcId: this.vpcId,
            publicSubnetIds: this.publicSubnetIds,
            privateSubnetIds: this.privateSubnetIds,
            availabilityZones: this.availabilityZones,
        });
    }
}

/** Checks {@link VpcArgs} that decide the network's shape; throws with the argument and the fix. */
export function validateVpcArgs(clusterName: string, zoneCount: number, zones?: string[]): void {
    if (!clusterName) throw new Error("Vpc: clusterName is required; it tags the subnets for the cluster's load balancers.");
    if (!Number.isInteger(zoneCount) || zoneCount < 2 || zoneCount > MAX_ZONES) {
        throw new Error(
            `Vpc: ${zones ? `availabilityZones lists ${zoneCount} zone(s)` : `availabilityZoneCount is ${zoneCount}`}; ` +
                `EKS needs subnets in at least 2 zones and this layout holds at most ${MAX_ZONES}.`,
        );
    }
    if (zones && new Set(zones).size !== zones.length) throw new Error(`Vpc: availabilityZones lists a zone twice: ${zones.join(", ")}.`);
}

/** The region's first `count` zones that need no opt-in (Local and Wavelength Zones are excluded). */
function firstZones(count: number, parent: pulumi.Resource): pulumi.Output<string[]> {
    return aws
        .getAvailabilityZonesOutput(
            { state: "available", filters: [{ name: "opt-in-status", values: ["opt-in-not-required"] }] },
            { parent },
        )
        .apply((result) => {
            if (result.names.length < count) {
                throw new Error(
                    `Vpc: region ${result.id} has ${result.names.length} available zones (${result.names.join(", ")}) ` +
                        `but ${count} were requested; lower mara:vpcAzCount or list zones in mara:vpcAzs.`,
                );
            }
            return result.names.slice(0, count);
        });
}
