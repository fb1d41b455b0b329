/**
 * What the drain does when `pulumi destroy` reaches it: remove the platform's CRDs while the cluster
 * still answers, then wait for (and clean up) the cloud resources Kubernetes created. Everything is
 * loaded lazily: this code runs inside Pulumi's dynamic-provider host, never during a preview or update.
 */
import { awsDrainApi } from "./aws";
import { awsSdkClient } from "./awsSdk";
import { kubernetesCrdClient, PLATFORM_CRD_GROUPS, removeCrds } from "./crds";
import { digitalOceanDrainApi, digitalOceanHttpClient } from "./digitalocean";
import { drain, DrainApi } from "./engine";
import { linodeDrainApi, linodeSdkClient } from "./linode";

/** Everything the drain needs at destroy time; stored (secrets encrypted) in the stack's state. */
export interface DrainProps {
    readonly cloud: "aws" | "digitalocean" | "linode" | "none";
    readonly clusterName: string;
    readonly region?: string;
    readonly profile?: string;
    readonly vpcId?: string;
    readonly clusterId?: string;
    readonly token?: string;
    readonly loadBalancerNames?: string[];
    readonly kubeconfig?: string;
    readonly context?: string;
    readonly removeCrds: boolean;
    readonly retainVolumes: boolean;
    readonly timeoutMinutes: number;
}

/** The cloud view for the drain, or none for an existing cluster. */
export async function cloudApi(p: DrainProps): Promise<DrainApi | undefined> {
    switch (p.cloud) {
        case "aws":
            return awsDrainApi(await awsSdkClient(p.region!, p.profile), { region: p.region!, clusterName: p.clusterName, vpcId: p.vpcId!, retainVolumes: p.retainVolumes });
        case "digitalocean":
            return digitalOceanDrainApi(digitalOceanHttpClient(p.token!), {
                clusterName: p.clusterName,
                clusterId: p.clusterId!,
                loadBalancerNames: p.loadBalancerNames ?? [],
                retainVolumes: p.retainVolumes,
            });
        case "linode":
            return linodeDrainApi(await linodeSdkClient(p.token!), { clusterName: p.clusterName, retainVolumes: p.retainVolumes });
        default:
            return undefined;
    }
}

/** Runs the whole drain; `log` reports progress. */
export async function runDrain(p: DrainProps, log: (m: string) => void): Promise<void> {
    if (p.removeCrds && p.kubeconfig) {
        try {
            const removed = await removeCrds(await kubernetesCrdClient(p.kubeconfig, p.context), PLATFORM_CRD_GROUPS, log);
            log(`${p.clusterName}: removed ${removed.length} CustomResourceDefinition(s) the charts leave behind`);
        } catch (e) {
            // An unreachable cluster (already deleted, credentials expired) must not block the rest of destroy.
            log(`${p.clusterName}: could not remove the platform's CRDs (${(e as Error).message}); continuing`);
        }
    }
    const api = await cloudApi(p);
    if (api) await drain(api, { timeoutMs: p.timeoutMinutes * 60_000, log });
}
