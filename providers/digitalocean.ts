/** The DigitalOcean path: DOKS, DOCR and a DNS record, through one explicit DigitalOcean provider. */
import * as digitalocean from "@pulumi/digitalocean";
import * as pulumi from "@pulumi/pulumi";
import { ClusterDrain } from "../components/clusterDrain";
import { DnsRecord } from "../components/dnsRecord";
import { Docr } from "../components/docr";
import { Doks } from "../components/doks";
import { Kubeconfig } from "../components/kubeconfig";
import type { DigitalOceanInfraConfig, MaraConfig } from "../config";
import { doksPlatform } from "./platformFacts";
import type { ClusterInfrastructure } from "./types";

/** Creates the DigitalOcean infrastructure. `cfg.infra` must be the DigitalOcean settings. */
export function createDigitalOceanInfrastructure(cfg: MaraConfig): ClusterInfrastructure {
    const infra = cfg.infra as DigitalOceanInfraConfig;
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
    const drain = new ClusterDrain(
        "drain",
        {
            clusterName: cluster.clusterName,
            cloud: { kind: "digitalocean", token, clusterId: cluster.clusterId, loadBalancerNames: [platform.loadBalancerAnnotations["service.beta.kubernetes.io/do-loadbalancer-name"]!] },
            kubeconfig: cluster.kubeconfig,
            removeCrds: cfg.teardown.removeCrds,
            retainVolumes: cfg.teardown.retainVolumes,
            timeoutMinutes: cfg.teardown.drainTimeoutMinutes,
        },
        { dependsOn: [cluster] },
    );
    const kubeconfig = new Kubeconfig("kubeconfig", {
        kubeconfig: cluster.kubeconfig,
        clusterName: cluster.clusterName,
        clusterIdentifier: cluster.clusterId,
        waitFor: [cluster, drain],
    });

    return {
        infraType: "digitalocean",
        clusterName: cluster.clusterName,
        kubeconfig: kubeconfig.kubeconfig,
        provider: kubeconfig.provider,
        registry: { kind: "docr", repositoryUrl: registry.repositoryUrl, credentials: registry.pushCredentials, pullCredentials: registry.pullCredentials, needsPullSecret: true },
        platform,
        outputs: { cluster_id: cluster.clusterId, registry_name: registry.registryName, repository_url: registry.repositoryUrl },
        publishHostname: (fqdn, address) => new DnsRecord("dns", { fqdn, address }, opts),
    };
}
