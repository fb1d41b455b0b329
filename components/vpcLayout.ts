/**
 * Address plan of the VPC, as a pure function so it can be tested without Pulumi. MARA's layout is
 * kept: in a /16, zone i gets public subnet x.y.i.0/24 and private subnet x.y.(16·(i+1)).0/20, so
 * existing address expectations (security groups, peering) carry over.
 */

/** Subnets and routing of one availability zone. */
export interface ZoneLayout {
    /** Position of the zone in the VPC's zone list. */
    readonly index: number;
    /** CIDR of the public subnet (load balancers, NAT gateways). */
    readonly publicCidr: string;
    /** CIDR of the private subnet (worker nodes, internal load balancers). */
    readonly privateCidr: string;
    /** Index of the zone whose NAT gateway this zone's private subnet routes through. */
    readonly natZone: number;
}

/** Most zones the plan can hold: private /20s at 16·(i+1) must stay inside the /16. */
export const MAX_ZONES = 15;

/**
 * Lays out `zones` availability zones in a /16 VPC CIDR.
 * @param natGateways `perAz`: each zone routes through its own NAT gateway; `single`: all through zone 0's.
 */
export function planZones(vpcCidr: string, zones: number, natGateways: "perAz" | "single"): ZoneLayout[] {
    const m = /^(\d+)\.(\d+)\.0\.0\/16$/.exec(vpcCidr);
    if (!m) throw new Error(`VPC CIDR ${vpcCidr} must be a /16 network such as 10.100.0.0/16.`);
    if (!Number.isInteger(zones) || zones < 1 || zones > MAX_ZONES) {
        throw new Error(`A VPC holds 1 to ${MAX_ZONES} availability zones in this layout; got ${zones}.`);
    }
    const prefix = `${m[1]}.${m[2]}`;
    return Array.from({ length: zones }, (_, i) => ({
        index: i,
        publicCidr: `${prefix}.${i}.0/24`,
        privateCidr: `${prefix}.${(i + 1) * 16}.0/20`,
        natZone: natGateways === "perAz" ? i : 0,
    }));
}
