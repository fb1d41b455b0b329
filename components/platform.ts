import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import type { MaraConfig } from "../config/model";
import type { ClusterInfrastructure } from "../providers/types";
import { CertManager } from "./certManager";
import { IngressController, KIC_METRICS_LABELS, KIC_NAMESPACE } from "./ingressController";
import type { KicImage } from "./kicImage";
import { lazyRequire } from "../providers/lazyRequire";
import { LogAgent } from "./logAgent";
import { Logstore } from "./logstore";
import { collectorGrpcEndpoint, Observability } from "./observability";
import { Prometheus } from "./prometheus";
import { Secrets } from "./secrets";

/** Arguments of {@link Platform}. */
export interface PlatformArgs {
    /** Validated configuration (from `loadConfig`). */
    config: MaraConfig;
    /** The cluster from the provider factory. */
    cluster: ClusterInfrastructure;
}

/**
 * Every add-on of the platform on one cluster, wired by their real dependencies rather than MARA's fixed
 * order: the log agent waits for the log store, the OpenTelemetry operator for cert-manager, the ingress
 * controller for its image; everything else installs in parallel. Pass the cluster's Kubernetes provider
 * (and, when the image is pushed, a Docker provider) in `opts.providers`.
 */
export class Platform extends pulumi.ComponentResource {
    /** The platform's credentials, configured or generated (component name `secrets`). */
    public readonly secrets: Secrets;
    /** The ingress controller image in the cluster's registry; undefined when the cluster has no registry. */
    public readonly kicImage?: KicImage;
    /** NGINX Ingress Controller; its outputs give the load balancer address and the IngressClass. */
    public readonly ingressController: IngressController;
    /** cert-manager and its ClusterIssuers. */
    public readonly certManager: CertManager;
    /** Elasticsearch and Kibana (ECK). */
    public readonly logstore: Logstore;
    /** Fluent Bit, writing to the log store as its `log-writer` user. */
    public readonly logAgent: LogAgent;
    /** kube-prometheus-stack, Grafana and the statsd exporter. */
    public readonly prometheus: Prometheus;
    /** OpenTelemetry operator and collector. */
    public readonly observability: Observability;
    /** StorageClass of the platform's volumes (its own where the platform makes one); undefined: the cluster default. */
    public readonly storageClassName?: pulumi.Output<string>;

