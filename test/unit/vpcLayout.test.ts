import { describe, expect, it } from "vitest";
import { MAX_ZONES, planZones } from "../../components/vpcLayout";

/** Integer range [start, end) of a CIDR block, for overlap checks. */
function range(cidr: string): [number, number] {
    const [ip, bits] = cidr.split("/") as [string, string];
    const start = ip.split(".").reduce((a, o) => a * 256 + Number(o), 0);
    return [start, start + 2 ** (32 - Number(bits))];
}

describe("planZones", () => {
    it("keeps MARA's layout: public /24 at i, private /20 at 16·(i+1)", () => {
        expect(planZones("10.100.0.0/16", 3, "perAz")).toEqual([
            { index: 0, publicCidr: "10.100.0.0/24", privateCidr: "10.100.16.0/20", natZone: 0 },
            { index: 1, publicCidr: "10.100.1.0/24", privateCidr: "10.100.32.0/20", natZone: 1 },
            { index: 2, publicCidr: "10.100.2.0/24", privateCidr: "10.100.48.0/20", natZone: 2 },
        ]);
    });

    it("routes every zone through zone 0's NAT gateway when there is a single one", () => {
        expect(planZones("10.0.0.0/16", 4, "single").map((z) => z.natZone)).toEqual([0, 0, 0, 0]);
    });

    it("never overlaps subnets, up to the maximum number of zones", () => {
        const cidrs = planZones("172.20.0.0/16", MAX_ZONES, "perAz").flatMap((z) => [z.publicCidr, z.privateCidr]);
        const ranges = cidrs.map(range).sort((a, b) => a[0] - b[0]);
        for (let i = 1; i < ranges.length; i++) expect(ranges[i]![0]).toBeGreaterThanOrEqual(ranges[i - 1]![1]);
        const [vpcStart, vpcEnd] = range("172.20.0.0/16");
        expect(ranges[0]![0]).toBeGreaterThanOrEqual(vpcStart);
        expect(ranges[ranges.length - 1]![1]).toBeLessThanOrEqual(vpcEnd);
    });

    it("rejects layouts it cannot hold", () => {
        expect(() => planZones("10.0.0.0/20", 2, "perAz")).toThrow("VPC CIDR 10.0.0.0/20 must be a /16 network such as 10.100.0.0/16.");
        expect(() => planZones("10.0.0.0/16", 16, "perAz")).toThrow("A VPC holds 1 to 15 availability zones in this layout; got 16.");
    });
});
