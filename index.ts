/**
 * MARA as one Pulumi program, and its composition root: the only place where configuration, providers
 * and components meet. Pulumi calls this exported function and publishes what it returns as the stack's
 * outputs. Config is read and validated first, so a bad value stops the program before any resource is
 * registered; then the cluster, then every add-on on it, then the application.
 */
// First: on a Node.js older than package.json's "engines", this stops with one line saying what to run.
import "./program/requireSupportedNode";
import * as pulumi from "@pulumi/pulumi";
import { Application } from "./components/application";
import { Platform } from "./components/platform";
import { VolumeRetention } from "./components/volumeRetention";
import { loadConfig, MaraConfig } from "./config";
import type { ClusterInfrastructure } from "./contracts";
import type { IngressControllerImage } from "./components/ingressController/image";
import { dockerProvider } from "./program/dockerProvider";
import { gitopsDelivery, handoverOptions, standaloneIngressControllerImage } from "./program/gitops";
import { operatorDelivery } from "./program/operator";
import { platformArgsFromConfig } from "./program/platformArgs";
import { applicationArgsFromPlatform, clusterIssuerInUse } from "./components/application/args";
import { createInfrastructure } from "./providers/factory";

export = function program(): Record<string, pulumi.Input<unknown>> {
    const cfg = loadConfig();
    const cluster = createInfrastructure(cfg);
    const providers: pulumi.ProviderResource[] = [cluster.provider];
    if (cluster.registry) providers.push(dockerProvider(cluster.registry, cfg.ingressController.image.nginxJwt));
    if (cfg.gitops.delivery === "gitops" || cfg.gitops.delivery === "operator") {
        // Argo CD, or the Pulumi Kubernetes Operator, delivers the platform from Git; the cloud, the cluster, the registry and the image stay here.
        const image = standaloneIngressControllerImage(cfg, cluster, providers);
        return {
            infra_type: cfg.infra.type,
            cluster_name: cluster.clusterName,
            kubeconfig: cluster.kubeconfig,
            ...cluster.outputs,
            ...kicImageOutputs(cfg, image),
            ...(cfg.gitops.delivery === "operator" ? operatorDelivery(cfg, cluster) : gitopsDelivery(cfg, cluster, image)),
        };
    }
    // During a handover every in-cluster resource is marked to stay on the cluster when it leaves the stack.
    const keep = handoverOptions(cfg);
    const platform = new Platform("platform", platformArgsFromConfig(cfg, cluster), { providers, ...keep });
    const app = bankOfSirius(cfg, platform, cluster, keep);
    // After the stateful components, so that at destroy it runs first and mara:retainVolumes reaches their volumes.
    new VolumeRetention(
        "volume-retention",
        {
            kubeconfig: cluster.kubeconfig,
            context: cfg.infra.type === "kubeconfig" ? cfg.infra.context : undefined,
            retainVolumes: cfg.teardown.retainVolumes,
            namespaces: [platform.logstore.namespace, platform.prometheus.namespace, app.namespace],
        },
        { dependsOn: [platform, app], ...keep },
    );
    if (cluster.publishHostname && cfg.fqdn) {
        cluster.publishHostname(
            cfg.fqdn,
            platform.ingressController.loadBalancerIp.apply((ip) => {
                if (!ip) throw new Error(`The ingress load balancer reported no IP address, so no DNS record can point ${cfg.fqdn} at it.`);
                return ip;
            }),
            // Argo CD keeps the load balancer, so the record stays pointing at it when Pulumi hands the platform over.
            keep,
        );
    }

    return {
        infra_type: cfg.infra.type,
        cluster_name: cluster.clusterName,
        kubeconfig: cluster.kubeconfig,
        ...cluster.outputs,
        ...kicImageOutputs(cfg, platform.ingressControllerImage),
        // Both always exist (docs/deploy.md): an output whose value is undefined is left out of the stack, and
        // `pulumi stack output lb_ingress_ip` would fail where the load balancer has no IP (AWS) or there is none (NodePort).
        lb_ingress_hostname: platform.ingressController.loadBalancerHostname.apply((h) => h ?? ""),
        lb_ingress_ip: platform.ingressController.loadBalancerIp.apply((ip) => ip ?? ""),
        ingress_controller_status: platform.ingressController.status,
        nginx_plus: platform.ingressController.nginxPlus,
        ingress_class: platform.ingressController.ingressClassName,
        cluster_issuer: clusterIssuerInUse(cfg, platform),
        elasticsearch_url: platform.logstore.elasticsearchUrl,
        kibana_url: platform.logstore.kibanaUrl,
        prometheus_address: platform.prometheus.prometheusAddress,
        grafana_address: platform.prometheus.grafanaAddress,
        statsd_host: platform.prometheus.statsdHost,
        otlp_grpc_endpoint: platform.observability.otlpGrpcEndpoint,
        cert_manager_status: platform.certManager.status,
        logstore_status: platform.logstore.status,
        log_agent_status: platform.logAgent.status,
        prometheus_status: platform.prometheus.status,
        statsd_status: platform.prometheus.statsdStatus,
        observability_status: platform.observability.status,
        application_url: app.url,
        demo_login: pulumi.secret({ username: platform.secrets.demoUser, password: platform.secrets.demoPassword }),
        accountsdbmon_status: app.accountsDbMonitorStatus,
        ledgerdbmon_status: app.ledgerDbMonitorStatus,
    };
};

/**
 * What MARA exported about the ingress controller image (kic-image-build's `ingress_image` and kic-image-push's
 * `container_repo_push`), under this project's names: where it came from, and what the cluster runs.
 */
function kicImageOutputs(cfg: MaraConfig, image: IngressControllerImage | undefined): Record<string, pulumi.Input<unknown>> {
    if (!image) {
        // No registry: the chart pulls the configured image from where it is published.
        return { kic_image_origin: "registry", kic_image_source: cfg.ingressController.image.imageName, kic_image: cfg.ingressController.image.imageName };
    }
    return {
        kic_image_origin: image.origin,
        kic_image_source: image.source,
        kic_make_target: image.makeTarget,
        kic_image: image.imageName,
        kic_image_repository: image.repository,
        kic_image_tag: image.tag,
        kic_image_digest: image.digest,
        kic_image_ref: image.repoDigest,
    };
}

/**
 * Bank of Sirius on the platform: served on `sirius:hostname`, else `kic-helm:fqdn`, else the ingress
 * load balancer's host name, with a certificate from the configured issuer.
 */
function bankOfSirius(cfg: MaraConfig, platform: Platform, cluster: ClusterInfrastructure, keep: pulumi.ComponentResourceOptions): Application {
    const s = cfg.application;
    const hostname = s.hostname ?? cfg.fqdn ?? platform.ingressController.loadBalancerHostname.apply((h) => {
        if (!h) throw new Error("The ingress load balancer reported no host name; set kic-helm:fqdn (or mara:siriusHostname) to the name that points at it.");
        return h;
    });
    return new Application("bank-of-sirius", applicationArgsFromPlatform(cfg, platform, s.namespace, hostname), {
        providers: [cluster.provider],
        // Its database claims are on the platform's class: with the NFS provisioner, deleted while it still runs.
        dependsOn: platform.storageDependencies,
        ...(cfg.teardown.protectData ? { protect: true } : {}),
        ...keep,
    });
}
