/**
 * Value types for configuration keys. Pulumi hands every config value to the program as a string
 * (arrays and objects as JSON), so each type parses that string and, when it cannot, says why in
 * words a person can act on. `allowed` is the sentence shown after "Allowed:" in error messages.
 */
import { hostnameProblem, hostPortProblem, imageReferenceProblem, isIpv4, kubernetesNameAllowed, kubernetesNameProblem, urlProblem } from "../contracts/names";
import { MAX_ASN, metalLbAddressProblem, parseMetalLbPeer } from "../contracts/metalLb";
import { isPrivateIpv4Cidr, PRIVATE_IPV4_RANGES } from "../contracts/patterns";
import { NFS_SERVER_ALLOWED, nfsServerProblem } from "./nfsServer";
import { closest } from "./suggest";
import { urlCredentials } from "../contracts/urlCredentials";

/** The declaration types Pulumi.yaml supports for project config. */
export type PulumiConfigType = "string" | "integer" | "boolean" | "array";

/** Outcome of parsing one raw config string. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; reason: string };

/** How one kind of config value is read and described. */
export interface ValueType<T> {
    /** The type declared for the key in Pulumi.yaml. */
    readonly pulumiType: PulumiConfigType;
    /** What values are accepted, in plain words ("a whole number from 1 to 450"). */
    readonly allowed: string;
    /** Parses the raw string Pulumi stores. */
    parse(raw: string): ParseResult<T>;
    /** Renders a parsed value back to the string form used in Pulumi.yaml defaults and fix hints. */
    render(value: T): string;
}

const ok = <T>(value: T): ParseResult<T> => ({ ok: true, value });
const fail = <T>(reason: string): ParseResult<T> => ({ ok: false, reason });

/**
 * What a YAML list or mapping became: Pulumi hands the program every structured value as JSON text, so a list written
 * where one piece of text belongs (a password as `[a, b]`) arrives as `["a","b"]`, and would otherwise be taken as that
 * text.
 */
