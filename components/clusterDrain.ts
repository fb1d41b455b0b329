import * as pulumi from "@pulumi/pulumi";
import type { HelmReleaseRef } from "./drain/crds";
import { drainProvider } from "./drain/provider";
import { PLATFORM_HELM_RELEASES } from "./drain/releases";

/** Where the cluster runs, and what the drain needs to find what Kubernetes created there. */
export type DrainCloud =
    | { kind: "aws"; region: string; profile?: string; vpcId: pulumi.Input<string> }
    | { kind: "digitalocean"; token: pulumi.Input<string>; clusterId: pulumi.Input<string> }
    | { kind: "linode"; token: pulumi.Input<string> }
    | { kind: "none" };

/** Arguments of {@link ClusterDrain}. */
export interface ClusterDrainArgs {
    /** Name of the cluster, for messages and the AWS controllers' `kubernetes.io/cluster/<name>` tag. Required. */
    clusterName: pulumi.Input<string>;
    /**
     * The cloud and its credentials (kept secret in the state): the VPC ID on AWS and the cluster ID on
     * DigitalOcean are the values unique to this cluster that the cloud side is checked against. Required.
     */
    cloud: DrainCloud;
    /**
     * Kubeconfig of the cluster (secret). The drain reads the cluster's records through it (its
     * PersistentVolumes and LoadBalancer Services): without them it deletes nothing. Required unless
     * `cloud.kind` is `none`.
     */
    kubeconfig?: pulumi.Input<string>;
    /** Context of the kubeconfig. Default: its current context. */
    context?: string;
    /**
     * Remove the CRDs that `helmReleases` installed, proven by Helm's ownership marks. Default true;
     * ignored with `cloud.kind: none`: on a cluster the stack did not create nothing is removed.
     */
    removeCrds?: boolean;
    /** The Helm releases (name and namespace) whose CRDs may be removed. Default: the platform's releases. */
    helmReleases?: HelmReleaseRef[];
    /**
     * Keep every volume: delete none, whatever its PersistentVolume says. Default false: volumes the
     * cluster provisioned whose PersistentVolume says `Delete` are deleted; `Retain` and imported ones are
     * always kept.
     */
    retainVolumes?: boolean;
    /** How long destroy waits for the cloud to clean up before failing with the list of leftovers. Default 15. */
    timeoutMinutes?: number;
}

/**
 * The step that makes `pulumi destroy` converge in one pass, deleting only what this cluster made. It
 * sits between the cluster (and its network) and everything deployed into the cluster: the Kubernetes
 * provider waits for it, so on destroy every Kubernetes object is gone before its delete step runs, and
 * it runs before the cluster and network are deleted, while the cluster still answers. Its delete step
 * reads the cluster's own records (PersistentVolumes with their reclaim policy and volume handles,
 * LoadBalancer Services with the load balancers their status names), removes the CRDs the platform's
 * Helm releases installed, then waits — with a bounded timeout and progress messages — for the load
 * balancers and volumes those records prove to be this cluster's, deleting those left after a grace
 * period once the cloud confirms them with a value unique to this cluster. Everything else, `Retain` and
 * imported volumes included, is reported and kept. Creating it does nothing.
 */
export class ClusterDrain extends pulumi.ComponentResource {
    constructor(name: string, args: ClusterDrainArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:infra:ClusterDrain", name, {}, opts);
        const timeout = args.timeoutMinutes ?? 15;
        if (!Number.isInteger(timeout) || timeout < 1 || timeout > 120) throw new Error(`ClusterDrain: timeoutMinutes must be a whole number from 1 to 120; got ${timeout}.`);
        const c = args.cloud;
        if (c.kind !== "none" && args.kubeconfig === undefined) {
            throw new Error(`ClusterDrain: kubeconfig is required for cloud "${c.kind}": the drain decides what it may delete from the cluster's own records.`);
        }
        const props: Record<string, pulumi.Input<unknown>> = {
            cloud: c.kind,
            clusterName: args.clusterName,
            removeCrds: c.kind !== "none" && (args.removeCrds ?? true),
            helmReleases: (args.helmReleases ?? PLATFORM_HELM_RELEASES).map((r) => ({ name: r.name, namespace: r.namespace })),
            retainVolumes: args.retainVolumes ?? false,
            timeoutMinutes: timeout,
            ...(args.kubeconfig !== undefined ? { kubeconfig: pulumi.secret(args.kubeconfig) } : {}),
            ...(args.context ? { context: args.context } : {}),
            ...(c.kind === "aws" ? { region: c.region, vpcId: c.vpcId, ...(c.profile ? { profile: c.profile } : {}) } : {}),
            ...(c.kind === "digitalocean" ? { token: pulumi.secret(c.token), clusterId: c.clusterId } : {}),
            ...(c.kind === "linode" ? { token: pulumi.secret(c.token) } : {}),
        };
        // The component's dependsOn (the cluster and its network) must hold for the resource whose delete does the work.
        new DrainResource(`${name}-drain`, props, { parent: this, dependsOn: opts?.dependsOn, additionalSecretOutputs: ["token", "kubeconfig"] });
        this.registerOutputs({});
    }
}

/** The drain as a resource in the graph (`pulumi-nodejs:dynamic:Resource`). */
class DrainResource extends pulumi.dynamic.Resource {
    constructor(name: string, props: Record<string, pulumi.Input<unknown>>, opts?: pulumi.CustomResourceOptions) {
        super(drainProvider, name, props, opts);
    }
}
