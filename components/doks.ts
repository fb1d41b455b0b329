import * as digitalocean from "@pulumi/digitalocean";
import * as pulumi from "@pulumi/pulumi";
import { DEFAULTS } from "../contracts";

/** Arguments of {@link Doks}. */
export interface DoksArgs {
    /** Cluster name (lower-case letters, digits and '-'). Required. */
    clusterName: string;
    /** DigitalOcean region slug, e.g. `sfo3`. Required. */
    region: string;
    /**
     * Kubernetes version: a full DOKS slug (`1.35.1-do.0`), a minor version (`1.35`, resolved to its newest
     * slug) or `latest`. Default `latest`.
     */
    version?: string;
    /** Droplet size of the node pool. Default `s-4vcpu-8gb`. */
    nodeSize?: string;
    /** Nodes in the pool. Default 3; at least 1. */
    nodeCount?: number;
    /** Extra tags for the cluster and its droplets. */
    tags?: string[];
}

/**
 * A DigitalOcean Kubernetes cluster (MARA's domk8s project) with one node pool. The cluster is tagged
 * `mara-cluster-<name>`; DigitalOcean tags the load balancers and volumes Kubernetes creates with the
 * cluster's ID, which is how they are found at destroy time. Pass the DigitalOcean provider in
 * `opts.providers`.
 */
export class Doks extends pulumi.ComponentResource {
    /** Name of the cluster. */
    public readonly clusterName: pulumi.Output<string>;
    /** ID (UUID) of the cluster. */
    public readonly clusterId: pulumi.Output<string>;
    /** Kubeconfig with the cluster's credentials; secret. */
    public readonly kubeconfig: pulumi.Output<string>;

    constructor(name: string, args: DoksArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:infra:Doks", name, {}, opts);
        const nodeCount = args.nodeCount ?? DEFAULTS.doks.nodeCount;
        if (!Number.isInteger(nodeCount) || nodeCount < 1) throw new Error(`Doks: nodeCount must be a whole number of at least 1; got ${nodeCount}.`);
        const requested = args.version ?? DEFAULTS.doks.version;
        const version = /-do\.\d+$/.test(requested)
            ? pulumi.output(requested)
            : digitalocean
                  .getKubernetesVersionsOutput(requested === "latest" ? {} : { versionPrefix: `${requested}.` }, { parent: this })
                  .apply((v) => {
                      if (!v.latestVersion) throw new Error(`Doks: DigitalOcean offers no Kubernetes ${requested}; valid versions: ${v.validVersions.join(", ")}.`);
                      return v.latestVersion;
                  });
        const tags = [`mara-cluster-${args.clusterName}`, ...(args.tags ?? [])];
        const cluster = new digitalocean.KubernetesCluster(
            `${name}-cluster`,
            {
                name: args.clusterName,
                region: args.region,
                version,
                tags,
                nodePool: { name: `${args.clusterName}-pool`, size: args.nodeSize ?? DEFAULTS.doks.nodeSize, nodeCount, tags },
            },
            { parent: this },
        );
        this.clusterName = cluster.name;
        this.clusterId = cluster.id;
        this.kubeconfig = pulumi.secret(cluster.kubeConfigs.apply((configs) => configs[0]!.rawConfig!));
        this.registerOutputs({ clusterName: this.clusterName, clusterId: this.clusterId, kubeconfig: this.kubeconfig });
    }
}
