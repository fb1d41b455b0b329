/**
 * The program's side of GitOps delivery (`mara:delivery`, docs/gitops.md):
 *
 * - `handover`: the platform and Bank of Sirius as always, every one of their resources marked to stay on the
 *   cluster when it leaves the stack (and unprotected, so it can leave), so that the next `pulumi up` with
 *   `gitops` removes them from the stack without deleting anything;
 * - `gitops`: the cloud, the cluster, the registry and the ingress controller image stay; Argo CD takes the
 *   platform over from the render in Git (installed here, or on a hub that the stack's outputs describe).
 */
import * as pulumi from "@pulumi/pulumi";
import { stringify } from "yaml";
import { ArgoCd } from "../components/argoCd";
import { argoCdArgsFromSettings } from "../components/argoCd/args";
import { APPLICATIONS_FOLDER, applicationManifest, folderPath, GitSource } from "../components/argoCd/applications";
import { apiServerOf, ClusterFacts, clusterSecretManifest } from "../components/argoCd/clusterSecret";
import type { IngressControllerImage } from "../components/ingressController/image";
import { INGRESS_CONTROLLER_IMAGE_TYPE, KIC_IMAGE_TYPE } from "../components/ingressController/defaults";
import { ClusterInfrastructure, DEFAULTS } from "../contracts";
import type { MaraConfig } from "../config";
import { platformArgsFromConfig } from "./platformArgs";

/**
 * Keeps a resource on the cluster when it leaves the stack: applied to every child of the platform during a handover.
 * The ingress controller image (IngressControllerImage and its docker resources) is left as it is: it stays in the stack.
 */
export const keepOnRemoval: pulumi.ResourceTransformation = ({ type, props, opts }) =>
    type === "mara:registry:IngressControllerImage" || type.startsWith("docker:") ? undefined : { props, opts: { ...opts, retainOnDelete: true, protect: false } };

/** The options that make a component's resources stay when they leave the stack, during a handover; none otherwise. */
export function handoverOptions(cfg: MaraConfig): pulumi.ComponentResourceOptions {
    return cfg.gitops.delivery === "handover" ? { transformations: [keepOnRemoval] } : {};
}

/** Where Argo CD reads the render: the configured repository, revision and folder. */
export function gitSourceOf(cfg: MaraConfig): GitSource {
    return { repoUrl: cfg.gitops.repoUrl!, revision: cfg.gitops.revision, path: cfg.gitops.path! };
}

/**
 * The ingress controller image in the cluster's registry, outside the platform. It keeps the URN it had as the
 * platform's child (an alias), so switching a stack to GitOps neither rebuilds nor re-pushes it.
 */
export function standaloneIngressControllerImage(cfg: MaraConfig, cluster: ClusterInfrastructure, providers: pulumi.ProviderResource[]): IngressControllerImage | undefined {
    if (!cluster.registry) return undefined;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { IngressControllerImage } = require("../components/ingressController/image") as typeof import("../components/ingressController/image");
    const platformUrn = pulumi.createUrn("platform", "mara:platform:Platform");
    return new IngressControllerImage(
        "platform-kic-image",
        { ...platformArgsFromConfig(cfg, cluster).ingressController?.image, repositoryUrl: cluster.registry.repositoryUrl },
        { providers, aliases: [INGRESS_CONTROLLER_IMAGE_TYPE, KIC_IMAGE_TYPE].flatMap((type) => [pulumi.createUrn("platform-kic-image", type, platformUrn), pulumi.createUrn("kic-image", type, platformUrn)]) },
    );
}

/** What the cluster's Argo CD cluster Secret says about it. */
function clusterFacts(cfg: MaraConfig, cluster: ClusterInfrastructure, image: IngressControllerImage | undefined): pulumi.Output<Omit<ClusterFacts, "source">> {
    const infra = cfg.infra as { type: string; region?: string };
    // The API server's address and CA are public; the kubeconfig they are read from is not.
    const api = pulumi.unsecret(cluster.kubeconfig.apply(apiServerOf));
    return pulumi.all([cluster.clusterName, api, cluster.registry?.repositoryUrl, image?.repoDigest]).apply(([clusterName, a, registry, kicImage]) => ({
        clusterName,
        infraType: infra.type,
        ...(infra.region ? { region: infra.region } : {}),
        ...(a.server ? { apiServer: a.server } : {}),
        ...(a.caData ? { caData: a.caData } : {}),
        ...(cfg.application.hostname ?? cfg.fqdn ? { fqdn: cfg.application.hostname ?? cfg.fqdn } : {}),
        ...(registry ? { registry } : {}),
        kicImage: kicImage || cfg.ingressController.image.imageName,
        ...(cfg.gitops.fleet ? { fleet: cfg.gitops.fleet } : {}),
    }));
}

/**
 * An object as the YAML a user applies with kubectl on the hub: kubectl and Argo CD read YAML as YAML 1.1 does (go-yaml),
 * where a label value such as `on`, `y` or `2001-12-14` (a valid fleet or cluster name) written plain is a boolean or a
 * date, which the API server refuses as a label. Written for YAML 1.1, every such string is quoted, and reads the same
 * in YAML 1.2.
 */
const manifestYaml = (o: unknown) => stringify(o, { version: "1.1" });

/** The resources and outputs of GitOps delivery, beside the cluster: Argo CD installed, or what a hub's Argo CD needs. */
export function gitopsDelivery(cfg: MaraConfig, cluster: ClusterInfrastructure, image: IngressControllerImage | undefined): Record<string, pulumi.Input<unknown>> {
    const source = gitSourceOf(cfg);
    const facts = clusterFacts(cfg, cluster, image);
    const common = { delivery: "gitops", gitops_source: source };
    if (cfg.gitops.argoCd === "install") {
        const argo = new ArgoCd("argocd", { source, cluster: facts, ...argoCdArgsFromSettings(cfg) }, { providers: [cluster.provider] });
        return { ...common, argocd_namespace: argo.namespace, argocd_application: argo.applicationName, argocd_version: argo.version, argocd_status: argo.status };
    }
    // A hub: the cluster Secret to register the cluster with it, and the root Application to create there.
    const root = applicationManifest(DEFAULTS.argoCd.applicationName, folderPath(source, APPLICATIONS_FOLDER), source, { inCluster: true });
    return {
        ...common,
        argocd_cluster_secret: facts.apply((f) => manifestYaml(clusterSecretManifest({ ...f, source }, "hub"))),
        argocd_root_application: manifestYaml(root),
    };
}
