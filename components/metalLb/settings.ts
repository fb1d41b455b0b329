/**
 * MetalLB's section of the validated configuration (`MaraConfig.metalLb`). Its keys' rules stay in
 * config/clusterAddOns.ts, which checks them beside the NFS provisioner's (both are the existing-cluster add-ons,
 * and a pool and an NFS server are judged against the same cluster).
 */
import type { ChartSettings } from "../../contracts";

/** A BGP router MetalLB peers with. */
export interface MetallbBgpPeer {
    /** The router's IPv4 address. */
    readonly address: string;
    /** The router's autonomous system number. */
    readonly asn: number;
    /** The cluster's own autonomous system number. */
    readonly myAsn: number;
}

/** MetalLB's validated settings: installed when `addresses` is not empty. */
export interface MetalLbSettings {
    /** The chart: the catalogue's pin, or the version, mirror, timeout and archive the stack sets. */
    readonly chart: ChartSettings;
    /** The pool's addresses: IPv4 CIDR blocks or first-last ranges; empty: MetalLB is not installed. */
    readonly addresses: readonly string[];
    /** BGP routers to announce the addresses to; none: layer 2 (ARP) announcements. */
    readonly bgpPeers: readonly MetallbBgpPeer[];
}
