/**
 * The Linode path: an LKE cluster through one explicit Linode provider. MARA also ran Harbor on a Linode
 * VM only to re-host the ingress controller image; here the image goes to a registry you already have
 * (mara:registry*) or is pulled from its source, which removes a public VM, three passwords, a DNS name
 * and a boot wait from every deployment.
 */
import * as linode from "@pulumi/linode";
import * as pulumi from "@pulumi/pulumi";
import { Lke } from "../components/lke";
import type { ClusterInfrastructure } from "../contracts";
import type { LinodeInfraConfig, MaraConfig } from "../config";
import { connectCluster } from "./clusterAccess";
import { externalRegistry } from "./externalRegistry";
import { lkePlatform } from "./platformFacts";

/** Creates the Linode infrastructure. */
export function createLinodeInfrastructure(cfg: MaraConfig<LinodeInfraConfig>): ClusterInfrastructure {
    const infra = cfg.infra;
    // MARA's projects found the Linode provider did not pick the token up by itself; pass it explicitly.
    const token = infra.token ?? pulumi.secret(process.env.LINODE_TOKEN ?? "");
    const provider = new linode.Provider("linode", { token });
    const cluster = new Lke(
        "lke",
        {
            clusterName: cfg.clusterName,
            region: infra.region,
            version: infra.k8sVersion,
            nodeType: infra.instanceType,
            nodeCount: infra.nodeCount,
            highAvailability: infra.highAvailability,
        },
        { providers: [provider] },
    );
    return connectCluster(
        cfg.teardown,
        { clusterName: cluster.clusterName, kubeconfig: cluster.kubeconfig, clusterIdentifier: cluster.clusterId, cloud: { kind: "linode", token }, cluster },
        { infraType: "linode", registry: externalRegistry(infra.registry), platform: lkePlatform(cfg.clusterName), outputs: { cluster_id: cluster.clusterId } },
    );
}
