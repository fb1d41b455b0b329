/**
 * The steps every infrastructure path ends with: the destroy drain, then the one Kubernetes provider,
 * which waits for both the cluster and the drain, and the {@link ClusterInfrastructure} the program gets.
 * Written once so every cloud gets the same delete order (everything in the cluster, then the drain, then
 * the cluster and its network) and hands over the same shape.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ClusterDrain, DrainCloud } from "../components/clusterDrain";
import { Kubeconfig } from "../components/kubeconfig";
import type { ClusterInfrastructure } from "../contracts";
import type { MaraConfig } from "../config";

/** What {@link connectCluster} needs to know about the cluster. */
export interface ClusterAccessArgs {
    /** Name of the cluster, as the cloud knows it; the drain finds the cluster's load balancers and volumes by it. */
    readonly clusterName: pulumi.Input<string>;
    /** Kubeconfig of the cluster; secret. */
    readonly kubeconfig: pulumi.Input<string>;
    /** Stable identity of the cluster for the provider (its ID); default its name. */
    readonly clusterIdentifier?: pulumi.Input<string>;
    /** Kubeconfig context to use; default the kubeconfig's current context. */
    readonly context?: string;
    /** The cloud, for the drain. */
    readonly cloud: DrainCloud;
    /** The cluster resource, absent for an existing cluster: the provider waits for it and the drain is deleted before it. */
    readonly cluster?: pulumi.Resource;
    /** The cluster's network (VPC): the drain is also deleted before it, so load balancers and ENIs go first. */
    readonly network?: pulumi.Resource[];
}

/** What a cloud contributes to its {@link ClusterInfrastructure} besides the connection to the cluster. */
export type CloudParts = Pick<ClusterInfrastructure, "infraType" | "registry" | "platform" | "publishHostname"> & {
    /** The cloud's own stack outputs; `repository_url` is added when there is a registry. */
    readonly outputs?: ClusterInfrastructure["outputs"];
};

/** Creates the drain and the Kubernetes provider that waits for it, and assembles the cluster's description. */
export function connectCluster(teardown: MaraConfig["teardown"], a: ClusterAccessArgs, parts: CloudParts): ClusterInfrastructure {
    const drain = new ClusterDrain(
        "drain",
        {
            clusterName: a.clusterName,
            cloud: a.cloud,
            kubeconfig: a.kubeconfig,
            context: a.context,
            removeCrds: teardown.removeCrds,
            retainVolumes: teardown.retainVolumes,
            timeoutMinutes: teardown.drainTimeoutMinutes,
        },
        a.cluster ? { dependsOn: [a.cluster, ...(a.network ?? [])] } : undefined,
    );
    const access = new Kubeconfig("kubeconfig", {
        kubeconfig: a.kubeconfig,
        clusterName: a.clusterName,
        clusterIdentifier: a.clusterIdentifier,
        context: a.context,
        waitFor: a.cluster ? [a.cluster, drain] : [drain],
    });
    return {
        infraType: parts.infraType,
        clusterName: access.clusterName,
        kubeconfig: access.kubeconfig,
        provider: access.provider,
        registry: parts.registry,
        platform: parts.platform,
        outputs: { ...parts.outputs, ...(parts.registry ? { repository_url: parts.registry.repositoryUrl } : {}) },
        publishHostname: parts.publishHostname,
    };
}
