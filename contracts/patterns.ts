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
    /** A Kubernetes quantity for a volume, in Mi, Gi or Ti. */
    volumeSize: { pattern: /^\d+(\.\d+)?(Mi|Gi|Ti)$/, allowed: "a volume size such as 10Gi" },
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

/** Why `value` does not match `p` (the message a component throws), or undefined when it does. */
export function mismatch(owner: string, arg: string, value: string, p: Pattern): string | undefined {
    return p.pattern.test(value) ? undefined : `${owner}: ${arg} "${value}" is not ${p.allowed}.`;
}

/** Throws the {@link mismatch} message when `value` does not match `p`. */
export function requireMatch(owner: string, arg: string, value: string, p: Pattern): void {
    const problem = mismatch(owner, arg, value, p);
    if (problem) throw new Error(problem);
}
