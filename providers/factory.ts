/**
 * The provider factory: one entry per infrastructure type, chosen by `kubernetes:infra_type`
 * (`mara:infraType`). Adding a cloud means adding a row, not another branch. Each row loads its cloud's
 * SDK only when chosen, so an existing-cluster stack never loads @pulumi/aws, @pulumi/eks,
 * @pulumi/digitalocean or @pulumi/linode (they cost about a tenth of a second and 15 MB each run).
 */
import type { ClusterInfrastructure, InfraType } from "../contracts";
import type { InfraConfigOf, MaraConfig } from "../config";

/** Builds the infrastructure of one type from validated config whose `infra` holds that type's settings. */
export type InfrastructureFactory<T extends InfraType> = (cfg: MaraConfig<InfraConfigOf<T>>) => ClusterInfrastructure;

/* eslint-disable @typescript-eslint/no-require-imports -- a plain require is what makes the SDKs load lazily */
/** Builders per infrastructure type, each typed for its own settings. */
export const INFRASTRUCTURE: { readonly [T in InfraType]: InfrastructureFactory<T> } = {
    aws: (cfg) => (require("./aws") as typeof import("./aws")).createAwsInfrastructure(cfg),
    digitalocean: (cfg) => (require("./digitalocean") as typeof import("./digitalocean")).createDigitalOceanInfrastructure(cfg),
    linode: (cfg) => (require("./linode") as typeof import("./linode")).createLinodeInfrastructure(cfg),
    kubeconfig: (cfg) => (require("./kubeconfig") as typeof import("./kubeconfig")).createKubeconfigInfrastructure(cfg),
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** Creates the cluster and everything around it for the configured infrastructure type. */
export function createInfrastructure(cfg: MaraConfig): ClusterInfrastructure {
    return build(cfg.infra.type, cfg);
}

/** Picks the row for `type`; typed so that the row receives the settings of its own infrastructure type. */
function build<T extends InfraType>(type: T, cfg: MaraConfig<InfraConfigOf<T>>): ClusterInfrastructure {
    return INFRASTRUCTURE[type](cfg);
}
