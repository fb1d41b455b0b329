import * as linode from "@pulumi/linode";
import * as pulumi from "@pulumi/pulumi";
import { DEFAULTS } from "../contracts";

/** Arguments of {@link Lke}. */
export interface LkeArgs {
    /** Cluster label (letters, digits and '-', at most 32 characters). Required. */
    clusterName: string;
    /** Linode region, e.g. `us-central`. Required. */
    region: string;
    /** Kubernetes minor version, e.g. "1.34". Required. */
    version: string;
    /** Linode type of the node pool. Default `g6-standard-8`. */
    nodeType?: string;
    /** Nodes in the pool. Default 3; at least 1. */
    nodeCount?: number;
    /** High-availability control plane. Default true. */
    highAvailability?: boolean;
    /** Extra tags for the cluster. */
    tags?: string[];
}

/**
 * A Linode Kubernetes Engine cluster (MARA's lke project) with one node pool. Pass the Linode provider in
 * `opts.providers`. The kubeconfig Linode returns is base64-encoded and carries a token; it is decoded
 * and kept secret.
 */
export class Lke extends pulumi.ComponentResource {
    /** Label of the cluster. */
    public readonly clusterName: pulumi.Output<string>;
    /** Numeric ID of the cluster (NodeBalancers Kubernetes creates are labelled with it). */
    public readonly clusterId: pulumi.Output<string>;
    /** Kubeconfig (YAML), decoded; secret. */
    public readonly kubeconfig: pulumi.Output<string>;

    constructor(name: string, args: LkeArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:infra:Lke", name, {}, opts);
        if (!/^[a-zA-Z0-9][a-zA-Z0-9-]{0,31}$/.test(args.clusterName)) {
            throw new Error(`Lke: clusterName "${args.clusterName}" is not a valid LKE label (letters, digits and '-', at most 32 characters).`);
        }
        const nodeCount = args.nodeCount ?? DEFAULTS.lke.nodeCount;
        if (!Number.isInteger(nodeCount) || nodeCount < 1) throw new Error(`Lke: nodeCount must be a whole number of at least 1; got ${nodeCount}.`);
        const cluster = new linode.LkeCluster(
            `${name}-cluster`,
            {
                label: args.clusterName,
                region: args.region,
                k8sVersion: args.version,
                controlPlane: { highAvailability: args.highAvailability ?? DEFAULTS.lke.highAvailability },
                pools: [{ type: args.nodeType ?? DEFAULTS.lke.nodeType, count: nodeCount }],
                tags: ["mara", `mara-cluster-${args.clusterName}`, ...(args.tags ?? [])],
            },
            { parent: this },
        );
        this.clusterName = cluster.label;
        this.clusterId = cluster.id;
        this.kubeconfig = pulumi.secret(cluster.kubeconfig.apply((encoded) => Buffer.from(encoded, "base64").toString("utf8")));
        this.registerOutputs({ clusterName: this.clusterName, clusterId: this.clusterId, kubeconfig: this.kubeconfig });
    }
}
