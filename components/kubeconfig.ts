import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";

/** Arguments of {@link Kubeconfig}. */
export interface KubeconfigArgs {
    /**
     * Kubeconfig document (YAML or JSON) for the cluster. Always handled as a secret: LKE and DOKS
     * kubeconfigs carry credentials. Required.
     */
    kubeconfig: pulumi.Input<string>;
    /** Name of the cluster, for outputs and messages. Required. */
    clusterName: pulumi.Input<string>;
    /** Context to use; the kubeconfig's current context when omitted. */
    context?: pulumi.Input<string>;
    /**
     * Stable identity of the cluster (its name or ID). The provider is replaced only when this changes,
     * so a rotated token or a re-generated kubeconfig never replaces the workloads. Default: the `clusterName`.
     */
    clusterIdentifier?: pulumi.Input<string>;
    /**
     * Resources that must exist before anything is deployed to the cluster, typically its node group:
     * the provider waits for them, so every Kubernetes object (all of which use this provider) does too.
     */
    waitFor?: pulumi.Input<pulumi.Input<pulumi.Resource>[]>;
}

/**
 * Turns a cluster's credentials into the one Kubernetes provider the platform uses. Every Kubernetes
 * object is created with this provider, never with the ambient kubeconfig (MARA's Helm releases followed
 * whatever `kubectl` pointed at).
 */
export class Kubeconfig extends pulumi.ComponentResource {
    /** The Kubernetes provider for this cluster. Pass it to components through `opts.providers`. */
    public readonly provider: k8s.Provider;
    /** The kubeconfig, as a secret. */
    public readonly kubeconfig: pulumi.Output<string>;
    /** Name of the cluster. */
    public readonly clusterName: pulumi.Output<string>;

    constructor(name: string, args: KubeconfigArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:infra:Kubeconfig", name, {}, opts);
        this.kubeconfig = pulumi.secret(args.kubeconfig);
        this.clusterName = pulumi.output(args.clusterName);
        this.provider = new k8s.Provider(
            `${name}-provider`,
            {
                kubeconfig: this.kubeconfig,
                context: args.context,
                clusterIdentifier: args.clusterIdentifier ?? args.clusterName,
                enableServerSideApply: true,
                // Without it the provider replaces a Secret whose data changes; a Secret of fixed name is then deleted
                // before its replacement is made, and Pulumi replaces everything that refers to it the same way: a
                // rotated database password deleted and re-created the database's StatefulSet and its clients (found
                // by the real-engine tier). Mutable, the Secret updates in place and the pods roll through
                // passwordRotation.ts's revision annotation.
                enableSecretMutable: true,
            },
            { parent: this, dependsOn: args.waitFor },
        );
        this.registerOutputs({ kubeconfig: this.kubeconfig, clusterName: this.clusterName });
    }
}
