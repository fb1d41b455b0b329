/**
 * Node sizes checked against the lists the provider SDKs ship, so that a mistyped size fails at validation
 * instead of when the node pool is created, after the cluster (ten minutes and more into `pulumi up`):
 * `InstanceType` of @pulumi/aws for EKS, `DropletSlug` of @pulumi/digitalocean for DOKS. Both enums live in
 * plain-object modules that load no SDK (a few milliseconds). The SDKs lag the clouds a little, so only what is
 * surely wrong is an error: an EC2 size its family does not have (`t3.lrage`), a droplet slug one typo away from
 * a listed one. Anything else off the list (a family or slug newer than the SDK) is a warning. `@pulumi/linode`
 * ships no list of Linode types, so those are checked by form only (keys.ts).
 */
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

interface SdkList {
    readonly source: string;
    readonly values: readonly string[];
}

let ec2: SdkList | undefined;
let droplets: SdkList | undefined;

/** Loads a package's enum module once; `source` names the package and version for messages. */
function sdkList(pkg: string, module: string, enumName: string): SdkList {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const enums = require(`${pkg}/${module}`) as Record<string, Record<string, string>>;
    const { version } = require(`${pkg}/package.json`) as { version: string };
    /* eslint-enable @typescript-eslint/no-require-imports */
    return { source: `${pkg} ${version}`, values: [...new Set(Object.values(enums[enumName]!))].sort() };
}

/** The EC2 instance types @pulumi/aws lists. */
export function ec2InstanceTypes(): SdkList {
    return (ec2 ??= sdkList("@pulumi/aws", "types/enums/ec2", "InstanceType"));
}

/** The droplet size slugs @pulumi/digitalocean lists. */
export function dropletSizes(): SdkList {
    return (droplets ??= sdkList("@pulumi/digitalocean", "types/enums", "DropletSlug"));
}

/**
 * Arm (Graviton) families: a generation digit followed by `g` (`t4g`, `m7gd`, `c6gn`, `im4gn`, `is4gen`), and
 * `a1`. GPU families such as `g5` have the `g` before the digit and are x86.
 */
const ARM_FAMILY = /^(?:a1|[a-z]+\d+g[a-z]*)$/;

/** Why `value` cannot be an EC2 instance type of an EKS node group; undefined when @pulumi/aws lists it. */
export function ec2InstanceTypeFinding(value: string): NodeSizeFinding | undefined {
    const { source, values } = ec2InstanceTypes();
    const family = value.split(".")[0]!;
    // @pulumi/eks gives a node group of Arm instances an Arm AMI, and the ingress controller image is copied
    // for linux/amd64 only (KicImage's platform): its pods would fail with "exec format error".
    if (ARM_FAMILY.test(family)) {
        return {
            severity: "error",
            problem: `is an Arm (Graviton) instance type, and the platform's images are copied and run for linux/amd64, so its pods would not start on these nodes`,
            allowed: "an x86_64 EC2 instance type, such as t3.large or m6i.large",
        };
    }
    if (values.includes(value)) return undefined;
    const ofFamily = values.filter((t) => t.startsWith(`${family}.`));
    if (ofFamily.length > 0) {
        const suggestion = closest(value, ofFamily);
        return {
            severity: "error",
            problem: `is not an instance type: the ${family} family has no size "${value.slice(family.length + 1)}"`,
            allowed: `an EC2 instance type ${source} lists, such as ${ofFamily.slice(0, 4).join(", ")}`,
            suggestion,
        };
    }
    const suggestion = closest(value, values);
    return {
        severity: "warning",
        problem: `is not an instance type ${source} lists (no ${family} family${suggestion ? `; did you mean ${suggestion}?` : ""}); if it is newer than the SDK, EC2 decides when the node group is created`,
        allowed: `an EC2 instance type such as t3.large`,
        suggestion,
    };
}

/** Why `value` cannot be the droplet size of a DOKS node pool; undefined when @pulumi/digitalocean lists it. */
export function dropletSizeFinding(value: string): NodeSizeFinding | undefined {
    const { source, values } = dropletSizes();
    if (values.includes(value)) return undefined;
    const suggestion = closest(value, values);
    if (suggestion) {
        return {
            severity: "error",
            problem: `is not a droplet size ${source} lists (a typo of ${suggestion}?)`,
            allowed: `a droplet size slug ${source} lists, such as s-4vcpu-8gb`,
            suggestion,
        };
    }
    return {
        severity: "warning",
        problem: `is not a droplet size ${source} lists; if it is newer than the SDK, DigitalOcean decides when the node pool is created (doctl kubernetes options sizes lists them)`,
        allowed: "a droplet size slug such as s-4vcpu-8gb",
    };
}
