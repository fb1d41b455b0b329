/**
 * MetalLB's mapping from its validated settings (`MaraConfig.metalLb`, built by config/clusterAddOns.ts) onto the
 * Platform's `metallb` argument: installed only with a pool. Called by program/platformArgs.ts.
 */
import type { MaraConfig } from "../../config/model";
import type { MetalLbArgs } from "./component";

/** The pool, its routers and the chart; undefined (not installed) without a pool. */
export function metalLbArgsFromSettings(s: MaraConfig["metalLb"]): MetalLbArgs | undefined {
    return s.addresses.length > 0 ? { addresses: [...s.addresses], bgpPeers: s.bgpPeers.map((p) => ({ ...p })), chart: s.chart } : undefined;
}