function structureOf(value: string): "a list" | "a mapping" | undefined {
    if (!/^[[{]/.test(value)) return undefined;
    try {
        const parsed: unknown = JSON.parse(value);
        return Array.isArray(parsed) ? "a list" : parsed !== null && typeof parsed === "object" ? "a mapping" : undefined;
    } catch {
        return undefined;
    }
}

/**
 * Any non-empty string, optionally restricted by a pattern and a length. A YAML list or mapping is refused unless
 * `structured` allows it (an inline kubeconfig may be JSON).
 */
export function text(opts: { pattern?: RegExp; allowed?: string; minLength?: number; maxLength?: number; structured?: boolean } = {}): ValueType<string> {
    const allowed = opts.allowed ?? "any non-empty text";
    return {
        pulumiType: "string",
        allowed,
        parse(raw) {
            const value = raw.trim();
            if (value === "") return fail("is empty");
            const structure = opts.structured ? undefined : structureOf(value);
            if (structure) return fail(`is ${structure} (YAML or JSON), where one piece of text belongs`);
            // The length alone, never the value: this type also reads passwords.
            if (opts.minLength !== undefined && value.length < opts.minLength) return fail(`is shorter than ${opts.minLength} characters`);
            if (opts.maxLength !== undefined && value.length > opts.maxLength) {
                return fail(`is ${value.length} characters long (at most ${opts.maxLength})`);
            }
            if (opts.pattern && !opts.pattern.test(value)) return fail("has the wrong form");
            return ok(value);
        },
        render: (v) => v,
    };
}

/** A whole number within [min, max]. Rejects "3.5", "abc", "1e3" and empty strings. */
export function integer(min: number, max: number, unit = ""): ValueType<number> {
    const suffix = unit ? ` ${unit}` : "";
    return {
        pulumiType: "integer",
        allowed: `a whole number from ${min} to ${max}${suffix}`,
        parse(raw) {
            const value = raw.trim();
            if (!/^[+-]?\d+$/.test(value)) {
                return fail(/^[+-]?\d*\.\d+$/.test(value) ? "is not a whole number" : "is not a number");
            }
            const n = Number(value);
            if (n < min) return fail(n < 0 && min >= 0 ? "is negative" : `is below the minimum of ${min}`);
            if (n > max) return fail(`is above the maximum of ${max}`);
            return ok(n);
        },
        render: (v) => String(v),
    };
}

const TRUE_WORDS = ["true", "yes", "y", "1", "on"];
const FALSE_WORDS = ["false", "no", "n", "0", "off"];

/** A boolean; accepts the spellings MARA's runner accepted (yes/no, y/n, 1/0, true/false). */
export function boolean(): ValueType<boolean> {
    return {
        pulumiType: "boolean",
        allowed: "true or false",
        parse(raw) {
            const value = raw.trim().toLowerCase();
            if (TRUE_WORDS.includes(value)) return ok(true);
            if (FALSE_WORDS.includes(value)) return ok(false);
            return fail("is not a boolean");
        },
        render: (v) => String(v),
    };
}

/**
 * One of a fixed set of values, compared case-insensitively. `synonyms` maps other accepted spellings
 * (MARA's `AWS`, `DO`, `LKE`) to the canonical value.
 */
export function oneOf<T extends string>(
    values: readonly T[],
    synonyms: Readonly<Record<string, T>> = {},
): ValueType<T> {
    const spelled = [...values, ...Object.keys(synonyms).filter((s) => !values.includes(s as T))];
    return {
        pulumiType: "string",
        allowed: `one of ${spelled.map((v) => `"${v}"`).join(", ")}`,
        parse(raw) {
            const value = raw.trim().toLowerCase();
            const exact = values.find((v) => v.toLowerCase() === value);
            if (exact) return ok(exact);
            const synonym = Object.entries(synonyms).find(([s]) => s.toLowerCase() === value);
            if (synonym) return ok(synonym[1]);
            return fail("is not a known value");
        },
        render: (v) => v,
    };
}

/** A list of strings, stored by Pulumi as a JSON array; a comma-separated string is accepted too. */
export function list(item: ValueType<string>): ValueType<string[]> {
    return {
        pulumiType: "array",
        allowed: `a list where each entry is ${item.allowed}`,
        parse(raw) {
            let entries: unknown;
            const trimmed = raw.trim();
            if (trimmed.startsWith("[")) {
                try {
                    entries = JSON.parse(trimmed);
                } catch {
                    return fail("is not a valid list");
                }
            } else if (structureOf(trimmed) === "a mapping") {
                return fail("is a mapping (YAML or JSON), where a list belongs");
            } else {
                entries = trimmed === "" ? [] : trimmed.split(",").map((s) => s.trim());
            }
            if (!Array.isArray(entries)) return fail("is not a list");
            const out: string[] = [];
            for (const entry of entries) {
                if (typeof entry !== "string") return fail(`has an entry that is not text (${JSON.stringify(entry)})`);
                const parsed = item.parse(entry);
                if (!parsed.ok) return fail(`has an entry "${entry}" that ${parsed.reason}`);
                out.push(parsed.value);
            }
            return ok(out);
        },
        render: (v) => JSON.stringify(v),
    };
}

/**
 * An http(s) URL for a Helm chart repository, or an `oci://` registry reference. Catches the doubled
 * scheme in MARA's own example file (`https://https://…`), which `new URL` happily parses.
 */
export function helmRepoUrl(): ValueType<string> {
    return {
        pulumiType: "string",
        allowed: "an http(s):// Helm repository URL or an oci:// registry reference, e.g. https://helm.nginx.com/stable",
        parse(raw) {
            const value = raw.trim();
            const why = urlProblem(value, ["https", "http", "oci"]);
            if (why) return fail(why);
            // Helm reads an OCI registry's credentials from its registry login, never from the reference, and the
            // reference is the release's chart, which the state and every diff show.
            if (/^oci:\/\//i.test(value) && (urlCredentials(value).length > 0 || /^oci:\/\/[^/?#]*@/i.test(value))) {
                return fail("holds a credential, which Helm never reads from an oci:// reference (and the reference is written into the state as the release's chart): give the registry without it and log in with helm registry login <host> on the machine that runs pulumi up");
            }
            return ok(value.replace(/\/+$/, ""));
        },
        render: (v) => v,
    };
}

/**
 * A public host name (RFC 1123 labels, at most 253 characters, at least one dot), never an IP address: it
 * becomes an Ingress host and a certificate name, and Kubernetes refuses IP addresses as Ingress hosts.
 */
export function fqdn(): ValueType<string> {
    return {
        pulumiType: "string",
        allowed: "a fully qualified domain name such as mara.example.com (not an IP address)",
        parse(raw) {
            const value = raw.trim().toLowerCase().replace(/\.$/, "");
            const why = hostnameProblem(value);
            if (!why) return ok(value);
            return fail(why.startsWith("is ") ? why : `is not a valid domain name: it ${why}`);
        },
        render: (v) => v,
    };
}

/**
 * One of a list the provider SDK ships (regions): exact, lower-case; a near miss gets a suggestion.
 *
 * @param what - what a value is, e.g. "an AWS region".
 * @param source - where the list comes from, for the "Allowed:" text.
 */
export function member(values: readonly string[], what: string, example: string, source: string): ValueType<string> {
    return {
        pulumiType: "string",
        allowed: `${what} such as ${example} (the ${values.length} that ${source} lists)`,
        parse(raw) {
            const value = raw.trim();
            if (values.includes(value)) return ok(value);
            const guess = closest(value, values);
            return fail(`is not ${what}${guess ? `; did you mean ${guess}?` : ""}`);
        },
        render: (v) => v,
    };
}

/**
 * A container image reference, following the distribution reference grammar:
 * `[registry[:port]/]path[:tag][@sha256:digest]`, with lower-case path components.
 */
export function imageReference(): ValueType<string> {
    return {
        pulumiType: "string",
        allowed: "an image reference such as nginx/nginx-ingress:5.2.1 or registry.example.com:5000/team/image:tag",
        parse(raw) {
            const value = raw.trim();
            const reason = imageReferenceProblem(value);
            return reason ? fail(reason) : ok(value);
        },
        render: (v) => v,
    };
}

/**
 * An IPv4 CIDR block with the given prefix length range, e.g. 10.100.0.0/16; with `privateOnly`, inside the
 * RFC 1918 private ranges (a VPC's own address space: never public, multicast or reserved addresses).
 */
export function ipv4Cidr(minPrefix: number, maxPrefix: number, opts: { privateOnly?: boolean } = {}): ValueType<string> {
    const size = minPrefix === maxPrefix ? `a /${minPrefix} IPv4 CIDR block` : `an IPv4 CIDR block with a prefix from /${minPrefix} to /${maxPrefix}`;
    const where = opts.privateOnly ? ` inside a private range (${PRIVATE_IPV4_RANGES.join(", ")})` : "";
    return {
        pulumiType: "string",
        allowed: `${size}${where}, e.g. 10.100.0.0/16`,
        parse(raw) {
            const value = raw.trim();
            const m = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})$/.exec(value);
            if (!m || !isIpv4(m[1]!)) return fail("is not an IPv4 CIDR block");
            const prefix = Number(m[2]);
            if (prefix < minPrefix || prefix > maxPrefix) return fail(`has prefix /${prefix}`);
            const ip = m[1]!.split(".").reduce((acc, o) => (acc << 8) + Number(o), 0) >>> 0;
            const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
            if ((ip & mask) >>> 0 !== ip) return fail("has host bits set (not a network address)");
            if (opts.privateOnly && !isPrivateIpv4Cidr(value)) return fail("is not a private range (RFC 1918), so it is not an address space a VPC should use");
            return ok(value);
        },
        render: (v) => v,
    };
}

