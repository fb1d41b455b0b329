import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { AdmissionScope, ContainerRegistry, DEFAULTS, PlatformFacts, splitImageName } from "../contracts";
import type { PolicyConfig, RuleConfig } from "../policy/config";
import { AddOn, checkAddOnNames, PlatformContext } from "./addOn";
import { AdmissionPolicies, AdmissionPoliciesArgs } from "./admissionPolicies";
import { certificateRules } from "./alerts/certificateRules";
import { ingressRules } from "./alerts/ingressRules";
import { logstoreRules } from "./alerts/logstoreRules";
import { CERT_MANAGER_METRICS_LABELS, CERT_MANAGER_METRICS_SERVICE, CertManager, CertManagerArgs } from "./certManager";
import { PLATFORM_STORAGE_CLASS } from "./clusterNames";
import { IngressController, IngressControllerArgs, KIC_METRICS_LABELS, KIC_METRICS_SERVICE } from "./ingressController";
import type { IngressControllerImage, IngressControllerImageArgs } from "./ingressController/image";
import { INGRESS_CONTROLLER_IMAGE_TYPE, KIC_IMAGE_TYPE } from "./ingressController/defaults";
import { LogAgent, LogAgentArgs, fluentBitHostPaths } from "./logAgent";
import { ELASTICSEARCH_NAME, LOG_WRITER_USER, Logstore, LogstoreArgs } from "./logstore";
import { MetalLb, MetalLbArgs } from "./metalLb";
import { NfsStorage, NfsStorageArgs } from "./nfsStorage";
import { collectorGrpcEndpoint, Observability, ObservabilityArgs } from "./observability";
import { Prometheus, PrometheusArgs } from "./prometheus";
import { Secrets, SecretsArgs } from "./secrets";
import { guardedOptions } from "./ownership/guard";

/**
 * The ingress controller image. With a {@link PlatformArgs.registry} the platform copies `imageName` into
 * it (or builds it from `source` with `origin: "source"`) and the controller runs it by digest; without one,
 * the controller pulls `imageName` from where it is published.
 */
export type PlatformImageArgs = Pick<IngressControllerImageArgs, "origin" | "imageName" | "source" | "makeTarget" | "version" | "nginxRepo" | "alwaysRebuild">;

/**
 * NGINX Ingress Controller: its own settings and its image; its registry credentials, load balancer and tracing come
 * from the platform.
 */
export interface PlatformIngressControllerArgs extends Pick<IngressControllerArgs, "chart" | "nginxPlus" | "nginxJwt" | "replicas" | "serviceType" | "fqdn"> {
    /** The controller's image. Default: the published `nginx/nginx-ingress` image matching the chart. */
    image?: PlatformImageArgs;
}

/** @deprecated Use {@link PlatformIngressControllerArgs}, the same arguments (and the image) under the add-on's one name. */
export type PlatformIngressArgs = Omit<PlatformIngressControllerArgs, "image">;

/** cert-manager: its chart, and the ACME issuer to add beside the self-signed one. */
export type PlatformCertManagerArgs = Pick<CertManagerArgs, "chart" | "acme">;

/** @deprecated Use {@link PlatformCertManagerArgs}, the same type under the add-on's one name. */
export type PlatformCertificatesArgs = PlatformCertManagerArgs;

/** The log store's own settings: its chart, Elastic version, node counts, volume size and whether Kibana's objects are provisioned. */
export type PlatformLogstoreArgs = Pick<LogstoreArgs, "chart" | "version" | "replicas" | "storageSize" | "kibanaObjects">;

/** The log agent's own settings: its chart; where it writes and as whom come from the platform. */
export type PlatformLogAgentArgs = Pick<LogAgentArgs, "chart">;

/**
 * Logs: the Elasticsearch and Kibana store, and the Fluent Bit agent that writes to it.
 * @deprecated Use {@link PlatformArgs.logstore} and {@link PlatformArgs.logAgent}, named as the add-ons are.
 */
export interface PlatformLogsArgs {
    /** The log store's settings. @deprecated Use {@link PlatformArgs.logstore}. */
    store?: PlatformLogstoreArgs;
    /** The log agent's settings. @deprecated Use {@link PlatformArgs.logAgent}. */
    agent?: PlatformLogAgentArgs;
}

/**
 * Prometheus: kube-prometheus-stack and the statsd exporter, their volume sizes, and alerting: Alertmanager's receivers
 * and where the runbooks of the platform's alerts are (the rules themselves come with the add-ons they watch).
 */