    constructor(name: string, args: PlatformArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:platform:Platform", name, {}, opts);
        const { config: cfg, cluster } = args;
        const child = { parent: this };
        const storageClassName = cfg.storageClass ?? this.storageClass(cfg, cluster) ?? cluster.platform.storageClass;
        // Stateful add-ons can be protected from `pulumi destroy` (children inherit the flag).
        const stateful = { parent: this, ...(cfg.teardown.protectData ? { protect: true } : {}) };

        this.secrets = new Secrets(
            "secrets",
            {
                grafanaAdminPassword: cfg.prometheus.grafanaAdminPassword,
                accountsDbPassword: cfg.sirius.accountsPassword,
                ledgerDbPassword: cfg.sirius.ledgerPassword,
                demoUser: cfg.sirius.demoUser,
                demoPassword: cfg.sirius.demoPassword,
            },
            child,
        );

        if (cluster.registry) {
            // Loaded only where an image is pushed, so clusters without a registry never load @pulumi/docker.
            const { KicImage } = lazyRequire<typeof import("./kicImage")>(__dirname, "./kicImage");
            this.kicImage = new KicImage(
                "kic-image",
                {
                    origin: cfg.kic.imageOrigin,
                    imageName: cfg.kic.imageName,
                    sourceDir: cfg.kic.sourceUrl.replace(/^file:\/\//, ""),
                    makeTarget: cfg.kic.makeTarget,
                    version: /#v?([\w.-]+)$/.exec(cfg.kic.sourceUrl)?.[1],
                    alwaysRebuild: cfg.kic.alwaysRebuild,
                    repositoryUrl: cluster.registry.repositoryUrl,
                    credentials: cluster.registry.credentials,
                },
                child,
            );
        }
        const [imageRepository, imageTag] = this.kicImage
            ? [this.kicImage.repository, this.kicImage.tag]
            : splitImageName(cfg.kic.imageName);

        this.certManager = new CertManager(
            "cert-manager",
            { chart: cfg.certManager.chart, acme: cfg.certManager.acmeEmail ? { email: cfg.certManager.acmeEmail, server: cfg.certManager.acmeServer } : undefined },
            child,
        );
        this.observability = new Observability(
            "observability",
            { chart: cfg.observability.otelOperatorChart, collectorVariant: cfg.observability.collectorVariant },
            { parent: this, dependsOn: [this.certManager] },
        );
        this.ingressController = new IngressController(
            "ingress-controller",
            {
                chart: cfg.ingress.chart,
                imageRepository,
                imageTag,
                registryCredentials: cluster.registry?.needsPullSecret ? (cluster.registry.pullCredentials ?? cluster.registry.credentials) : undefined,
                nginxJwt: cfg.kic.nginxJwt,
                nginxPlus: cfg.ingress.enablePlus,
                replicas: cfg.ingress.replicas,
                serviceType: cfg.ingress.serviceType,
                serviceAnnotations: { ...cluster.platform.loadBalancerAnnotations },
                loadBalancerAddress: cluster.platform.loadBalancerAddress,
                fqdn: cfg.fqdn,
                tracingEndpoint: collectorGrpcEndpoint(),
            },
            child,
        );
        this.logstore = new Logstore(
            "logstore",
            {
                chart: cfg.logstore.chart,
                version: cfg.logstore.version,
                replicas: cfg.logstore.replicas,
                storageSize: cfg.logstore.storageSize,
                storageClassName,
                logWriterPassword: this.secrets.logAgentPassword,
            },
            stateful,
        );
        this.logAgent = new LogAgent(
            "log-agent",
            {
                chart: cfg.logagent.chart,
                elasticsearchHost: this.logstore.elasticsearchHost,
                username: this.logstore.logWriterUser!,
                password: this.secrets.logAgentPassword,
                containerLogPath: cfg.platformOverrides.containerLogPath ?? cluster.platform.containerLogPath,
                podLogPath: cluster.platform.podLogPath,
                containerRuntime: cluster.platform.containerRuntime,
            },
            // No dependsOn on the Logstore: the release already waits for Elasticsearch through its host name,
            // and waiting for the whole component would also wait for Kibana, which the agent never talks to.
            child,
        );
        this.prometheus = new Prometheus(
            "prometheus",
            {
                chart: cfg.prometheus.chart,
                statsdChart: cfg.prometheus.statsdChart,
                grafanaAdminPassword: this.secrets.grafanaAdminPassword,
                storageSize: cfg.prometheus.storageSize,
                dashboardStorageSize: cfg.prometheus.dashboardStorageSize,
                storageClassName,
                // A plain name: the ServiceMonitor only names where to look, it need not wait for the controller.
                ingressControllerMetrics: { namespace: KIC_NAMESPACE, selector: { ...KIC_METRICS_LABELS }, port: "prometheus" },
            },
            stateful,
        );
        this.registerOutputs({});
    }

    /**
     * The platform's own StorageClass, where the platform knows its provisioner: volumes deleted with
     * their claims (or retained with `mara:retainVolumes`), tagged for this cluster, expandable.
     */
    private storageClass(cfg: MaraConfig, cluster: ClusterInfrastructure): string | undefined {
        const p = cluster.platform.storageProvisioner;
        if (!p) return undefined;
        const sc = new k8s.storage.v1.StorageClass(
            "storage-class",
            {
                metadata: { name: PLATFORM_STORAGE_CLASS, labels: { "app.kubernetes.io/part-of": "mara" } },
                provisioner: p.provisioner,
                parameters: { ...p.parameters },
                reclaimPolicy: cfg.teardown.retainVolumes ? "Retain" : "Delete",
                volumeBindingMode: "WaitForFirstConsumer",
                allowVolumeExpansion: true,
            },
            { parent: this },
        );
        // Derived from the resource, so volumes claimed with this class wait for it to exist.
        (this as { storageClassName?: pulumi.Output<string> }).storageClassName = sc.metadata.name;
        return PLATFORM_STORAGE_CLASS;
    }
}

/** Name of the StorageClass the platform creates for its volumes. */
export const PLATFORM_STORAGE_CLASS = "mara-volumes";

/** Splits `repository:tag` (a digest reference keeps its digest as the "tag" after `@`). */
export function splitImageName(image: string): [string, string] {
    const at = image.indexOf("@");
    if (at >= 0) return [image.slice(0, at), image.slice(at + 1)];
    const colon = image.lastIndexOf(":");
    return colon > image.lastIndexOf("/") ? [image.slice(0, colon), image.slice(colon + 1)] : [image, "latest"];
}
