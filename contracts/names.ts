/**
 * The forms of the names the platform hands to other systems — host names, `host[:port]`, URLs, container image
 * references and repositories, Kubernetes object names — one rule each, used with the same words by the config
 * validator (`mara validate`, the program), the components that take them, `mara render` (deploy-time values from a
 * stack's outputs, its options) and `mara outdated` (its endpoint overrides).
 */
import { PATTERNS } from "./patterns";

const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;

/** Returns why `ref` is not a valid image reference, or undefined when it is. */
export function imageReferenceProblem(ref: string): string | undefined {
    if (ref === "") return "is empty";
    if (/\s/.test(ref)) return "contains white space";
    if (/^[a-z]+:\/\//i.test(ref)) return "starts with a URL scheme (leave out http:// or https://)";
    let rest = ref;
    const at = rest.indexOf("@");
    if (at >= 0) {
        if (!DIGEST.test(rest.slice(at + 1))) return "has a malformed digest (expected @sha256:<64 hex digits>)";
        rest = rest.slice(0, at);
    }
    const lastSlash = rest.lastIndexOf("/");
    const colon = rest.lastIndexOf(":");
    if (colon > lastSlash) {
        const tag = rest.slice(colon + 1);
        if (!PATTERNS.imageTag.pattern.test(tag)) return tag === "" ? "ends with ':' but has no tag" : `has an invalid tag "${tag}"`;
        rest = rest.slice(0, colon);
    }
    const parts = rest.split("/");
    const first = parts[0] ?? "";
    if (parts.length > 1 && (first.includes(".") || first.includes(":") || first === "localhost")) {
        const [host, port] = first.split(":");
        if (!isHostname(host ?? "") && !isIpv4(host ?? "") && host !== "localhost") return `has an invalid registry host "${first}"`;
        if (port !== undefined && !/^\d{1,5}$/.test(port)) return `has an invalid registry port "${port}"`;
        parts.shift();
    }
    if (parts.length === 0 || parts.some((p) => p === "")) return "has an empty path component";
    const bad = parts.find((p) => !PATH_COMPONENT.test(p));
    if (bad) return `has an invalid repository name component "${bad}" (lower-case letters, digits, '.', '_' and '-' only)`;
    return undefined;
}

/**
 * Returns why `ref` is not an image repository (an image reference without tag or digest, such as
 * `123456789012.dkr.ecr.us-east-1.amazonaws.com/ingress-controller-dev`), or undefined when it is one. With
 * `registry`, the first path component must be a registry host.
 */
export function imageRepositoryProblem(ref: string, opts: { registry?: boolean } = {}): string | undefined {
    const why = imageReferenceProblem(ref);
    if (why) return why;
    const lastSlash = ref.lastIndexOf("/");
    if (ref.includes("@") || ref.lastIndexOf(":") > lastSlash) return "names a tag or digest; a repository has neither";
    const first = ref.slice(0, Math.max(0, ref.indexOf("/")));
    if (opts.registry && !(first.includes(".") || first.includes(":") || first === "localhost")) return "names no registry host (such as registry.example.com/team/image)";
    return undefined;
}

/** Why `value` is not `host[:port]` (a registry server, an endpoint's host), or undefined: a host name, an IPv4 address or localhost, and a port from 1 to 65535. */
export function hostPortProblem(value: string): string | undefined {
    if (value === "") return "is empty";
    if (/[\s\u0000-\u001f\u007f]/.test(value)) return "contains white space or control characters";
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return "starts with a URL scheme (give the host alone, such as registry.example.com:5000)";
    if (value.includes("/")) return "has a path (give the host alone, such as registry.example.com:5000)";
    const colon = value.lastIndexOf(":");
    const host = colon >= 0 ? value.slice(0, colon) : value;
    const port = colon >= 0 ? value.slice(colon + 1) : undefined;
    if (host.length > 253) return `has a host of ${host.length} characters (a DNS name has at most 253)`;
    if (!isHostname(host) && !isIpv4(host)) return `has an invalid host "${host}"`;
    if (port !== undefined && (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535)) return `has an invalid port "${port}" (1 to 65535)`;
    return undefined;
}

/**
 * Why `value` is not a URL with one of `schemes` (without the colon) and a valid host, or undefined. Catches the
 * doubled scheme of MARA's own example file (`https://https://…`), which `new URL` happily parses.
 *
 * @param mustBe - words for a wrong scheme ("this URL must be https://"); without them the scheme is "unsupported".
 */
export function urlProblem(value: string, schemes: readonly string[], mustBe?: string): string | undefined {
    if (value === "") return "is empty";
    if (/[\s\u0000-\u001f\u007f]/.test(value)) return "contains white space or control characters";
    let url: URL;
    try {
        url = new URL(value);
    } catch {
        return "is not a URL";
    }
    if (!schemes.includes(url.protocol.slice(0, -1))) return mustBe ? `uses the scheme "${url.protocol}", and ${mustBe}` : `uses the unsupported scheme "${url.protocol}"`;
    if (/^[a-z][a-z0-9+.-]*:\/\/[^/]*[a-z]+:\/\//i.test(value) || /^[a-z][a-z0-9+.-]*:\/\/(https?|oci)[:/]/i.test(value)) return "repeats the scheme";
    if (!isHostname(url.hostname) && url.hostname !== "localhost" && !isIpv4(url.hostname)) return `has an invalid host "${url.hostname}"`;
    return undefined;
}

/** The rules of Kubernetes object names: a DNS label (namespaces, Services) or a DNS subdomain (most other kinds). */
const KUBERNETES_NAMES = {
    label: { max: 63, pattern: /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, allowed: "lower-case letters, digits and '-', starting and ending with a letter or digit, at most 63 characters" },
    subdomain: {
        max: 253,
        pattern: /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/,
        allowed: "lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters",
    },
} as const;

/** What a Kubernetes name of `kind` may be, in the words messages use after "Allowed:". */
export function kubernetesNameAllowed(kind: keyof typeof KUBERNETES_NAMES): string {
    return `a Kubernetes object name: ${KUBERNETES_NAMES[kind].allowed}`;
}

/** Why `value` is not a Kubernetes object name of `kind` (RFC 1123 label or subdomain), or undefined. */
export function kubernetesNameProblem(value: string, kind: keyof typeof KUBERNETES_NAMES): string | undefined {
    const rule = KUBERNETES_NAMES[kind];
    if (value === "") return "is empty";
    if (value.length > rule.max) return `is ${value.length} characters long (at most ${rule.max})`;
    if (!rule.pattern.test(value)) return `has characters or a form Kubernetes refuses in a name`;
    return undefined;
}

/** True for an RFC 1123 hostname (labels of letters, digits and hyphens). */
export function isHostname(value: string): boolean {
    if (value.length === 0 || value.length > 253) return false;
    return value
        .split(".")
        .every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(label));
}

/**
 * {@link hostnameProblem}'s rule as one pattern, for a form that cannot run code (the Backstage template's): RFC 1123
 * labels of at most 63 characters, at least two of them, the last not all digits (which also refuses every IPv4
 * address; an IPv6 address has ':', a wildcard '*'). The length of the whole (253) is a form's `maxLength`.
 * test/cli/backstageTemplate.test.ts holds the two to the same verdicts.
 */
export const HOSTNAME_PATTERN = "^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+(?![0-9]+$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$";

/**
 * Why `value` cannot be a public host name (an Ingress host, a certificate name, a DNS record), or undefined
 * when it can: RFC 1123 labels (letters, digits and '-', not at either end, at most 63 characters), at most
 * 253 characters, at least two labels, and never an IP address, which Kubernetes refuses as an Ingress host
 * and no public certificate authority issues a name certificate for.
 */
export function hostnameProblem(value: string): string | undefined {
    if (value === "") return "is empty";
    if (/[\s\u0000-\u001f\u007f]/.test(value)) return "contains white space or control characters";
    if (isIpv4(value) || /^[0-9a-f:.]*:[0-9a-f:.]*$/i.test(value)) return "is an IP address, and an Ingress host or certificate name must be a DNS name";
    if (value.startsWith("*.")) return "is a wildcard, and one host name is needed";
    if (value.length > 253) return `is ${value.length} characters long (a DNS name has at most 253)`;
    const labels = value.split(".");
    if (labels.length < 2) return "has no domain (a fully qualified name has at least one dot)";
    if (labels.some((l) => l === "")) return "has an empty label ('..', or a dot at the start)";
    const long = labels.find((l) => l.length > 63);
    if (long) return `has a label of ${long.length} characters ("${long.slice(0, 20)}…"; at most 63)`;
    const bad = labels.find((l) => !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i.test(l));
    if (bad) return `has a label "${bad}" with characters other than letters, digits and '-', or a '-' at its start or end`;
    if (/^\d+$/.test(labels.at(-1)!)) return "ends in a numeric label, which no top-level domain is";
    return undefined;
}

/**
 * A DNS record's name and the domain (zone) it is created in, as the platform publishes its host name: the first
 * label is the record, the rest the domain (`mara.example.com` is record `mara` in `example.com`); undefined when
 * there is no host part in a domain of at least two labels.
 */
export function recordInDomain(fqdn: string): { record: string; domain: string } | undefined {
    const dot = fqdn.indexOf(".");
    const domain = fqdn.slice(dot + 1);
    if (dot <= 0 || !domain.includes(".")) return undefined;
    return { record: fqdn.slice(0, dot), domain };
}

/** True for a dotted-quad IPv4 address. */
export function isIpv4(value: string): boolean {
    const parts = value.split(".");
    return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/** Splits `repository:tag`; a digest reference keeps its digest as the "tag" after `@`, a reference without a tag gets `latest`. */
export function splitImageName(image: string): [string, string] {
    const at = image.indexOf("@");
    if (at >= 0) return [image.slice(0, at), image.slice(at + 1)];
    const colon = image.lastIndexOf(":");
    return colon > image.lastIndexOf("/") ? [image.slice(0, colon), image.slice(colon + 1)] : [image, "latest"];
}
