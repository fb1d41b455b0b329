/**
 * Argo CD's defaults and chart pin, as data: the chart catalogue (contracts/charts.ts) and the defaults table
 * (contracts/defaults.ts) take their Argo CD entries from here. Imports nothing (test/package/layers.test.ts).
 */

/** The argo-cd chart, installed only when Argo CD delivers the platform and runs in its cluster (mara:delivery gitops, mara:gitopsArgoCd install). */
export const ARGO_CD_CHART = {
    title: "Argo CD",
    chart: "argo-cd",
    repositoryUrl: "https://argoproj.github.io/argo-helm",
    version: "10.1.1",
    timeoutSeconds: 600,
} as const;

/** Defaults of {@link ArgoCdArgs}'s arguments: the root Application's name (the release is `ARGOCD_RELEASE`). */
export const ARGO_CD_DEFAULTS = { applicationName: "mara" } as const;
