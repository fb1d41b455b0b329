/**
 * cert-manager's defaults and chart pin, as data. The chart catalogue (contracts/charts.ts) and the defaults table
 * (contracts/defaults.ts) take their cert-manager entries from here, so the pin is written once, in the unit, and
 * every reader of the catalogue still finds it there. Imports nothing: any module may read a unit's data
 * (test/package/layers.test.ts).
 */

/** The cert-manager chart: where it comes from, the version pinned, and how long Helm may wait for it. */
export const CERT_MANAGER_CHART = {
    title: "cert-manager",
    chart: "cert-manager",
    repositoryUrl: "https://charts.jetstack.io",
    version: "v1.21.1",
    timeoutSeconds: 600,
} as const;

/** Defaults of {@link CertManagerArgs}'s arguments. */
export const CERT_MANAGER_DEFAULTS = { namespace: "cert-manager", acmeServer: "https://acme-v02.api.letsencrypt.org/directory" } as const;
