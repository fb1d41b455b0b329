/**
 * The provider factory: one entry per infrastructure type, chosen by `kubernetes:infra_type`
 * (`mara:infraType`). Adding a cloud means adding a row, not another branch. Each row loads its cloud's
 * SDK only when chosen, so an existing-cluster stack never loads @pulumi/aws, @pulumi/eks,
 * @pulumi/digitalocean or @pulumi/linode (they cost about a tenth of a second and 15 MB each run).
 */
import type { InfraType, MaraConfig } from "../config";
import { lazyRequire } from "./lazyRequire";
import type { ClusterInfrastructure, InfrastructureFactory } from "./types";

/** Builders per infrastructure type. */
export const INFRASTRUCTURE: Readonly<Record<InfraType, InfrastructureFactory>> = {
    aws: (cfg) => lazyRequire<typeof import("./aws")>(__dirname, "./aws").createAwsInfrastructure(cfg),
    digitalocean: (cfg) => lazyRequire<typeof import("./digitalocean")>(__dirname, "./digitalocean").createDigitalOceanInfrastructure(cfg),
    linode: (cfg) => lazyRequire<typeof import("./linode")>(__dirname, "./linode").createLinodeInfrastructure(cfg),
    kubeconfig: (cfg) => lazyRequire<typeof import("./kubeconfig")>(__dirname, "./kubeconfig").createKubeconfigInfrastructure(cfg),
};

/** Creates the cluster and everything around it for the configured infrastructure type. */
export function createInfrastructure(cfg: MaraConfig): ClusterInfrastructure {
    return INFRASTRUCTURE[cfg.infra.type](cfg);
}