export type PlatformPrometheusArgs = Pick<PrometheusArgs, "chart" | "statsdChart" | "storageSize" | "dashboardStorageSize" | "alerting" | "alertRunbookUrl">;

/** @deprecated Use {@link PlatformPrometheusArgs}, the same type under the add-on's one name. */
export type PlatformMetricsArgs = PlatformPrometheusArgs;

/** Observability: the OpenTelemetry operator's chart and the configuration of the collector that receives the traces. */
export type PlatformObservabilityArgs = Pick<ObservabilityArgs, "chart" | "collectorVariant">;

/** @deprecated Use {@link PlatformObservabilityArgs}, the same type under the add-on's one name. */
export type PlatformTracingArgs = PlatformObservabilityArgs;

/** Where the platform's volumes (Elasticsearch, Prometheus, Grafana, the application's databases) live. */
export interface PlatformStorageArgs {
    /**
     * StorageClass of every volume. Default: a class the platform creates where the cluster facts name a
     * provisioner (`mara-volumes`), else the facts' `storageClass`, else the cluster's default class.
     */
    className?: string;
    /** The platform's own class retains volumes when their claims are deleted. Default false (they are deleted). */
    retainVolumes?: boolean;
    /**
     * Install the NFS subdir external provisioner for an existing NFS export and put the platform's volumes on its
     * StorageClass (unless `className` names another). Default: not installed.
     */
    nfsStorage?: Omit<NfsStorageArgs, "retainVolumes">;
    /**
     * @deprecated Use {@link PlatformStorageArgs.nfsStorage}, the same arguments under the add-on's one name. Still
     * read: where both are given, `nfsStorage`'s members win.
     */
    nfs?: Omit<NfsStorageArgs, "retainVolumes">;
}

/**
 * The guardrails in the cluster: the policy pack's rules about Kubernetes objects as ValidatingAdmissionPolicies.
 * The host-path rule allows Fluent Bit's paths on this cluster unless `config` says otherwise.
 */
export interface PlatformAdmissionPoliciesArgs extends Pick<AdmissionPoliciesArgs, "mode" | "config" | "exemptNamespaces"> {
    /**
     * Where the policies judge objects: `platform`, the platform's own namespaces (its add-ons', and `namespaces`) and
     * its labelled cluster-scoped objects; `cluster`, every namespace. Default `platform`: a component cannot tell a
     * cluster shared with other teams from one of its own, and the narrower scope never refuses a neighbour's update;
     * `mara:admissionPolicyScope` chooses per infrastructure type (docs/policy.md, "Scope").
     */
    scope?: AdmissionScope;
    /** Namespaces outside the Platform that are the platform's too, such as the application's. Default none. */
    namespaces?: string[];
}

/** @deprecated Use {@link PlatformAdmissionPoliciesArgs}, the same type under the add-on's one name. */
export type PlatformGuardrailsArgs = PlatformAdmissionPoliciesArgs;

