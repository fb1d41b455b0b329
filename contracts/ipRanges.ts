/**
 * IPv4 address ranges as MetalLB writes them (`192.168.1.240/28` or `192.168.1.240-192.168.1.250`), with the
 * arithmetic validation and `mara doctor` need: parsing, containment, overlap. Addresses are numbers from 0 to
 * 2^32-1; a range is inclusive at both ends.
 */
import { isIpv4 } from "./names";
import { PRIVATE_IPV4_RANGES } from "./patterns";

/** An inclusive range of IPv4 addresses. */
export interface Ipv4Range {
    /** The first address, as a 32-bit unsigned number. */
    readonly first: number;
    /** The last address (inclusive), as a 32-bit unsigned number. */
    readonly last: number;
}

/** The address as a number. */
export const ipv4Number = (ip: string): number => ip.split(".").reduce((acc, o) => acc * 256 + Number(o), 0);

/** A CIDR block (`10.96.0.0/12`) as a range, or undefined when it is not an IPv4 CIDR block. */
export function parseCidr(cidr: string): Ipv4Range | undefined {
    const m = /^(\d+\.\d+\.\d+\.\d+)\/(\d{1,2})$/.exec(cidr.trim());
    if (!m || !isIpv4(m[1]!) || Number(m[2]) > 32) return undefined;
    const size = 2 ** (32 - Number(m[2]));
    const first = Math.floor(ipv4Number(m[1]!) / size) * size;
    return { first, last: first + size - 1 };
}

/**
 * One MetalLB `addresses` entry as a range, or why it is not one: a CIDR block whose address is its first (no host
 * bits set, as MetalLB requires), or `first-last` with first ≤ last.
 */
export function parseAddressRange(entry: string): { range: Ipv4Range } | { problem: string } {
    const text = entry.trim();
    const dash = /^(\S+)\s*-\s*(\S+)$/.exec(text);
    if (dash) {
        const [a, b] = [dash[1]!, dash[2]!];
        if (!isIpv4(a) || !isIpv4(b)) return { problem: "is not a range of two IPv4 addresses (first-last)" };
        const range = { first: ipv4Number(a), last: ipv4Number(b) };
        if (range.first > range.last) return { problem: `ends (${b}) before it starts (${a})` };
        return { range };
    }
    if (text.includes("/")) {
        const range = parseCidr(text);
        if (!range) return { problem: "is not an IPv4 CIDR block" };
        if (range.first !== ipv4Number(text.split("/")[0]!)) return { problem: `has host bits set; the block starts at ${numberToIpv4(range.first)}` };
        return { range };
    }
    if (isIpv4(text)) return { range: { first: ipv4Number(text), last: ipv4Number(text) } };
    return { problem: "is neither an IPv4 CIDR block nor a first-last range" };
}

/** The ranges of entries that parse (the others are left out: validation reports them). */
export function addressRanges(entries: readonly string[]): Ipv4Range[] {
    return entries.flatMap((e) => {
        const r = parseAddressRange(e);
        return "range" in r ? [r.range] : [];
    });
}

/** The dotted form of an address number. */
export const numberToIpv4 = (n: number): string => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join(".");

/** Whether two ranges share an address. */
export const overlapping = (a: Ipv4Range, b: Ipv4Range): boolean => a.first <= b.last && b.first <= a.last;

/** Whether `inner` lies wholly inside `outer`. */
export const within = (inner: Ipv4Range, outer: Ipv4Range): boolean => inner.first >= outer.first && inner.last <= outer.last;

/** The private ranges MetalLB addresses may come from without being declared: RFC 1918 and the shared space of RFC 6598. */
export const LOAD_BALANCER_PRIVATE_RANGES = [...PRIVATE_IPV4_RANGES, "100.64.0.0/10"] as const;
