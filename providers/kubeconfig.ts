/**
 * An existing cluster reached through a kubeconfig (K3s, MicroK8s, Minikube, AKS, GKE, ...): no cloud
 * resources, only the Kubernetes provider. MARA handled these with a separate shell-script path; here the
 * same platform and app run on them through the same factory.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ClusterInfrastructure } from "../contracts";
import { ENCRYPTED_PLACEHOLDER, inspectLocalPath, isKubeconfigPath, KubeconfigInfraConfig, MaraConfig, resolveLocalPath } from "../config";
import { connectCluster } from "./clusterAccess";
import { externalRegistry } from "./externalRegistry";
import { EXISTING_CLUSTER_PLATFORM } from "./platformFacts";

/** Connects to the existing cluster. */
export function createKubeconfigInfrastructure(cfg: MaraConfig<KubeconfigInfraConfig>): ClusterInfrastructure {
    const infra = cfg.infra;
    const credentials = pulumi.secret(readKubeconfig(infra.kubeconfig));
    // No cloud to drain, but the platform's CRDs can still be removed at destroy when asked (mara:removeCrds).
    return connectCluster(
        cfg.teardown,
        { clusterName: cfg.clusterName, kubeconfig: credentials, context: infra.context, cloud: { kind: "none" } },
        { infraType: "kubeconfig", registry: externalRegistry(infra.registry), platform: EXISTING_CLUSTER_PLATFORM },
    );
}

/**
 * The kubeconfig's contents: the file's, when the setting is a path (resolved as validation resolved it:
 * `~` is the home directory, a relative path is relative to the project directory, where Pulumi runs the
 * program). Read at run time so the provider holds the credentials themselves (a path in state would break
 * on any other machine). Validation has already checked the file, so a failure here means it changed since.
 */
export function readKubeconfig(setting: string, env: NodeJS.ProcessEnv = process.env, baseDir: string = process.cwd()): string {
    // Offline (mara plan, mara render) a kubeconfig stored encrypted stays encrypted without the passphrase: the
    // provider gets the stand-in, which nothing there connects with. Under Pulumi the program gets the plain text.
    if (setting === ENCRYPTED_PLACEHOLDER || !isKubeconfigPath(setting)) return setting;
    const path = resolveLocalPath(setting.trim(), baseDir, env);
    const found = inspectLocalPath(path);
    if (found.kind === "file") return found.text;
    const why = found.kind === "unreadable" ? `it ${found.reason}` : found.kind === "missing" ? (found.link ? `it is a link to ${found.link}, which does not exist` : "it does not exist") : "it is a directory";
    throw new Error(`mara:kubeconfig (kubernetes:kubeconfig): cannot read ${JSON.stringify(path)} (${why}); set it to an existing kubeconfig file or its contents.`);
}