/** Arguments of {@link Platform}: one group per add-on, each optional except the facts about the cluster. */
export interface PlatformArgs {
    /**
     * What the add-ons need to know about the cluster: log paths, container runtime, how load balancers
     * are addressed and annotated, storage. The providers export these per cloud (`EKS_PLATFORM`,
     * `doksPlatform(...)`, `lkePlatform(...)`, `EXISTING_CLUSTER_PLATFORM`). Required.
     */
    cluster: PlatformFacts;
    /** The registry the ingress controller image is copied to; none: the image is pulled from where it is published. */
    registry?: ContainerRegistry;
    /** NGINX Ingress Controller and its image. Default: one open-source controller behind a LoadBalancer Service. */
    ingressController?: PlatformIngressControllerArgs;
    /**
     * @deprecated Use {@link PlatformIngressControllerArgs.image} (`ingressController.image`), the same arguments under
     * the add-on's one name. Still read: where both are given, `ingressController.image`'s members win.
     */
    image?: PlatformImageArgs;
    /**
     * @deprecated Use {@link PlatformArgs.ingressController}, the same arguments under the add-on's one name. Still
     * read: where both are given, `ingressController`'s members win.
     */
    ingress?: PlatformIngressArgs;
    /** cert-manager and its ClusterIssuers. Default: the self-signed issuer only. */
    certManager?: PlatformCertManagerArgs;
    /**
     * @deprecated Use {@link PlatformArgs.certManager}, the same arguments under the add-on's one name. Still read:
     * where both are given, `certManager`'s members win.
     */
    certificates?: PlatformCertManagerArgs;
    /** The log store: Elasticsearch and Kibana run by ECK. Default: the {@link Logstore}'s defaults. */
    logstore?: PlatformLogstoreArgs;
    /** The log agent: Fluent Bit on every node, writing to the log store. Default: the catalogue's fluent-bit chart. */
    logAgent?: PlatformLogAgentArgs;
    /**
     * Elasticsearch, Kibana and Fluent Bit, under the names of 0.1.0; where both are given, {@link PlatformArgs.logstore}
     * and {@link PlatformArgs.logAgent} win.
     * @deprecated Use `logstore` for `logs.store` and `logAgent` for `logs.agent`.
     */
    logs?: PlatformLogsArgs;
    /** Prometheus, Grafana, Alertmanager and the statsd exporter. */
    prometheus?: PlatformPrometheusArgs;
    /**
     * @deprecated Use {@link PlatformArgs.prometheus}, the same arguments under the add-on's one name. Still read:
     * where both are given, `prometheus`'s members win.
     */
    metrics?: PlatformPrometheusArgs;
    /** The OpenTelemetry operator and collector. */
    observability?: PlatformObservabilityArgs;
    /**
     * @deprecated Use {@link PlatformArgs.observability}, the same arguments under the add-on's one name. Still read:
     * where both are given, `observability`'s members win.
     */
    tracing?: PlatformObservabilityArgs;
    /** The StorageClass of the platform's volumes. */
    storage?: PlatformStorageArgs;
    /** The platform's credentials; each one left out is generated. */
    secrets?: SecretsArgs;
    /**
     * Install MetalLB with this pool, for clusters without a load balancer implementation; the ingress controller
     * waits for it, so its Service gets an address from the pool. Default: not installed.
     */
    metalLb?: MetalLbArgs;
    /**
     * @deprecated Use {@link PlatformArgs.metalLb}, the same arguments under the add-on's one name. Still read: where
     * both are given, `metalLb`'s members win.
     */
    metallb?: MetalLbArgs;
    /** Protect the stateful add-ons (log store, metrics) from `pulumi destroy`. Default false. */
    protectData?: boolean;
    /** Admission policies that hold everything applied to the cluster to the guardrails (docs/policy.md). Default: none installed. */
    admissionPolicies?: PlatformAdmissionPoliciesArgs;
    /**
     * @deprecated Use {@link PlatformArgs.admissionPolicies}, the same arguments under the add-on's one name. Still
     * read: where both are given, `admissionPolicies`'s members win.
     */
    guardrails?: PlatformAdmissionPoliciesArgs;
    /**
     * Add-ons of your own, installed after the platform's from its outputs (docs/library.md, "Your own add-on"); each
     * named `<platform>-<add-on name>` and found in {@link Platform.addOns} under its name. Default none.
     */
    addOns?: readonly AddOn[];
}

/**
 * Every add-on of the platform on one cluster, wired by their real dependencies rather than MARA's fixed
 * order: the log agent waits for the log store, the OpenTelemetry operator for cert-manager, the ingress
 * controller for its image; everything else installs in parallel. Pass the cluster's Kubernetes provider
 * (and, when the image is copied to a registry, a Docker provider whose `registryAuth` holds that registry's
 * credentials and, for NGINX Plus images, the JWT for private-registry.nginx.com) in `opts.providers`. Children are named
 * `<name>-<add-on>`, so several platforms can share a stack.
 */