/**
 * An https:// URL (an ACME directory), with a valid host, no repeated scheme, and no credential: an ACME account
 * authenticates with its key (RFC 8555, section 6.2), never with a URL's user information or a token in its query, and
 * the URL is written into the ClusterIssuer, the state and every render.
 */
export function httpsUrl(allowed: string): ValueType<string> {
    return {
        pulumiType: "string",
        allowed,
        parse(raw) {
            const value = raw.trim();
            const why = urlProblem(value, ["https"], "this URL must be https://");
            if (why) return fail(why);
            if (urlCredentials(value).length > 0 || /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(value)) {
                return fail("holds a credential (user information, or a token in its query), which an ACME directory never takes: ACME authenticates with the account's key, and the URL is written into the ClusterIssuer");
            }
            return ok(value);
        },
        render: (v) => v,
    };
}

/** A registry server as `host[:port]`, such as ghcr.io or registry.example.com:5000 (contracts: hostPortProblem). */
export function hostPort(allowed: string): ValueType<string> {
    return {
        pulumiType: "string",
        allowed,
        parse(raw) {
            const value = raw.trim();
            const why = hostPortProblem(value);
            return why ? fail(why) : ok(value);
        },
        render: (v) => v,
    };
}

/**
 * A MetalLB address entry as MetalLB reads it (contracts/metalLb.ts, metalLbAddressProblem): an IPv4 CIDR block whose
 * address is its first, or a `first-last` range; never a bare address, which MetalLB refuses.
 */
