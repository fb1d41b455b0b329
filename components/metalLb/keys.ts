/**
 * MetalLB's configuration keys: the pool, the ranges besides the private ones it may come from, and the BGP routers
 * (in the "MetalLB" group, read by existing-cluster stacks only), and its chart's three keys. Declared
 * with the key machinery (config/keySpec.ts) and spread into the key table (config/keys.ts); their rules are
 * config/clusterAddOns.ts's.
 */
import { chartKeys, spec } from "../../config/keySpec";
import { addressRange, bgpPeer, ipv4Cidr, list } from "../../config/valueTypes";

/** The pool, its allowed ranges and the BGP routers. */
export const METALLB_KEYS = {
    metallbAddresses: spec({
        key: "mara:metallbAddresses",
        type: list(addressRange()),
        defaultNote: "none: MetalLB is not installed",
        description:
            "Existing cluster only: installs MetalLB, which gives LoadBalancer Services addresses from this pool (IPv4 CIDR blocks or first-last ranges, free addresses of the nodes' network, inside a private range or mara:metallbAllowedRanges).",
        example: '["192.168.1.240-192.168.1.250"]',
        group: "MetalLB",
    }),
    metallbAllowedRanges: spec({
        key: "mara:metallbAllowedRanges",
        type: list(ipv4Cidr(0, 32)),
        defaultNote: "the private ranges (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 100.64.0.0/10)",
        description: "Ranges besides the private ones that mara:metallbAddresses may come from: your network's public addresses, declared so a typo cannot announce someone else's.",
        example: '["203.0.113.0/24"]',
        group: "MetalLB",
    }),
    metallbBgpPeers: spec({
        key: "mara:metallbBgpPeers",
        type: list(bgpPeer()),
        defaultNote: "none: layer 2 announcements (ARP)",
        description: "Routers MetalLB announces the pool to over BGP, each <router address>:<router ASN>:<cluster ASN>; without them it answers ARP on the nodes' network (layer 2).",
        example: '["192.168.1.1:64501:64500"]',
        group: "MetalLB",
    }),
} as const;

/** The chart's version, repository and timeout keys (MARA had no MetalLB, so no aliases). */
export const METALLB_CHART_KEYS = chartKeys("metallb", "MetalLB", {});