export class Platform extends pulumi.ComponentResource {
    /** The platform's credentials, configured or generated. */
    public readonly secrets: Secrets;
    /** The ingress controller image in the cluster's registry; undefined when there is no registry. */
    public readonly ingressControllerImage?: IngressControllerImage;
    /** @deprecated Use {@link Platform.ingressControllerImage}, the same component under the add-on's one name; read until 1.0.0. */
    public readonly kicImage?: IngressControllerImage;
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
    /** StorageClass of the platform's volumes (created by the platform where it knows the provisioner); undefined: the cluster default. */
    public readonly storageClassName?: pulumi.Output<string>;
    /** MetalLB, when {@link PlatformArgs.metalLb} asked for it. */
    public readonly metalLb?: MetalLb;
    /** @deprecated Use {@link Platform.metalLb}, the same component under the add-on's one name. */
    public readonly metallb?: MetalLb;
    /** The NFS provisioner, when {@link PlatformStorageArgs.nfsStorage} asked for it. */
    public readonly nfsStorage?: NfsStorage;
    /** @deprecated Use {@link Platform.nfsStorage}, the same component under the add-on's one name. */
    public readonly nfs?: NfsStorage;
    /**
     * What a component holding claims on {@link storageClassName} must depend on (pass it in `dependsOn`): the
     * NFS provisioner, when the platform installs it, else nothing. Its namespace is then deleted, and its claims'
     * volumes released, while the provisioner still runs to delete (or archive) them; without it the engine may
     * remove the provisioner first and leave the volumes behind.
     */
    public readonly storageDependencies: pulumi.Resource[];
    /** The admission policies, when {@link PlatformArgs.admissionPolicies} asks for them. */
    public readonly admissionPolicies?: AdmissionPolicies;
    /** The add-ons of {@link PlatformArgs.addOns}, by name. */
    public readonly addOns: Readonly<Record<string, pulumi.Resource>>;

