/**
 * Argo CD's section of the validated configuration (`MaraConfig.argoCd`): its chart, read when Argo CD delivers the
 * platform from inside its cluster (`mara:delivery gitops` with `mara:gitopsArgoCd install`). How the platform is
 * delivered (the repository, its credential, install or a hub) is the GitOps delivery's section, `MaraConfig.gitops`,
 * which the Pulumi Kubernetes Operator reads too. Built by config/validate.ts.
 */
import type { ChartSettings } from "../../contracts";

/** Argo CD's validated settings (`MaraConfig.argoCd`). */
export interface ArgoCdSettings {
    /** The argo-cd chart: the catalogue's pin, or the version, mirror, timeout and archive the stack sets. */
    readonly chart: ChartSettings;
}

/** The section from the chart the validation settled on. */
export function argoCdSettings(chart: ChartSettings): ArgoCdSettings {
    return { chart };
}
