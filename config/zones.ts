/**
 * Static checks of AWS availability zone names against a region, so that MARA's example
 * (`vpc:azs: [us-west-1a, us-west-1b]` with `aws:region: us-east-1`) fails at validation instead of
 * minutes into `pulumi up`. Zone names are the region plus a letter (`us-east-1a`), or for Local
 * Zones the region plus a location and letter (`us-east-1-bos-1a`).
 */

/** Why `az` cannot be a zone of `region`, or undefined when its name fits. */
export function availabilityZoneProblem(az: string, region: string): string | undefined {
    if (!az.startsWith(region)) {
        const azRegion = /^([a-z]{2,4}(?:-[a-z]+)+-\d)/.exec(az)?.[1];
        return azRegion ? `is in region ${azRegion}, not ${region}` : `is not a zone of region ${region}`;
    }
    const suffix = az.slice(region.length);
    if (/^[a-z]$/.test(suffix) || /^-[a-z]+-\d+[a-z]$/.test(suffix)) return undefined;
    return `is not a zone of region ${region}`;
}