    constructor(name: string, args: PlatformArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:platform:Platform", name, {}, guardedOptions(name, opts));
        // Before any resource: a bad name would otherwise stop the program halfway through registering the platform.
        checkAddOnNames(args.addOns ?? []);
        const facts = args.cluster;
        // Children were named without the platform's name before; the aliases let those stacks update in place.
        const child = (was: string) => ({ parent: this, aliases: [{ name: was }] });
        const nfsArgs = nfsStorageArgs(args);
        // Its child name is the one deployed stacks hold, so it stays `-nfs`.
        if (nfsArgs) this.nfsStorage = this.nfs = new NfsStorage(`${name}-nfs`, { ...nfsArgs, retainVolumes: args.storage?.retainVolumes }, { parent: this });
        const metalLb = metalLbArgs(args);
        // Its child name is the one deployed stacks hold, so it stays `-metallb`.
        if (metalLb) this.metalLb = this.metallb = new MetalLb(`${name}-metallb`, metalLb, { parent: this });
        const ownClass = args.storage?.className !== undefined ? undefined : (this.nfsStorage?.storageClassName ?? this.storageClass(name, facts, args.storage?.retainVolumes));
        const className = args.storage?.className ?? facts.storageClass;
        // The class's name taken from the resource, so every claim made with it waits for the class to exist.
        this.storageClassName = ownClass ?? (className === undefined ? undefined : pulumi.output(className));
        const storageClassName = this.storageClassName;
        this.storageDependencies = this.nfsStorage ? [this.nfsStorage] : [];
        // Stateful add-ons can be protected from `pulumi destroy` (their children inherit the flag), and outlive
        // nothing their volumes need.
        const stateful = (was: string) => ({ ...child(was), ...(args.protectData ? { protect: true } : {}), ...(this.nfsStorage ? { dependsOn: this.storageDependencies } : {}) });

        this.secrets = new Secrets(`${name}-secrets`, args.secrets ?? {}, child("secrets"));
        // The deprecated image and ingress arguments still count; ingressController's members win.
        const { image: ownImage, ...ingress } = { ...args.ingress, ...args.ingressController };
        const image: PlatformImageArgs = { ...args.image, ...ownImage };
        if (args.registry) {
            // Loaded only where an image is pushed, so clusters without a registry never load @pulumi/docker.
            // eslint-disable-next-line @typescript-eslint/no-require-imports
            const { IngressControllerImage } = require("./ingressController/image") as typeof import("./ingressController/image");
            this.ingressControllerImage = this.kicImage = new IngressControllerImage(
                `${name}-kic-image`,
                { ...image, repositoryUrl: args.registry.repositoryUrl },
                // GitOps delivery keeps the image outside the platform (program/gitops.ts); switching back finds it there.
                {
                    parent: this,
                    // Its child name before Platform's children were named after it, under both type tokens, and the
                    // image GitOps delivery kept at the top level (IngressControllerImage adds its old type itself).
                    aliases: [
                        { name: "kic-image" },
                        { name: "kic-image", type: KIC_IMAGE_TYPE },
                        ...[INGRESS_CONTROLLER_IMAGE_TYPE, KIC_IMAGE_TYPE].map((type) => pulumi.createUrn(`${name}-kic-image`, type)),
                    ],
                },
            );
        }
        const published = splitImageName(image.imageName ?? DEFAULTS.kicImage.imageName);
        // Pushed images run by the digest the registry recorded; a published reference as it is written.
        const [imageRepository, imageTag, imageDigest] = this.ingressControllerImage
            ? [this.ingressControllerImage.repository, this.ingressControllerImage.tag, this.ingressControllerImage.digest]
            : published[1].startsWith("sha256:")
              ? [published[0], undefined, published[1]]
              : [published[0], published[1], undefined];

        this.certManager = new CertManager(`${name}-cert-manager`, { ...args.certificates, ...args.certManager }, child("cert-manager"));
        this.observability = new Observability(`${name}-observability`, { ...args.tracing, ...args.observability }, { ...child("observability"), dependsOn: [this.certManager] });
        const registry = args.registry;
        this.ingressController = new IngressController(
            `${name}-ingress-controller`,
            {
                ...ingress,
                imageRepository,
                imageTag,
                imageDigest,
                registryCredentials: registry?.needsPullSecret ? (registry.pullCredentials ?? registry.credentials) : undefined,
                serviceAnnotations: { ...facts.loadBalancerAnnotations },
                loadBalancerAddress: facts.loadBalancerAddress,
                tracingEndpoint: collectorGrpcEndpoint(),
            },
            // With MetalLB, the Service is created once the pool and its advertisement exist, and gets its address at once.
            { ...child("ingress-controller"), ...(this.metalLb ? { dependsOn: [this.metalLb] } : {}) },
        );
        this.logstore = new Logstore(
            `${name}-logstore`,
            { ...args.logs?.store, ...args.logstore, storageClassName, logWriterPassword: this.secrets.logAgentPassword },
            stateful("logstore"),
        );
        this.logAgent = new LogAgent(
            `${name}-log-agent`,
            {
                ...args.logs?.agent,
                ...args.logAgent,
                elasticsearchHost: this.logstore.elasticsearchHost,
                // The user the log store creates from the password passed to it above.
                username: LOG_WRITER_USER,
                password: this.secrets.logAgentPassword,
                containerLogPath: facts.containerLogPath,
                podLogPath: facts.podLogPath,
                containerRuntime: facts.containerRuntime,
            },
            // No dependsOn on the Logstore: the release already waits for Elasticsearch through its host name,
            // and waiting for the whole component would also wait for Kibana, which the agent never talks to.
            child("log-agent"),
        );
        this.prometheus = new Prometheus(
            `${name}-prometheus`,
            {
                ...args.metrics,
                ...args.prometheus,
                grafanaAdminPassword: this.secrets.grafanaAdminPassword,
                storageClassName,
                controlPlaneMetrics: facts.controlPlaneMetrics,
                // A plain name: the ServiceMonitor only names where to look, it need not wait for the controller.
                ingressControllerMetrics: { namespace: DEFAULTS.ingressController.namespace, selector: { ...KIC_METRICS_LABELS }, port: "prometheus" },
                ingressControllerPlus: ingress.nginxPlus ?? DEFAULTS.ingressController.nginxPlus,
                // The certificates' own namespaces kept on cert-manager's metrics (certificateRules.ts).
                certManagerMetrics: { namespace: DEFAULTS.certManager.namespace, selector: { ...CERT_MANAGER_METRICS_LABELS }, port: "http-metrics", honorLabels: true },
                // The alerts on what the platform runs; the application ships its own (components/application/monitoring.ts).
                alertRules: [
                    ingressRules({ namespace: DEFAULTS.ingressController.namespace, job: KIC_METRICS_SERVICE }),
                    certificateRules({ namespace: DEFAULTS.certManager.namespace, job: CERT_MANAGER_METRICS_SERVICE }),
                    logstoreRules({ namespace: DEFAULTS.logstore.namespace, cluster: ELASTICSEARCH_NAME }),
                ],
            },
            stateful("prometheus"),
        );
        const context: PlatformContext = {
            platformName: name,
            cluster: facts,
            storageClassName,
            storageDependencies: this.storageDependencies,
            ingressClassName: this.ingressController.ingressClassName,
            ingressController: this.ingressController,
            issuers: { selfSigned: this.certManager.selfSignedIssuer, acme: this.certManager.acmeIssuer },
            certManager: this.certManager,
            prometheusNamespace: this.prometheus.namespace,
            prometheus: this.prometheus,
            metricsNamespace: this.prometheus.namespace,
            metrics: this.prometheus,
        };
        // Children of the platform, so they take its providers and its ownership guard (components/ownership/).
        this.addOns = Object.fromEntries((args.addOns ?? []).map((a) => [a.name, a.create(context, { parent: this })]));
        // The deprecated guardrails argument still counts; admissionPolicies's members win.
        const admission: PlatformAdmissionPoliciesArgs | undefined = args.admissionPolicies ? { ...args.guardrails, ...args.admissionPolicies } : args.guardrails;
        if (admission) {
            const { scope, namespaces, ...policies } = admission;
            this.admissionPolicies = new AdmissionPolicies(
                `${name}-admission-policies`,
                {
                    ...policies,
                    config: withFluentBitPaths(admission.config, facts),
                    ...((scope ?? DEFAULTS.platform.admissionScope) === "platform" ? { namespaces: [...platformNamespaces(args), ...(namespaces ?? [])] } : {}),
                },
                { parent: this },
            );
        }
        this.registerOutputs({});
    }

