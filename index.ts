/**
 * MARA as one Pulumi program. Pulumi calls this exported function and publishes what it returns as
 * the stack's outputs. Config is read and validated first, so a bad value stops the program before
 * any resource is registered; then the cluster, then every add-on on it.
 */
import * as docker from "@pulumi/docker";
import * as pulumi from "@pulumi/pulumi";
import { Platform } from "./components/platform";
import { loadConfig, MaraConfig } from "./config";
import { createInfrastructure } from "./providers";

export = function program(): Record<string, pulumi.Input<unknown>> {
    const cfg = loadConfig();
    const cluster = createInfrastructure(cfg);
    const providers: pulumi.ProviderResource[] = [cluster.provider];
    if (cluster.registry) providers.push(dockerProvider(cfg));
    const platform = new Platform("platform", { config: cfg, cluster }, { providers });

    return {
        infra_type: cfg.infra.type,
        cluster_name: cluster.clusterName,
        kubeconfig: cluster.kubeconfig,
        ...cluster.outputs,
        kic_image: platform.kicImage?.imageName,
        lb_ingress_hostname: platform.ingressController.loadBalancerHostname,
        lb_ingress_ip: platform.ingressController.loadBalancerIp,
        ingress_class: platform.ingressController.ingressClassName,
        cluster_issuer: platform.certManager.acmeIssuer ?? platform.certManager.selfSignedIssuer,
        elasticsearch_url: platform.logstore.elasticsearchUrl,
        kibana_url: platform.logstore.kibanaUrl,
        prometheus_address: platform.prometheus.prometheusAddress,
        grafana_address: platform.prometheus.grafanaAddress,
        statsd_host: platform.prometheus.statsdHost,
        otlp_grpc_endpoint: platform.observability.otlpGrpcEndpoint,
    };
};

/**
 * The Docker engine that pulls or builds the ingress controller image and pushes it. It uses the local
 * daemon (DOCKER_HOST); with a JWT it can also pull NGINX Plus images from NGINX's private registry.
 */
function dockerProvider(cfg: MaraConfig): docker.Provider {
    const jwt = cfg.kic.nginxJwt;
    return new docker.Provider("docker", {
        registryAuth: jwt ? [{ address: "private-registry.nginx.com", username: jwt, password: "none" }] : undefined,
    });
}
