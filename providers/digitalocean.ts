/** The DigitalOcean path: DOKS, DOCR and a DNS record, through one explicit DigitalOcean provider. */
import * as digitalocean from "@pulumi/digitalocean";
import * as pulumi from "@pulumi/pulumi";
import { DnsRecord } from "../components/dnsRecord";
import { Docr } from "../components/docr";
import { Doks } from "../components/doks";
import type { ClusterInfrastructure } from "../contracts";
import type { DigitalOceanInfraConfig, MaraConfig } from "../config";
import { connectCluster } from "./clusterAccess";
import { doksPlatform } from "./platformFacts";

/** Creates the DigitalOcean infrastructure. */
export function createDigitalOceanInfrastructure(cfg: MaraConfig<DigitalOceanInfraConfig>): ClusterInfrastructure {
    const infra = cfg.infra;
    // With no token in config the provider reads DIGITALOCEAN_TOKEN itself; config validation warned already.
    const token = infra.token ?? pulumi.secret(process.env.DIGITALOCEAN_TOKEN ?? "");
    const provider = new digitalocean.Provider("digitalocean", { token });
    const opts = { providers: [provider] };

    const registry = new Docr(
        "docr",
        { name: infra.registryName, clusterName: cfg.clusterName, adopt: infra.adoptRegistry, tier: infra.registryTier, region: infra.region, token },
        opts,
    );
    const cluster = new Doks(
        "doks",
        { clusterName: cfg.clusterName, region: infra.region, version: infra.k8sVersion, nodeSize: infra.instanceSize, nodeCount: infra.nodeCount },
        opts,
    );
    const platform = doksPlatform(cfg.clusterName);
    return connectCluster(
        cfg.teardown,
        {
            clusterName: cluster.clusterName,
            kubeconfig: cluster.kubeconfig,
            clusterIdentifier: cluster.clusterId,
            cloud: { kind: "digitalocean", token, clusterId: cluster.clusterId },
            cluster,
        },
        {
            infraType: "digitalocean",
            registry: { kind: "docr", repositoryUrl: registry.repositoryUrl, credentials: registry.pushCredentials, pullCredentials: registry.pullCredentials, needsPullSecret: true },
            platform,
            outputs: { cluster_id: cluster.clusterId, registry_name: registry.registryName },
            publishHostname: (fqdn, address, more) => new DnsRecord("dns", { fqdn, address }, { ...opts, ...more }),
        },
    );
}
