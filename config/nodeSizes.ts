/**
 * Node sizes checked against the lists the provider SDKs ship, so that a mistyped size fails at validation
 * instead of when the node pool is created, after the cluster (ten minutes and more into `pulumi up`):
 * `InstanceType` of @pulumi/aws for EKS, `DropletSlug` of @pulumi/digitalocean for DOKS, copied into
 * nodeSizes.generated.ts by `npm run gen` (tools/nodeSizes.ts) so that validation loads no SDK. The SDKs lag
 * the clouds a little, so only what is surely wrong is an error: an EC2 size its family does not have (`t3.lrage`), a droplet slug one typo away from
 * a listed one. Anything else off the list (a family or slug newer than the SDK) is a warning. `@pulumi/linode`
 * ships no list of Linode types, so those are checked by form only (keys.ts).
 */
import { DROPLET_SIZES, DROPLET_SIZES_SOURCE, EC2_INSTANCE_FAMILIES, EC2_INSTANCE_TYPES_SOURCE } from "./nodeSizes.generated";
import { closest } from "./suggest";

/** What is wrong with a node size: `error` fails validation, `warning` only says so. */
export interface NodeSizeFinding {
    readonly severity: "error" | "warning";
    /** Completes "<key> = <value> …". */
    readonly problem: string;
    /** Completes "Allowed: …". */
    readonly allowed: string;
    /** A listed value to suggest in the fix, when one is close. */
    readonly suggestion?: string;
}

/** Every EC2 instance type the SDK lists, family by family. */
const EC2_TYPES: readonly string[] = Object.entries(EC2_INSTANCE_FAMILIES).flatMap(([family, sizes]) => sizes.map((s) => `${family}.${s}`));

/**
 * Arm (Graviton) families: a generation digit followed by `g` (`t4g`, `m7gd`, `c6gn`, `im4gn`, `is4gen`), and
 * `a1`. GPU families such as `g5` have the `g` before the digit and are x86.
 */
const ARM_FAMILY = /^(?:a1|[a-z]+\d+g[a-z]*)$/;

/** Why `value` cannot be an EC2 instance type of an EKS node group; undefined when @pulumi/aws lists it. */
export function ec2InstanceTypeFinding(value: string): NodeSizeFinding | undefined {
    const family = value.split(".")[0]!;
    // @pulumi/eks gives a node group of Arm instances an Arm AMI, and the ingress controller image is copied
    // for linux/amd64 only (IngressControllerImage's platform): its pods would fail with "exec format error".
    if (ARM_FAMILY.test(family)) {
        return {
            severity: "error",
            problem: `is an Arm (Graviton) instance type, and the platform's images are copied and run for linux/amd64, so its pods would not start on these nodes`,
            allowed: "an x86_64 EC2 instance type, such as t3.large or m6i.large",
        };
    }
    const sizes = EC2_INSTANCE_FAMILIES[family];
    if (sizes?.includes(value.slice(family.length + 1))) return undefined;
    const ofFamily = (sizes ?? []).map((s) => `${family}.${s}`);
    if (ofFamily.length > 0) {
        const suggestion = closest(value, ofFamily);
        return {
            severity: "error",
            problem: `is not an instance type: the ${family} family has no size "${value.slice(family.length + 1)}"`,
            allowed: `an EC2 instance type ${EC2_INSTANCE_TYPES_SOURCE} lists, such as ${ofFamily.slice(0, 4).join(", ")}`,
            suggestion,
        };
    }
    const suggestion = closest(value, EC2_TYPES);
    return {
        severity: "warning",
        problem: `is not an instance type ${EC2_INSTANCE_TYPES_SOURCE} lists (no ${family} family${suggestion ? `; did you mean ${suggestion}?` : ""}); if it is newer than the SDK, EC2 decides when the node group is created`,
        allowed: `an EC2 instance type such as t3.large`,
        suggestion,
    };
}

/** Why `value` cannot be the droplet size of a DOKS node pool; undefined when @pulumi/digitalocean lists it. */
export function dropletSizeFinding(value: string): NodeSizeFinding | undefined {
    if (DROPLET_SIZES.includes(value)) return undefined;
    const suggestion = closest(value, DROPLET_SIZES);
    if (suggestion) {
        return {
            severity: "error",
            problem: `is not a droplet size ${DROPLET_SIZES_SOURCE} lists (a typo of ${suggestion}?)`,
            allowed: `a droplet size slug ${DROPLET_SIZES_SOURCE} lists, such as s-4vcpu-8gb`,
            suggestion,
        };
    }
    return {
        severity: "warning",
        problem: `is not a droplet size ${DROPLET_SIZES_SOURCE} lists; if it is newer than the SDK, DigitalOcean decides when the node pool is created (doctl kubernetes options sizes lists them)`,
        allowed: "a droplet size slug such as s-4vcpu-8gb",
    };
}
