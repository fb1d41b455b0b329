/**
 * Argo CD's configuration keys: its chart's three, in the "Argo CD" group, read only with mara:delivery gitops and
 * mara:gitopsArgoCd install.
 * Declared with the key machinery (config/keySpec.ts) and spread into the key table (config/keys.ts). The keys of
 * GitOps delivery (the repository, its credential, install or a hub's Argo CD, the fleet) are the delivery's, not
 * this add-on's: they stay in the "GitOps" group with their rules in config/gitops.ts, which the Pulumi Kubernetes
 * Operator reads too.
 */
import { chartKeys } from "../../config/keySpec";

/** The chart's version, repository and timeout keys (MARA had no Argo CD, so no aliases). */
export const ARGO_CD_CHART_KEYS = chartKeys("argoCd", "Argo CD", {});
