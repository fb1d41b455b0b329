/**
 * The two steps every infrastructure path ends with: the destroy drain, then the one Kubernetes
 * provider, which waits for both the cluster and the drain. Written once so every cloud gets the same
 * delete order (everything in the cluster, then the drain, then the cluster and its network).
 */
import type * as pulumi from "@pulumi/pulumi";
import { ClusterDrain, DrainCloud } from "../components/clusterDrain";
import { Kubeconfig } from "../components/kubeconfig";
import type { MaraConfig } from "../config";

/** What {@link clusterAccess} needs to know about the cluster. */
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

/** Creates the drain and the Kubernetes provider that waits for it. */
export function clusterAccess(cfg: MaraConfig, a: ClusterAccessArgs): Kubeconfig {
    const drain = new ClusterDrain(
        "drain",
        {
            clusterName: a.clusterName,
            cloud: a.cloud,
            kubeconfig: a.kubeconfig,
            context: a.context,
            removeCrds: cfg.teardown.removeCrds,
            retainVolumes: cfg.teardown.retainVolumes,
            timeoutMinutes: cfg.teardown.drainTimeoutMinutes,
        },
        a.cluster ? { dependsOn: [a.cluster, ...(a.network ?? [])] } : undefined,
    );
    return new Kubeconfig("kubeconfig", {
        kubeconfig: a.kubeconfig,
        clusterName: a.clusterName,
        clusterIdentifier: a.clusterIdentifier,
        context: a.context,
        waitFor: a.cluster ? [a.cluster, drain] : [drain],
    });
}
