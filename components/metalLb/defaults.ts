/**
 * MetalLB's defaults and chart pin, as data: the chart catalogue (contracts/charts.ts) and the defaults table
 * (contracts/defaults.ts) take their MetalLB entries from here. Imports nothing (test/package/layers.test.ts).
 */

/** The MetalLB chart, installed only on an existing cluster that asks for it (mara:metallbAddresses). */
export const METALLB_CHART = {
    title: "MetalLB load balancer",
    chart: "metallb",
    repositoryUrl: "https://metallb.github.io/metallb",
    version: "0.16.1",
    timeoutSeconds: 600,
} as const;

/** Defaults of {@link MetalLbArgs}'s arguments. */
export const METALLB_DEFAULTS = { namespace: "metallb-system" } as const;