    /**
     * The platform's own StorageClass, where the cluster facts name its provisioner: volumes deleted with
     * their claims (or retained), tagged for this cluster, expandable. Returns its name, taken from the
     * resource so that volumes claimed with it wait for it.
     */
    private storageClass(name: string, facts: PlatformFacts, retainVolumes: boolean = DEFAULTS.platform.retainVolumes): pulumi.Output<string> | undefined {
        const p = facts.storageProvisioner;
        if (!p) return undefined;
        const sc = new k8s.storage.v1.StorageClass(
            `${name}-storage-class`,
            {
                metadata: { name: PLATFORM_STORAGE_CLASS, labels: { "app.kubernetes.io/part-of": "mara" } },
                provisioner: p.provisioner,
                parameters: { ...p.parameters },
                reclaimPolicy: retainVolumes ? "Retain" : "Delete",
                volumeBindingMode: "WaitForFirstConsumer",
                allowVolumeExpansion: true,
            },
            { parent: this, aliases: [{ name: "storage-class" }] },
        );
        return sc.metadata.name;
    }
}

/** The namespaces the Platform's add-ons run in: the platform scope of its admission policies. */
export function platformNamespaces(args: Pick<PlatformArgs, "metalLb" | "metallb" | "storage">): string[] {
    const nfs = nfsStorageArgs(args);
    const metalLb = metalLbArgs(args);
    return [
        DEFAULTS.ingressController.namespace,
        DEFAULTS.certManager.namespace,
        DEFAULTS.logstore.namespace,
        DEFAULTS.logAgent.namespace,
        DEFAULTS.prometheus.namespace,
        DEFAULTS.observability.namespace,
        ...(metalLb ? [metalLb.namespace ?? DEFAULTS.metalLb.namespace] : []),
        ...(nfs ? [nfs.namespace ?? DEFAULTS.nfsStorage.namespace] : []),
    ];
}

/** The NFS provisioner's arguments under their name and their deprecated one (`storage.nfs`), the new name winning; undefined: not installed. */
function nfsStorageArgs(args: Pick<PlatformArgs, "storage">): Omit<NfsStorageArgs, "retainVolumes"> | undefined {
    const { nfs, nfsStorage } = args.storage ?? {};
    return nfs || nfsStorage ? ({ ...nfs, ...nfsStorage } as Omit<NfsStorageArgs, "retainVolumes">) : undefined;
}

/** MetalLB's arguments under their name and their deprecated one (`metallb`), the new name winning; undefined: not installed. */
function metalLbArgs(args: Pick<PlatformArgs, "metalLb" | "metallb">): MetalLbArgs | undefined {
    const { metallb, metalLb } = args;
    return metallb || metalLb ? ({ ...metallb, ...metalLb } as MetalLbArgs) : undefined;
}

/** The host-path rule's allow-list set to Fluent Bit's paths on this cluster, unless the configuration sets one. */
function withFluentBitPaths(config: PolicyConfig = {}, facts: PlatformFacts): PolicyConfig {
    const rule = "host-path-allow-list";
    const own: RuleConfig | undefined = config[rule];
    if (typeof own === "object" && own.allowedPaths !== undefined) return config;
    const allowedPaths = fluentBitHostPaths(facts);
    return { ...config, [rule]: typeof own === "string" ? { enforcementLevel: own, allowedPaths } : { ...own, allowedPaths } };
}

export { PLATFORM_STORAGE_CLASS } from "./clusterNames";
