/**
 * How many availability zones a new EKS cluster's VPC can use in each AWS region, and their names, so that a zone
 * count the region cannot give (`mara:vpcAzCount: 3` in us-west-1) is an error at validation instead of in the
 * middle of `pulumi up` (components/vpc.ts refuses it when the zone lookup answers). One table for validation and for
 * the simulated cloud that answers the lookup under `mara plan` and the tests, so the two always agree.
 *
 * Sources: AWS Global Infrastructure, "AWS Availability Zones"
 * (docs.aws.amazon.com/global-infrastructure/latest/regions/aws-availability-zones.html): "Each Region has at least
 * three Availability Zones". The regions listed below differ from three: us-east-1 has six, of which EKS does not
 * place clusters in use1-az3 (Amazon EKS User Guide, "Amazon EKS cluster requirements"); us-west-1 gives accounts two
 * of its zones; us-west-2 and ap-northeast-2 have four; ap-northeast-1 has four, of which apne1-az3 takes no new
 * accounts; ca-central-1 names its three a, b and d. An account whose zones differ lists them in `mara:vpcAzs`, which
 * this count does not limit. Read on 2026-11-24.
 */

/** Zone names by region, where they are not the region followed by a, b and c. */
const LISTED: Readonly<Record<string, readonly string[]>> = {
    "us-east-1": ["us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d", "us-east-1f"],
    "us-west-1": ["us-west-1a", "us-west-1b"],
    "us-west-2": ["us-west-2a", "us-west-2b", "us-west-2c", "us-west-2d"],
    "ap-northeast-1": ["ap-northeast-1a", "ap-northeast-1c", "ap-northeast-1d"],
    "ap-northeast-2": ["ap-northeast-2a", "ap-northeast-2b", "ap-northeast-2c", "ap-northeast-2d"],
    "ca-central-1": ["ca-central-1a", "ca-central-1b", "ca-central-1d"],
};

/** The zones a new VPC in `region` can use, in order: the table's, else the three every region has. */
export function availabilityZonesOf(region: string): readonly string[] {
    return LISTED[region] ?? ["a", "b", "c"].map((z) => `${region}${z}`);
}

/** Where the table comes from, for messages. */
export const AVAILABILITY_ZONES_SOURCE = "AWS's zones per region as of 2026-11-24, in config/availabilityZones.ts";
