/**
 * Host names and container image references, checked by the config validator (`mara validate`) and by
 * the components that take them, with the same rules and the same words.
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

/** True for an RFC 1123 hostname (labels of letters, digits and hyphens). */
export function isHostname(value: string): boolean {
    if (value.length === 0 || value.length > 253) return false;
    return value
        .split(".")
        .every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(label));
}

/**
 * Why `value` cannot be a public host name (an Ingress host, a certificate name, a DNS record), or undefined
 * when it can: RFC 1123 labels (letters, digits and '-', not at either end, at most 63 characters), at most
 * 253 characters, at least two labels, and never an IP address, which Kubernetes refuses as an Ingress host
 * and no public certificate authority issues a name certificate for.
 */
export function hostnameProblem(value: string): string | undefined {
    if (value === "") return "is empty";
    if (isIpv4(value) || value.includes(":")) return "is an IP address, and an Ingress host or certificate name must be a DNS name";
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
