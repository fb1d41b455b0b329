/**
 * What the drain does when `pulumi destroy` reaches it: every Kubernetes object of the stack is gone and
 * the cluster still runs. It reads the cluster's records (PersistentVolumes, LoadBalancer Services),
 * removes the platform's own CRDs, asks Kubernetes to delete the LoadBalancer Services still there so
 * their controllers release the load balancers, then waits for (and cleans up) what the records prove
 * this cluster made in the cloud. Without the records nothing is proven, so nothing is deleted.
 * Everything is loaded lazily: this code runs inside Pulumi's dynamic-provider host at destroy only.
 */
import { awsDrainApi } from "./aws";
import { awsSdkClient } from "./awsSdk";
import { HelmReleaseRef, removePlatformCrds } from "./crds";
import { digitalOceanDrainApi, digitalOceanHttpClient } from "./digitalocean";
import { drain, DrainApi, DrainOptions, DrainReport } from "./engine";
import { linodeDrainApi, linodeSdkClient } from "./linode";
import { preservesLoadBalancer } from "./ownership";
import { ClusterClient, ClusterRecords, kubernetesClusterClient, readRecords } from "./records";

/** Everything the drain needs at destroy time; stored (secrets encrypted) in the stack's state. */
export interface DrainProps {
    readonly cloud: "aws" | "digitalocean" | "linode" | "none";
    readonly clusterName: string;
    readonly region?: string;
    readonly profile?: string;
    readonly vpcId?: string;
    readonly clusterId?: string;
    readonly token?: string;
    readonly kubeconfig?: string;
    readonly context?: string;
    readonly removeCrds: boolean;
    /** The platform's Helm releases: CRDs carrying their ownership marks are removed. */
    readonly helmReleases?: readonly HelmReleaseRef[];
    readonly retainVolumes: boolean;
    readonly timeoutMinutes: number;
    /** How long the cluster's controllers get before the drain deletes leftovers itself. Default 120 s; the component never sets it. */
    readonly graceSeconds?: number;
    /** Time between checks. Default 15 s; the component never sets it. */
    readonly pollSeconds?: number;
}

/** Where the drain's clients come from: the real clouds, or fakes in tests. */
export interface DrainDeps {
    cluster(kubeconfig: string, context?: string): ClusterClient;
    cloud(p: DrainProps, records: ClusterRecords): DrainApi | undefined;
}

/** The cloud view for the drain, from the cloud's official clients. */
export function cloudApi(p: DrainProps, records: ClusterRecords): DrainApi | undefined {
    switch (p.cloud) {
        case "aws":
            return awsDrainApi(awsSdkClient(p.region!, p.profile), { region: p.region!, clusterName: p.clusterName, vpcId: p.vpcId!, retainVolumes: p.retainVolumes }, records);
        case "digitalocean":
            return digitalOceanDrainApi(digitalOceanHttpClient(p.token!), { clusterName: p.clusterName, clusterId: p.clusterId!, retainVolumes: p.retainVolumes }, records);
        case "linode":
            return linodeDrainApi(linodeSdkClient(p.token!), { clusterName: p.clusterName, retainVolumes: p.retainVolumes }, records);
        default:
            return undefined;
    }
}

const REAL: DrainDeps = { cluster: kubernetesClusterClient, cloud: cloudApi };

/**
 * Runs the whole drain; `log` reports progress. Returns what was deleted and kept, or undefined when
 * there was nothing to drain (an existing cluster) or the cluster's records could not be read.
 */
export async function runDrain(p: DrainProps, log: (m: string) => void, deps: DrainDeps = REAL, timing: Omit<DrainOptions, "log" | "timeoutMs" | "afterFirstLook"> = {}): Promise<DrainReport | undefined> {
    if (p.cloud === "none") {
        // The program never deletes what it did not create on a cluster it does not own: CRDs stay too.
        log(`${p.clusterName}: an existing cluster; the drain deletes nothing in it or in any cloud.`);
        return undefined;
    }
    let cluster: ClusterClient;
    let records: ClusterRecords;
    try {
        if (!p.kubeconfig) throw new Error("no kubeconfig in the drain's settings");
        cluster = deps.cluster(p.kubeconfig, p.context);
        records = await readRecords(cluster);
    } catch (e) {
        // An unreachable cluster (already deleted, credentials expired) must not block the rest of destroy.
        log(
            `${p.clusterName}: cannot read the cluster's PersistentVolumes and Services (${(e as Error).message}). Nothing can be proven to be ` +
                `this cluster's, so the drain deletes nothing; look in the cloud console for volumes named pvc-… and load balancers it may have left.`,
        );
        return undefined;
    }
    if (p.removeCrds) {
        try {
            const { removed } = await removePlatformCrds(cluster, p.helmReleases ?? [], log);
            log(`${p.clusterName}: removed ${removed.length} CustomResourceDefinition(s) this platform's Helm releases installed`);
        } catch (e) {
            log(`${p.clusterName}: could not remove the platform's CRDs (${(e as Error).message}); continuing`);
        }
    }
    const api = deps.cloud(p, records);
    // Asked only after the drain's first look, while the Services still hold their load balancers: that
    // look fixes which load balancers are this cluster's, so their network interfaces are awaited after the
    // controllers delete them, and an address released meanwhile cannot make another's look like ours.
    const deleteServices = async () => {
        for (const lb of records.loadBalancers) {
            if (preservesLoadBalancer(lb)) continue;
            try {
                await cluster.deleteService(lb.service);
                log(`${p.clusterName}: asked Kubernetes to delete LoadBalancer Service ${lb.service}, so its controller releases its load balancer`);
            } catch (e) {
                log(`${p.clusterName}: could not delete Service ${lb.service} (${(e as Error).message}); its load balancer is deleted directly after the grace period`);
            }
        }
    };
    if (!api) return undefined;
    const fromProps = { ...(p.graceSeconds !== undefined ? { graceMs: p.graceSeconds * 1000 } : {}), ...(p.pollSeconds !== undefined ? { pollMs: p.pollSeconds * 1000 } : {}) };
    return drain(api, { ...fromProps, ...timing, timeoutMs: p.timeoutMinutes * 60_000, log, afterFirstLook: deleteServices });
}