export function addressRange(): ValueType<string> {
    return {
        pulumiType: "string",
        allowed: "an IPv4 CIDR block (192.168.1.240/28; 192.168.1.240/32 for one address) or a first-last range (192.168.1.240-192.168.1.250)",
        parse(raw) {
            const value = raw.trim();
            const problem = metalLbAddressProblem(value);
            return problem ? fail(problem) : ok(value);
        },
        render: (v) => v,
    };
}

/** A BGP router MetalLB peers with, written `<router address>:<router ASN>:<cluster ASN>` (contracts/metalLb.ts, parseMetalLbPeer). */
export function bgpPeer(): ValueType<string> {
    return {
        pulumiType: "string",
        allowed: `<router IPv4 address>:<router AS number>:<cluster AS number>, such as 192.168.1.1:64501:64500 (AS numbers 1 to ${MAX_ASN})`,
        parse(raw) {
            const parsed = parseMetalLbPeer(raw);
            return "problem" in parsed ? fail(parsed.problem) : ok(raw.trim());
        },
        render: (v) => v,
    };
}

/** The host of an NFS server, as the kubelet's NFS mount takes it (config/nfsServer.ts, nfsServerProblem). */
export function nfsServer(): ValueType<string> {
    return {
        pulumiType: "string",
        allowed: NFS_SERVER_ALLOWED,
        parse(raw) {
            const value = raw.trim();
            if (value === "") return fail("is empty");
            const problem = nfsServerProblem(value);
            return problem ? fail(problem) : ok(value);
        },
        render: (v) => v,
    };
}

/**
 * The name of a Kubernetes object of `kind` (contracts/names.ts, kubernetesNameProblem): the API server's rule for it,
 * k8s.io/apimachinery pkg/util/validation/validation.go, IsDNS1123Label (63 characters) or IsDNS1123Subdomain (253).
 *
 * @param what - the object, for the "Allowed:" text ("a StorageClass name").
 */
export function kubernetesName(kind: "label" | "subdomain", what: string, example: string): ValueType<string> {
    return {
        pulumiType: "string",
        allowed: `${what} such as ${example}: ${kubernetesNameAllowed(kind).replace(/^a Kubernetes object name: /, "")}`,
        parse(raw) {
            const value = raw.trim();
            const problem = kubernetesNameProblem(value, kind);
            return problem ? fail(problem) : ok(value);
        },
        render: (v) => v,
    };
}
