/**
 * MARA as one Pulumi program. Pulumi calls this exported function and publishes what it returns as
 * the stack's outputs. Config is read and validated first, so a bad value stops the program before
 * any resource is registered.
 */
import * as pulumi from "@pulumi/pulumi";
import { loadConfig } from "./config";
import { createInfrastructure } from "./providers";

export = function program(): Record<string, pulumi.Input<unknown>> {
    const cfg = loadConfig();
    const cluster = createInfrastructure(cfg);
    return {
        infra_type: cfg.infra.type,
        cluster_name: cluster.clusterName,
        kubeconfig: cluster.kubeconfig,
        ...cluster.outputs,
    };
};
