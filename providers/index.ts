/**
 * The provider factory: one entry per infrastructure type, chosen by `kubernetes:infra_type`
 * (`mara:infraType`). Adding a cloud means adding a row, not another branch.
 */
import type { InfraType, MaraConfig } from "../config";
import { createAwsInfrastructure } from "./aws";
import type { ClusterInfrastructure, InfrastructureFactory } from "./types";

export * from "./aws";
export * from "./types";

/** Raised for an infrastructure type that is recognised but not built yet. */
export class UnsupportedInfrastructureError extends Error {}

const notYetAvailable =
    (label: string): InfrastructureFactory =>
    (cfg) => {
        throw new UnsupportedInfrastructureError(
            `kubernetes:infra_type = "${cfg.infra.type}" (${label}) is recognised but not available in this release yet; ` +
                `only "aws" is. Nothing was created. Use an AWS stack for now: pulumi config set kubernetes:infra_type aws`,
        );
    };

/** Builders per infrastructure type. */
export const INFRASTRUCTURE: Readonly<Record<InfraType, InfrastructureFactory>> = {
    aws: createAwsInfrastructure,
    digitalocean: notYetAvailable("DigitalOcean DOKS"),
    linode: notYetAvailable("Linode LKE"),
    kubeconfig: notYetAvailable("an existing cluster"),
};

/** Creates the cluster and everything around it for the configured infrastructure type. */
export function createInfrastructure(cfg: MaraConfig): ClusterInfrastructure {
    return INFRASTRUCTURE[cfg.infra.type](cfg);
}
