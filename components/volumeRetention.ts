import * as pulumi from "@pulumi/pulumi";
import { retentionProvider } from "./drain/retentionProvider";

/** Arguments of {@link VolumeRetention}. */
export interface VolumeRetentionArgs {
    /** Kubeconfig of the cluster (secret). Required. */
    kubeconfig: pulumi.Input<string>;
    /** Context of the kubeconfig. Default: its current context. */
    context?: string;
    /**
     * Keep the data volumes (`mara:retainVolumes`): switch every PersistentVolume bound to a claim in
     * `namespaces` to reclaim policy `Retain`. Default false, which changes nothing (turning retention
     * off never makes a volume deletable).
     */
    retainVolumes?: boolean;
    /** Namespaces whose claims hold the platform's data (Elasticsearch, Prometheus, Grafana, the databases). Required. */
    namespaces: pulumi.Input<string>[];
}

/**
 * Makes `mara:retainVolumes` reach volumes that already exist. A StorageClass's reclaim policy applies
 * only to volumes provisioned after it, and the claims of ECK and Grafana are deleted with their
 * components; so this step, created after the stateful components (pass them in `opts.dependsOn`),
 * switches their PersistentVolumes to `Retain` on `pulumi up` when retention is on, and again first
 * thing at destroy (it is deleted before what it depends on).
 */
export class VolumeRetention extends pulumi.ComponentResource {
    constructor(name: string, args: VolumeRetentionArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:k8s:VolumeRetention", name, {}, opts);
        const props: Record<string, pulumi.Input<unknown>> = {
            retainVolumes: args.retainVolumes ?? false,
            namespaces: args.namespaces,
            kubeconfig: pulumi.secret(args.kubeconfig),
            ...(args.context ? { context: args.context } : {}),
        };
        // The component's dependsOn (the stateful components) must hold for the resource whose delete does the work.
        new RetentionResource(`${name}-retain`, props, { parent: this, dependsOn: opts?.dependsOn, additionalSecretOutputs: ["kubeconfig"] });
        this.registerOutputs({});
    }
}

/** The retention step as a resource in the graph (`pulumi-nodejs:dynamic:Resource`). */
class RetentionResource extends pulumi.dynamic.Resource {
    constructor(name: string, props: Record<string, pulumi.Input<unknown>>, opts?: pulumi.CustomResourceOptions) {
        super(retentionProvider, name, props, opts);
    }
}
