/**
 * The Pulumi Kubernetes Operator's mapping from the validated delivery settings (`MaraConfig.gitops`, built by
 * config/validate.ts) onto {@link PulumiOperatorArgs}: its chart, the stack it deploys, how its workspace signs in, and
 * the repository's credential. The source (repository, revision, folder) is the delivery's, which program/operator.ts
 * adds. Called by program/operator.ts, only when the delivery is `operator`.
 */
import type { MaraConfig } from "../../config/model";
import type { PulumiOperatorArgs } from "./component";

/** Everything but the source; `s.operator` is set whenever the delivery is `operator` (config/validate.ts). */
export function pulumiOperatorArgsFromSettings(s: MaraConfig["gitops"]): Omit<PulumiOperatorArgs, "source"> {
    const operator = s.operator!;
    return {
        stack: operator.stack,
        backend: operator.backend,
        accessToken: operator.accessToken,
        passphrase: operator.passphrase,
        repository: s.repository,
        chart: s.operatorChart,
    };
}
