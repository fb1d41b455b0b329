/**
 * The program's side of `mara:delivery: operator` (docs/delivery-operator.md): as with `gitops`, the cloud, the
 * cluster, the registry and the ingress controller image stay in this stack; the Pulumi Kubernetes Operator, installed
 * here, runs the in-cluster stack (the platform and Bank of Sirius) from the project in the configured repository.
 * Switching in from a deployed stack goes through `handover` first, which marks every in-cluster resource to be kept
 * when it leaves this stack (program/gitops.ts), exactly as for the switch to Argo CD.
 */
import type * as pulumi from "@pulumi/pulumi";
import { PulumiOperator } from "../components/pulumiOperator";
import { pulumiOperatorArgsFromSettings } from "../components/pulumiOperator/args";
import type { ClusterInfrastructure } from "../contracts";
import type { MaraConfig } from "../config";
import { gitSourceOf } from "./gitops";

/** The operator, its Stack and what it needs, and the outputs that say where they are. */
export function operatorDelivery(cfg: MaraConfig, cluster: ClusterInfrastructure): Record<string, pulumi.Input<unknown>> {
    const source = gitSourceOf(cfg);
    const args = pulumiOperatorArgsFromSettings(cfg);
    const operator = new PulumiOperator("pulumi-operator", { source, ...args }, { providers: [cluster.provider] });
    return {
        delivery: "operator",
        operator_source: source,
        operator_stack: args.stack,
        operator_namespace: operator.namespace,
        operator_stack_resource: operator.stackResourceName,
        operator_version: operator.version,
        operator_status: operator.status,
    };
}
