/**
 * Argo CD's mapping from the validated configuration onto {@link ArgoCdArgs}: its chart (`MaraConfig.argoCd`) and
 * the repository's credential (the GitOps delivery's, `MaraConfig.gitops.repository`). The source and the cluster's
 * facts are the delivery's, which program/gitops.ts adds. Called by program/gitops.ts.
 */
import type { MaraConfig } from "../../config/model";
import type { ArgoCdArgs } from "./component";

/** The chart and, for a private repository, the credential Argo CD clones it with. */
export function argoCdArgsFromSettings(cfg: Pick<MaraConfig, "argoCd" | "gitops">): Pick<ArgoCdArgs, "chart" | "repository"> {
    return { chart: cfg.argoCd.chart, repository: cfg.gitops.repository };
}
