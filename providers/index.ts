/**
 * The provider factory: one entry per infrastructure type, chosen by `kubernetes:infra_type`
 * (`mara:infraType`). Adding a cloud means adding a row, not another branch.
 */
import type { InfraType, MaraConfig } from "../config";
import { createAwsInfrastructure } from "./aws";
import { createDigitalOceanInfrastructure } from "./digitalocean";
import { createKubeconfigInfrastructure } from "./kubeconfig";
import { createLinodeInfrastructure } from "./linode";
import type { ClusterInfrastructure, InfrastructureFactory } from "./types";

export * from "./aws";
export * from "./digitalocean";
export * from "./externalRegistry";
export * from "./kubeconfig";
export * from "./linode";
export * from "./platformFacts";
export * from "./types";

/** Builders per infrastructure type. */
export const INFRASTRUCTURE: Readonly<Record<InfraType, InfrastructureFactory>> = {
    aws: createAwsInfrastructure,
    digitalocean: createDigitalOceanInfrastructure,
    linode: createLinodeInfrastructure,
    kubeconfig: createKubeconfigInfrastructure,
};

/** Creates the cluster and everything around it for the configured infrastructure type. */
export function createInfrastructure(cfg: MaraConfig): ClusterInfrastructure {
    return INFRASTRUCTURE[cfg.infra.type](cfg);
}
