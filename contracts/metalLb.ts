/**
 * What MetalLB accepts of a pool and its BGP routers, and what cannot work even where it accepts it, in one place for
 * `mara validate` (config/clusterAddOns.ts) and the MetalLb component (for a library user's arguments). Each rule
 * cites the MetalLB source it follows; the pinned MetalLB is the chart of contracts/charts.ts (0.16.1, whose parser
 * and webhooks are those of the tag v0.16.1 cited below: internal/config and api/ did not change between them in any
 * rule used here).
 */
import { Ipv4Range, ipv4Number, numberToIpv4, overlapping, parseAddressRange, parseCidr, within } from "./ipRanges";

/**
 * An IPv4 address as Go's `net.ParseIP` reads it, which MetalLB's parser uses for every address (pool ranges, peer
 * addresses): four decimal octets from 0 to 255, none with a leading zero. Go refuses leading zeros since 1.17 because
 * other readers (`inet_aton`) take them for octal: `010` would be 8 there and 10 here.
 */
export function isGoIpv4(text: string): boolean {
    const parts = text.split(".");
    return parts.length === 4 && parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
}

/** Ranges no host may use, so no Service and no router may have an address in them, each with its reason. */
export const NON_HOST_RANGES: readonly { readonly cidr: string; readonly what: string }[] = [
    { cidr: "0.0.0.0/8", what: "the 'this network' block (RFC 1122), whose 0.0.0.0 means any address" },
    { cidr: "127.0.0.0/8", what: "the loopback block, which never leaves a host" },
    { cidr: "169.254.0.0/16", what: "the link-local block (RFC 3927), which routers never forward" },
    { cidr: "224.0.0.0/4", what: "the multicast block, which names groups, not hosts" },
    { cidr: "240.0.0.0/4", what: "the reserved block (RFC 1112) with the broadcast address 255.255.255.255" },
];

/** The first {@link NON_HOST_RANGES} entry `range` shares an address with, if any. */
export function nonHostRangeOf(range: Ipv4Range): { readonly cidr: string; readonly what: string } | undefined {
    return NON_HOST_RANGES.find((r) => overlapping(range, parseCidr(r.cidr)!));
}

/**
 * Why `entry` is not an `IPAddressPool` address MetalLB reads as written, or undefined. MetalLB parses each entry in
 * `ParseCIDR` (metallb/metallb, internal/config/config.go): an entry with a `-` is a first-last range of two
 * `net.ParseIP` addresses (spaces around them trimmed, first not after last), and any other entry goes to Go's
 * `net.ParseCIDR`, which needs a prefix length, so a bare address is refused there ("invalid CIDR"). A block with host
 * bits set is accepted by `net.ParseCIDR` but widened to its whole block, more than the entry says: refused here, with
 * the block it would be.
 */
export function metalLbAddressProblem(entry: string): string | undefined {
    const text = entry.trim();
    if (text.includes("-")) {
        // Split at the first '-' as Go's strings.SplitN(s, "-", 2) does: anything after a second one stays in the last part.
        const cut = text.indexOf("-");
        const [first, last] = [text.slice(0, cut).trim(), text.slice(cut + 1).trim()];
        const bad = [first, last].find((a) => !isGoIpv4(a));
        if (bad !== undefined) return leadingZeros(bad) ? `has an address with a leading zero (${bad}), which MetalLB's parser refuses` : "is not a range of two IPv4 addresses (first-last)";
    } else if (text.includes("/")) {
        const address = text.split("/")[0]!;
        if (leadingZeros(address)) return `has an address with a leading zero (${address}), which MetalLB's parser refuses`;
        const range = parseCidr(text);
        if (!range || !isGoIpv4(address) || !/\/(\d|[12]\d|3[0-2])$/.test(text)) return "is not an IPv4 CIDR block";
        if (range.first !== ipv4Number(address)) {
            const block = `${numberToIpv4(range.first)}/${text.split("/")[1]}`;
            return `has host bits set: MetalLB would take the whole block ${block}, more addresses than written; write ${block}, or a first-last range of the addresses meant`;
        }
    } else if (isGoIpv4(text)) {
        return `is one address without a prefix length, which MetalLB refuses (it reads an entry as a CIDR block or a first-last range); write ${text}/32 or ${text}-${text}`;
    } else {
        return leadingZeros(text) ? `has an address with a leading zero (${text}), which MetalLB's parser refuses` : "is neither an IPv4 CIDR block nor a first-last range";
    }
    const parsed = parseAddressRange(text);
    if ("problem" in parsed) return parsed.problem;
    const special = nonHostRangeOf(parsed.range);
    if (special) return `overlaps ${special.cidr}, ${special.what}: no Service can be reached at such an address`;
    if (onlyBuggyAddresses(parsed.range)) {
        return "holds only addresses ending in .0 or .255, which the platform's pool leaves out (avoidBuggyIPs), so it gives MetalLB no address to hand out";
    }
    return undefined;
}

const leadingZeros = (address: string) => address.split(".").some((p) => /^0\d/.test(p));

/**
 * Whether every address of `range` ends in .0 or .255: MetalLB skips those in a pool with `avoidBuggyIPs`
 * (internal/allocator/allocator.go, ipConfusesBuggyFirmwares), which the platform's pool sets.
 */
export function onlyBuggyAddresses(range: Ipv4Range): boolean {
    for (let n = range.first; n <= range.last; n++) {
        const last = n % 256;
        if (last !== 0 && last !== 255) return false;
    }
    return true;
}

/** A BGP router MetalLB peers with, parsed. */
export interface MetalLbPeer {
    /** The router's IPv4 address. */
    readonly address: string;
    /** The router's AS number. */
    readonly asn: number;
    /** The cluster's AS number. */
    readonly myAsn: number;
}

