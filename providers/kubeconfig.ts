/**
 * An existing cluster reached through a kubeconfig (K3s, MicroK8s, Minikube, AKS, GKE, ...): no cloud
 * resources, only the Kubernetes provider. MARA handled these with a separate shell-script path; here the
 * same platform and app run on them through the same factory.
 */
import * as fs from "fs";
import * as pulumi from "@pulumi/pulumi";
import { expandHome, isKubeconfigPath, KubeconfigInfraConfig, MaraConfig } from "../config";
import { clusterAccess } from "./clusterAccess";
import { externalRegistry } from "./externalRegistry";
import { EXISTING_CLUSTER_PLATFORM } from "./platformFacts";
import type { ClusterInfrastructure } from "./types";

/** Connects to the existing cluster. `cfg.infra` must be the kubeconfig settings. */
export function createKubeconfigInfrastructure(cfg: MaraConfig): ClusterInfrastructure {
    const infra = cfg.infra as KubeconfigInfraConfig;
    const credentials = pulumi.secret(readKubeconfig(infra.kubeconfig!));
    // No cloud to drain, but the platform's CRDs can still be removed at destroy when asked (mara:removeCrds).
    const kubeconfig = clusterAccess(cfg, { clusterName: cfg.clusterName, kubeconfig: credentials, context: infra.context, cloud: { kind: "none" } });
    const registry = externalRegistry(infra.registry);
    return {
        infraType: "kubeconfig",
        clusterName: kubeconfig.clusterName,
        kubeconfig: kubeconfig.kubeconfig,
        provider: kubeconfig.provider,
        registry,
        platform: EXISTING_CLUSTER_PLATFORM,
        outputs: registry ? { repository_url: registry.repositoryUrl } : {},
    };
}

/**
 * The kubeconfig's contents: the file's, when the setting is a path. Read at run time so the provider
 * holds the credentials themselves (a path in state would break on any other machine).
 */
export function readKubeconfig(setting: string, env: NodeJS.ProcessEnv = process.env): string {
    if (!isKubeconfigPath(setting)) return setting;
    const path = expandHome(setting, env);
    try {
        return fs.readFileSync(path, "utf8");
    } catch (e) {
        throw new Error(`mara:kubeconfig (kubernetes:kubeconfig): cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); set it to an existing kubeconfig file or its contents.`);
    }
}
