/**
 * Argo CD's mapping from the validated GitOps settings (`MaraConfig.gitops`, built by config/validate.ts) onto
 * {@link ArgoCdArgs}: its chart and the repository's credential. The source and the cluster's facts are the
 * delivery's, which program/gitops.ts adds. Called by program/gitops.ts.
 */
import type { MaraConfig } from "../../config/model";
import type { ArgoCdArgs } from "./component";

/** The chart and, for a private repository, the credential Argo CD clones it with. */
export function argoCdArgsFromSettings(s: MaraConfig["gitops"]): Pick<ArgoCdArgs, "chart" | "repository"> {
    return { chart: s.argoCdChart, repository: s.repository };
}
