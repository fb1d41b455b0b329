/**
 * The validation patterns that both the config validator and the components check: one regular
 * expression and one description each, so `mara validate` and a component constructed by a library
 * user accept exactly the same values and describe them in the same words.
 */

/** A pattern a value must match, and the words that say what it accepts (shown after "Allowed:"). */
export interface Pattern {
    /** The regular expression, anchored at both ends. */
    readonly pattern: RegExp;
    /** What the pattern accepts, in plain words. */
    readonly allowed: string;
}

/** The shared patterns, by what they validate. */
export const PATTERNS = {
    /** A positive Kubernetes quantity for a volume, in Mi, Gi or Ti (a claim of zero bytes is refused by Kubernetes). */
    volumeSize: { pattern: /^(?=[\d.]*[1-9])\d+(\.\d+)?(Mi|Gi|Ti)$/, allowed: "a positive volume size in Mi, Gi or Ti, such as 10Gi" },
    /** A Kubernetes minor version, as EKS and LKE take it. */
    kubernetesMinor: { pattern: /^1\.\d{1,2}$/, allowed: 'a Kubernetes minor version such as "1.35"' },
    /** A PostgreSQL database or user name that needs no quoting. */
    postgresIdentifier: {
        pattern: /^[a-z_][a-z0-9_]{0,62}$/,
        allowed: "a PostgreSQL identifier: lower-case letters, digits and '_', at most 63 characters",
    },
    /** An email address, checked loosely (an ACME account or a DNS zone's contact). */
    email: { pattern: /^[^@\s]+@[^@\s]+\.[^@\s]+$/, allowed: "an email address" },
    /** An RFC 1123 label: a Kubernetes namespace name, a DigitalOcean registry name. */
    dnsLabel: {
        pattern: /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/,
        allowed: "a name of lower-case letters, digits and '-' (at most 63 characters, starting and ending with a letter or digit)",
    },
    /** A container image tag. */
    imageTag: { pattern: /^[\w][\w.-]{0,127}$/, allowed: "an image tag such as v1.3.0" },
} as const satisfies Record<string, Pattern>;

/** Bytes per unit of a volume size ({@link PATTERNS}.volumeSize). */
const SIZE_UNITS: Readonly<Record<string, number>> = { Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };

/** The bytes a volume size such as `10Gi` or `0.5Ti` asks for; undefined when it is not a volume size. */
export function volumeSizeBytes(size: string): number | undefined {
    if (!PATTERNS.volumeSize.pattern.test(size)) return undefined;
    const m = /^([\d.]+)(Mi|Gi|Ti)$/.exec(size)!;
    return Number(m[1]) * SIZE_UNITS[m[2]!]!;
}

/** Why `value` does not match `p` (the message a component throws), or undefined when it does. */
export function mismatch(owner: string, arg: string, value: string, p: Pattern): string | undefined {
    return p.pattern.test(value) ? undefined : `${owner}: ${arg} "${value}" is not ${p.allowed}.`;
}

/** Throws the {@link mismatch} message when `value` does not match `p`. */
export function requireMatch(owner: string, arg: string, value: string, p: Pattern): void {
    const problem = mismatch(owner, arg, value, p);
    if (problem) throw new Error(problem);
}

/**
 * Host directories no workload of the platform may mount: the root and the system directories directly under
 * it. Mounting one exposes the node's configuration, binaries or kernel interfaces to the pod.
 */
const SYSTEM_ROOTS = ["/", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/opt", "/proc", "/root", "/run", "/sbin", "/srv", "/sys", "/tmp", "/usr", "/var"];

/** Why `path` cannot be a hostPath volume of the platform, or undefined when it can. */
export function hostPathProblem(path: string): string | undefined {
    if (!path.startsWith("/")) return "is not an absolute path";
    if (path.split("/").some((part) => part === ".." || part === ".")) return "contains '.' or '..' segments";
    if (/\/\/|\/$/.test(path) && path !== "/") return "contains an empty segment ('//' or a trailing '/')";
    if (!/^\/[\w./-]*$/.test(path)) return "contains characters other than letters, digits, '.', '_', '-' and '/'";
    if (SYSTEM_ROOTS.includes(path)) return `is ${path === "/" ? "the node's root directory" : "a system directory of the node"}, which must never be mounted into a pod`;
    return undefined;
}

/** What {@link hostPathProblem} accepts, in the words messages use after "Allowed:". */
export const HOST_PATH_ALLOWED = "an absolute host path below a system directory, such as /var/log/containers, without '.' or '..' segments";

/** The private IPv4 ranges of RFC 1918, the ones a VPC is meant to use. */
export const PRIVATE_IPV4_RANGES = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"] as const;

const ipv4ToNumber = (ip: string) => ip.split(".").reduce((acc, o) => acc * 256 + Number(o), 0);

/** Whether the IPv4 CIDR block `cidr` lies inside one of the RFC 1918 private ranges. */
export function isPrivateIpv4Cidr(cidr: string): boolean {
    const [ip, prefix] = cidr.split("/");
    const start = ipv4ToNumber(ip!);
    const end = start + 2 ** (32 - Number(prefix)) - 1;
    return PRIVATE_IPV4_RANGES.some((range) => {
        const [rip, rprefix] = range.split("/");
        const rstart = ipv4ToNumber(rip!);
        return start >= rstart && end <= rstart + 2 ** (32 - Number(rprefix)) - 1;
    });
}
