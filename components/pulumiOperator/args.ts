/**
 * The Pulumi Kubernetes Operator's mapping from the validated configuration onto {@link PulumiOperatorArgs}: its
 * chart, the stack it deploys and how its workspace signs in (`MaraConfig.pulumiOperator`), and the repository's
 * credential (the GitOps delivery's, `MaraConfig.gitops.repository`). The source (repository, revision, folder) is the
 * delivery's, which program/operator.ts adds. Called by program/operator.ts, only when the delivery is `operator`.
 */
import type { MaraConfig } from "../../config/model";
import type { PulumiOperatorArgs } from "./component";

/** Everything but the source; `stack` is set whenever the delivery is `operator` (config/validate.ts). */
export function pulumiOperatorArgsFromSettings(cfg: Pick<MaraConfig, "pulumiOperator" | "gitops">): Omit<PulumiOperatorArgs, "source"> {
    const operator = cfg.pulumiOperator.stack!;
    return {
        stack: operator.stack,
        backend: operator.backend,
        accessToken: operator.accessToken,
        passphrase: operator.passphrase,
        repository: cfg.gitops.repository,
        chart: cfg.pulumiOperator.chart,
    };
}