/** The highest AS number: the CRD's `peerASN` and `myASN` maximum (api/v1beta2/bgppeer_types.go, 4-byte ASNs). */
export const MAX_ASN = 4294967295;

/**
 * A router written `<address>:<router ASN>:<cluster ASN>`, or why it cannot be one: the address a host's (Go's
 * `net.ParseIP` form, outside {@link NON_HOST_RANGES}); each AS number from 1 to {@link MAX_ASN}, since MetalLB refuses
 * 0 for either (internal/config/config.go, peerFromCR: "missing local ASN", "missing peer ASN and dynamicASN") and the
 * CRD refuses more than 4294967295 (api/v1beta2/bgppeer_types.go, `+kubebuilder:validation:Maximum`).
 */
export function parseMetalLbPeer(text: string): { peer: MetalLbPeer } | { problem: string } {
    const m = /^([^:]+):(\d+):(\d+)$/.exec(text.trim());
    if (!m) return { problem: "is not <router address>:<router ASN>:<cluster ASN>" };
    const address = m[1]!;
    if (!isGoIpv4(address)) {
        return { problem: leadingZeros(address) ? `has an address with a leading zero (${address}), which MetalLB refuses` : `has "${address}", which is not an IPv4 address` };
    }
    const special = nonHostRangeOf({ first: ipv4Number(address), last: ipv4Number(address) });
    if (special) return { problem: `names ${address}, in ${special.cidr}, ${special.what}: no BGP router can be there` };
    const [asn, myAsn] = [m[2]!, m[3]!].map(Number) as [number, number];
    if (m[2]!.length > 10 || m[3]!.length > 10 || [asn, myAsn].some((a) => a < 1 || a > MAX_ASN)) return { problem: `has an AS number outside 1 to ${MAX_ASN}` };
    return { peer: { address, asn, myAsn } };
}

/** One thing wrong with a set of routers, or with them and the pool. */
export interface PeerFinding {
    /** The routers (as written, or their addresses) the finding is about. */
    readonly value: string;
    /** What is wrong, completing "<key> = <value> …". */
    readonly problem: string;
    /** What is accepted. */
    readonly allowed: string;
    /** How to fix it. */
    readonly fix: string;
    /** True for what may work (a warning); false for what MetalLB refuses or what cannot work. */
    readonly warning?: boolean;
}

/**
 * What is wrong with the routers together, and with the pool. Every router peers from every node in the same (default)
 * VRF, as the platform writes them, so in MetalLB's FRR modes (the platform's BGP mode is frr-k8s):
 * - two routers at one address are refused: "FRR mode doesn't support duplicate BGPPeers selecting the same node"
 *   (metallb/metallb internal/config/validation.go, peersCanRunOnSameNode; frr-k8s, internal/controller/merge.go,
 *   neighborsAreCompatible, "multiple asns specified" for one neighbour);
 * - two cluster ASNs are refused: "peers selecting the same node must have the same myAsn within the same VRF"
 *   (the same function; frr-k8s, merge.go, routersAreCompatible: "different asns ... specified for same vrf"): one
 *   node runs one BGP router, with one AS number;
 * - a router inside the pool would be handed to a Service as its address, and the Service would take the router's.
 * An address ending in .0 or .255 is the network or broadcast address of a /24 and may be a router's only in a larger
 * network: a warning.
 */
export function metalLbPeerFindings(peers: readonly MetalLbPeer[], pool: readonly string[]): PeerFinding[] {
    const out: PeerFinding[] = [];
    const seen = new Map<string, MetalLbPeer>();
    for (const p of peers) {
        const before = seen.get(p.address);
        if (before) {
            out.push({
                value: `${written(before)}, ${written(p)}`,
                problem: `names the router ${p.address} twice; MetalLB's FRR mode refuses two BGP peers at one address on the same nodes`,
                allowed: "each router once",
                fix: "keep one entry per router address",
            });
        } else seen.set(p.address, p);
    }
    const clusterAsns = [...new Set(peers.map((p) => p.myAsn))];
    if (clusterAsns.length > 1) {
        out.push({
            value: peers.map(written).join(", "),
            problem: `gives the cluster ${clusterAsns.length} AS numbers (${clusterAsns.join(", ")}); each node runs one BGP router, and MetalLB's FRR mode refuses peers on the same nodes with different cluster ASNs`,
            allowed: "one cluster AS number (the third part) in every entry",
            fix: `use ${clusterAsns[0]} (or your cluster's AS number) as the third part of every entry`,
        });
    }
    const ranges = pool.map((e) => ({ e, r: parseAddressRange(e) })).filter((x): x is { e: string; r: { range: Ipv4Range } } => "range" in x.r);
    for (const p of peers) {
        const n = ipv4Number(p.address);
        const inside = ranges.find((x) => within({ first: n, last: n }, x.r.range));
        if (inside) {
            out.push({
                value: written(p),
                problem: `names the router ${p.address}, which is inside the pool entry ${inside.e}: MetalLB could give the router's address to a Service`,
                allowed: "routers outside mara:metallbAddresses",
                fix: `take ${p.address} out of the pool (split ${inside.e} around it), or correct the router's address`,
            });
        }
        if (n % 256 === 0 || n % 256 === 255) {
            out.push({
                value: written(p),
                problem: `names ${p.address}, the ${n % 256 === 0 ? "network" : "broadcast"} address of its /24, which is a router's address only in a network larger than a /24`,
                allowed: "the router's own address on the nodes' network",
                fix: "check the router's address",
                warning: true,
            });
        }
    }
    return out;
}

const written = (p: MetalLbPeer) => `${p.address}:${p.asn}:${p.myAsn}`;
