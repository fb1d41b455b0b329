import * as pulumi from "@pulumi/pulumi";
import { DEFAULTS } from "../contracts";
import { DrainProps, runDrain } from "./drain/run";

/** Where the cluster runs, and what the drain needs to find what Kubernetes created there. */
export type DrainCloud =
    | { kind: "aws"; region: string; profile?: string; vpcId: pulumi.Input<string> }
    | { kind: "digitalocean"; token: pulumi.Input<string>; clusterId: pulumi.Input<string>; loadBalancerNames: string[] }
    | { kind: "linode"; token: pulumi.Input<string> }
    | { kind: "none" };

/** Arguments of {@link ClusterDrain}. */
export interface ClusterDrainArgs {
    /** Name of the cluster; the tag or label the cloud resources carry derive from it. Required. */
    clusterName: pulumi.Input<string>;
    /** The cloud and its credentials (kept secret in the state). Required. */
    cloud: DrainCloud;
    /** Kubeconfig, to remove the platform's CRDs at destroy. Secret. */
    kubeconfig?: pulumi.Input<string>;
    /** Context of the kubeconfig. Default: its current context. */
    context?: string;
    /**
     * Remove the CRDs the platform's charts leave behind. Default true; turn it off on a shared cluster
     * where others may use the same CRDs (the existing-cluster path does).
     */
    removeCrds?: boolean;
    /** Keep volumes: never list or delete them. Default false. */
    retainVolumes?: boolean;
    /** How long destroy waits for the cloud to clean up before failing with the list of leftovers. Default 15. */
    timeoutMinutes?: number;
}

/**
 * The step that makes `pulumi destroy` converge in one pass. It sits between the cluster (and its
 * network) and everything deployed into the cluster: the Kubernetes provider waits for it, so on
 * destroy every Kubernetes object is gone before its delete step runs, and it is gone before the cluster
 * and network are deleted. Its delete step removes the CRDs Helm keeps, then waits — with a bounded
 * timeout and progress messages — until the load balancers, network interfaces and volumes Kubernetes
 * created for this cluster are gone, deleting leftovers that carry this cluster's tag or label and nothing
 * else. Creating it does nothing.
 */
export class ClusterDrain extends pulumi.ComponentResource {
    constructor(name: string, args: ClusterDrainArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:infra:ClusterDrain", name, {}, opts);
        const timeout = args.timeoutMinutes ?? DEFAULTS.clusterDrain.timeoutMinutes;
        if (!Number.isInteger(timeout) || timeout < 1 || timeout > 120) throw new Error(`ClusterDrain: timeoutMinutes must be a whole number from 1 to 120; got ${timeout}.`);
        const c = args.cloud;
        const props: Record<string, pulumi.Input<unknown>> = {
            cloud: c.kind,
            clusterName: args.clusterName,
            removeCrds: args.removeCrds ?? DEFAULTS.clusterDrain.removeCrds,
            retainVolumes: args.retainVolumes ?? DEFAULTS.clusterDrain.retainVolumes,
            timeoutMinutes: timeout,
            ...(args.kubeconfig !== undefined ? { kubeconfig: pulumi.secret(args.kubeconfig) } : {}),
            ...(args.context ? { context: args.context } : {}),
            ...(c.kind === "aws" ? { region: c.region, vpcId: c.vpcId, ...(c.profile ? { profile: c.profile } : {}) } : {}),
            ...(c.kind === "digitalocean" ? { token: pulumi.secret(c.token), clusterId: c.clusterId, loadBalancerNames: c.loadBalancerNames } : {}),
            ...(c.kind === "linode" ? { token: pulumi.secret(c.token) } : {}),
        };
        // The component's dependsOn (the cluster and its network) must hold for the resource whose delete does the work.
        new DrainResource(`${name}-drain`, props, { parent: this, dependsOn: opts?.dependsOn, additionalSecretOutputs: ["token", "kubeconfig"] });
        this.registerOutputs({});
    }
}

/**
 * The dynamic provider: nothing to do on create or update; the drain on delete. Pulumi serialises these
 * functions into the state and runs them in its dynamic-provider host, which has no TypeScript loader,
 * so the drain code is reached through this closure rather than a path.
 */
const drainProvider: pulumi.dynamic.ResourceProvider = {
    async create(inputs: DrainProps) {
        return { id: `${inputs.clusterName}-drain`, outs: inputs };
    },
    async diff() {
        // Settings only matter at delete time; never replace the drain (a replace would run it mid-update).
        return { changes: true, replaces: [], deleteBeforeReplace: false };
    },
    async update(_id: string, _olds: DrainProps, news: DrainProps) {
        return { outs: news };
    },
    async delete(_id: string, props: DrainProps) {
        await runDrain(props, (message) => console.log(`[mara drain] ${message}`));
    },
};

/** The drain as a resource in the graph (`pulumi-nodejs:dynamic:Resource`). */
class DrainResource extends pulumi.dynamic.Resource {
    constructor(name: string, props: Record<string, pulumi.Input<unknown>>, opts?: pulumi.CustomResourceOptions) {
        super(drainProvider, name, props, opts);
    }
}
