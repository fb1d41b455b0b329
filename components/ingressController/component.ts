import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { CHARTS, ChartSettings, CrdManifest, DEFAULTS, RegistryCredentials } from "../../contracts";
import { chartCrdResources } from "../chartCrds";
import { ACCESS_LOG_FORMAT, NGINX_ACCESS_PARSER } from "../logFormats";

export { ACCESS_LOG_FIELDS, ACCESS_LOG_FORMAT } from "../logFormats";
import { helmRelease, platformNamespace } from "../helmRelease";
import { claimChartObject, guardedOptions } from "../ownership/guard";

/** Arguments of {@link IngressController}. */
export interface IngressControllerArgs {
    /** Chart coordinates. Default: the catalogue's nginx-ingress entry. */
    chart?: ChartSettings;
    /** Namespace. Default `nginx-ingress`. */
    namespace?: string;
    /** Controller image repository (no tag), e.g. the IngressControllerImage's repository or `nginx/nginx-ingress`. Required. */
    imageRepository: pulumi.Input<string>;
    /** Controller image tag; required unless `imageDigest` is given (a `sha256:…` value is taken as the digest). */
    imageTag?: pulumi.Input<string>;
    /**
     * `sha256:…` digest of the image, e.g. the IngressControllerImage's `digest`: the chart then runs `repository@digest`, so a tag
     * moved in the registry never changes the running controller. Default: none (the tag is used).
     */
    imageDigest?: pulumi.Input<string>;
    /** Credentials of the registry the image is pulled from, when it is private and the nodes cannot pull on their own. */
    registryCredentials?: pulumi.Input<RegistryCredentials>;
    /**
     * JWT from MyF5 for NGINX Plus: pulls from private-registry.nginx.com and, with `nginxPlus`, is the
     * controller's license token. Secret.
     */
    nginxJwt?: pulumi.Input<string>;
    /** Run as NGINX Plus (needs a Plus image and `nginxJwt`). Default false. */
    nginxPlus?: boolean;
    /** Controller replicas. Default 1. */
    replicas?: number;
    /** Annotations for the LoadBalancer Service, e.g. the platform's load balancer type. Default: none. */
    serviceAnnotations?: Record<string, string>;
    /**
     * `LoadBalancer` (default), or `NodePort` for clusters without a load balancer implementation (bare
     * metal, Minikube without a tunnel): the controller is then reached on every node's ports 30080 and
     * 30443, and `fqdn` should point at a node.
     */
    serviceType?: "LoadBalancer" | "NodePort";
    /** Whether the cloud gives the load balancer a host name (AWS) or only an IP. Default `hostname`. */
    loadBalancerAddress?: "hostname" | "ip";
    /** Public host name of the platform; reported as the host name where the load balancer has none. */
    fqdn?: string;
    /** OTLP gRPC endpoint (`host:port`) NGINX sends traces to; tracing is off when unset. */
    tracingEndpoint?: pulumi.Input<string>;
    /** IngressClass to create and make the cluster default. Default `nginx`. */
    ingressClassName?: string;
    /**
     * Apply the CRDs of the chart's `crds/` directory (VirtualServer, Policy, TransportServer, ...) with
     * server-side apply before the release, and again on every chart bump; they are never deleted. Default
     * true. False leaves them to Helm, which installs them once and never upgrades them.
     */
    applyCrds?: boolean;
    /**
     * The CRDs to apply. Default: those the package ships for `chart`'s version (its pinned version); for
     * another version, pass that version's CRDs or Helm installs them once (with a warning).
     */
    crds?: readonly CrdManifest[];
}

/** Helm release name; the chart derives object names from it (`kic-nginx-ingress-…`). */
export const KIC_RELEASE = "kic";
/** Name of the controller's LoadBalancer Service (the name the chart would give it). */
export const KIC_SERVICE = `${KIC_RELEASE}-nginx-ingress-controller`;
/** The chart's metrics Service (port `prometheus`, 9113): Prometheus's `job` label of the controller's metrics. */
export const KIC_METRICS_SERVICE = `${KIC_RELEASE}-nginx-ingress-prometheus-service`;
/** Labels of the chart's metrics Service, which a ServiceMonitor selects. */
export const KIC_METRICS_LABELS = { "app.kubernetes.io/instance": KIC_RELEASE, service: "nginx-ingress-prometheus-service" } as const;
/** Name of the image pull secret (MARA's). */
export const PULL_SECRET = "ingress-controller-registry";
/** Name of the NGINX Plus license Secret the chart expects. */
export const LICENSE_SECRET = "license-token";

/**
 * Pod annotation that has Fluent Bit parse the controller's standard output (the access log) with the log agent's
 * {@link NGINX_ACCESS_PARSER}; standard error (NGINX's error log and the controller's own log) stays as text.
 */
export const ACCESS_LOG_PARSER_ANNOTATION = { "fluentbit.io/parser_stdout": NGINX_ACCESS_PARSER } as const;

/**
 * NGINX Ingress Controller (NGINX Inc's `nginx-ingress` chart) with MARA's settings. The chart's own
 * Service is replaced by one this component owns, so its load balancer address is a plain output (no
 * read of a chart-made object, which fails on a first preview) and destroy removes the cloud load
 * balancer before the cluster. Metrics (9113) and the status/dashboard port (8080) are published on an
 * internal Service only; MARA put them on the internet-facing load balancer.
 */
export class IngressController extends pulumi.ComponentResource {
    /** Namespace of the controller. */
    public readonly namespace: pulumi.Output<string>;
    /** IngressClass the controller serves (the cluster default). */
    public readonly ingressClassName: pulumi.Output<string>;
    /** The load balancer's host name, or `fqdn` where the cloud gives only an IP (MARA's `lb_ingress_hostname`). */
    public readonly loadBalancerHostname: pulumi.Output<string | undefined>;
    /** The load balancer's IP address, where the cloud gives one (MARA's `lb_ingress_ip`). */
    public readonly loadBalancerIp: pulumi.Output<string | undefined>;
    /** Status of the Helm release. */
    public readonly status: pulumi.Output<string>;
    /** Whether the controller runs as NGINX Plus (MARA's `nginx_plus`). */
    public readonly nginxPlus: pulumi.Output<boolean>;

    constructor(name: string, args: IngressControllerArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:addons:IngressController", name, {}, guardedOptions(name, opts));
        if (args.nginxPlus && !args.nginxJwt) {
            throw new Error("IngressController: nginxPlus needs nginxJwt, the NGINX Plus license token (a JWT from MyF5).");
        }
        const replicas = args.replicas ?? DEFAULTS.ingressController.replicas;
        if (!Number.isInteger(replicas) || replicas < 1) throw new Error(`IngressController: replicas must be a whole number of at least 1; got ${replicas}.`);
        const className = args.ingressClassName ?? DEFAULTS.ingressController.ingressClassName;
        const serviceType = args.serviceType ?? DEFAULTS.ingressController.serviceType;
        if (serviceType === "NodePort" && !args.fqdn) throw new Error("IngressController: serviceType NodePort needs fqdn, the name that points at the nodes.");
        if (args.imageTag === undefined && args.imageDigest === undefined) throw new Error("IngressController: give imageTag or imageDigest, the image to run from imageRepository.");

        const nsName = args.namespace ?? DEFAULTS.ingressController.namespace;
        const ns = platformNamespace(`${name}-ns`, nsName, "restricted", { prometheus: "scrape" }, { parent: this, dependsOn: opts?.dependsOn });
        const dependsOn: pulumi.Resource[] = [ns];
        const pullSecret = args.registryCredentials || args.nginxJwt;
        if (pullSecret) {
            dependsOn.push(
                new k8s.core.v1.Secret(
                    `${name}-pull-secret`,
                    {
                        metadata: { name: PULL_SECRET, namespace: ns.metadata.name },
                        type: "kubernetes.io/dockerconfigjson",
                        stringData: { ".dockerconfigjson": dockerConfigJson(args.registryCredentials, args.nginxJwt) },
                    },
                    { parent: this },
                ),
            );
        }
        if (args.nginxPlus) {
            dependsOn.push(
                new k8s.core.v1.Secret(
                    `${name}-license`,
                    {
                        metadata: { name: LICENSE_SECRET, namespace: ns.metadata.name },
                        type: "nginx.com/license",
                        stringData: { "license.jwt": pulumi.secret(args.nginxJwt!) },
                    },
                    { parent: this },
                ),
            );
        }

        const chart = args.chart ?? CHARTS.ingress;
        const crds = chartCrdResources(name, chart, { apply: args.applyCrds, crds: args.crds, component: "IngressController" }, { parent: this, dependsOn: opts?.dependsOn });
        dependsOn.push(...crds.resources);
        const release = helmRelease(
            `${name}-release`,
            {
                release: KIC_RELEASE,
                namespace: ns.metadata.name,
                chart,
                skipCrds: crds.skipCrds,
                // The image parts stay Outputs inside a plain object, so on a first preview only they are unknown and
                // the rest of the values can be shown and rendered (an `apply` over them would hide all of it).
                values: ingressControllerValues({
                    repository: args.imageRepository,
                    tag: args.imageTag,
                    digest: args.imageDigest,
                    tracingEndpoint: args.tracingEndpoint,
                    nginxPlus: !!args.nginxPlus,
                    pullSecret: !!pullSecret,
                    replicas,
                    className,
                }),
            },
            { parent: this, dependsOn },
        );
        // The chart creates the IngressClass (ingressClass.create in the values below): a name the whole cluster shares.
        claimChartObject(this, { apiVersion: "networking.k8s.io/v1", kind: "IngressClass", resource: "ingressclasses", name: className, release: { name: KIC_RELEASE, namespace: nsName } });

        const selector = { "app.kubernetes.io/name": "nginx-ingress", "app.kubernetes.io/instance": KIC_RELEASE };
        const service = new k8s.core.v1.Service(
            `${name}-service`,
            {
                metadata: {
                    name: KIC_SERVICE,
                    namespace: ns.metadata.name,
                    labels: { ...selector, app: "kic-nginx-ingress" },
                    annotations: { ...args.serviceAnnotations },
                },
                spec: {
                    type: serviceType,
                    externalTrafficPolicy: "Local",
                    selector,
                    ports: [
                        { name: "http", port: 80, targetPort: 80, protocol: "TCP", ...(serviceType === "NodePort" ? { nodePort: 30080 } : {}) },
                        { name: "https", port: 443, targetPort: 443, protocol: "TCP", ...(serviceType === "NodePort" ? { nodePort: 30443 } : {}) },
                    ],
                },
            },
            { parent: this, dependsOn: [release] },
        );
        new k8s.core.v1.Service(
            `${name}-internal`,
            {
                metadata: { name: `${KIC_SERVICE}-internal`, namespace: ns.metadata.name, labels: { ...selector, app: "kic-nginx-ingress" } },
                spec: {
                    type: "ClusterIP",
                    selector,
                    ports: [
                        { name: "dashboard", port: 8080, targetPort: 8080, protocol: "TCP" },
                        { name: "prometheus", port: 9113, targetPort: 9113, protocol: "TCP" },
                    ],
                },
            },
            { parent: this, dependsOn: [release] },
        );

        const ingress = service.status.loadBalancer.ingress.apply((list) => list?.[0]);
        this.namespace = ns.metadata.name;
        // Derived from the release so that routes using the class wait for the controller and its CRDs.
        this.ingressClassName = release.status.apply(() => className);
        this.loadBalancerIp = ingress.apply((i) => i?.ip);
        this.loadBalancerHostname =
            (args.loadBalancerAddress ?? DEFAULTS.ingressController.loadBalancerAddress) === "hostname" && serviceType === "LoadBalancer"
                ? ingress.apply((i) => i?.hostname ?? args.fqdn)
                : pulumi.output(args.fqdn);
        this.status = release.status.status;
        this.nginxPlus = pulumi.output(!!args.nginxPlus);
        this.registerOutputs({
            namespace: this.namespace,
            ingressClassName: this.ingressClassName,
            loadBalancerHostname: this.loadBalancerHostname,
            loadBalancerIp: this.loadBalancerIp,
            status: this.status,
            nginxPlus: this.nginxPlus,
        });
    }
}

/** What {@link ingressControllerValues} needs. */
export interface KicValuesInput {
    /** Controller image repository, without tag. */
    repository: pulumi.Input<string>;
    /** Image tag; a plain `sha256:…` value is passed to the chart as `digest`. Default: the chart's appVersion. */
    tag?: pulumi.Input<string>;
    /** `sha256:…` digest; the chart then runs `repository@digest` and the tag is left out (the chart would ignore it). */
    digest?: pulumi.Input<string>;
    /** Run NGINX Plus; the chart then reads the license from the {@link LICENSE_SECRET} Secret. */
    nginxPlus: boolean;
    /** Whether the {@link PULL_SECRET} image pull secret exists and the service account should use it. */
    pullSecret: boolean;
    /** Controller replicas (at least 1). */
    replicas: number;
    /** IngressClass the chart creates and marks as the cluster default. */
    className: string;
    /** OTLP gRPC endpoint (`host:port`) for traces; tracing settings are left out when unset. */
    tracingEndpoint?: pulumi.Input<string>;
}

/** The chart values: MARA's settings for chart 2.x, with the chart's Service switched off (see the class comment). */
export function ingressControllerValues(v: KicValuesInput): Record<string, unknown> {
    const tracing = v.tracingEndpoint !== undefined
        ? { "otel-exporter-endpoint": v.tracingEndpoint, "otel-service-name": "nginx-ingress", "otel-trace-in-http": "true" }
        : {};
    return {
        controller: {
            image: imageValues(v),
            nginxplus: v.nginxPlus,
            ...(v.nginxPlus ? { mgmt: { licenseTokenSecretName: LICENSE_SECRET } } : {}),
            replicaCount: v.replicas,
            healthStatus: true,
            // The chart lets only 127.0.0.1 reach the status page; the internal Service is cluster-only, so admit the cluster.
            nginxStatus: { enable: true, port: 8080, allowCidrs: "0.0.0.0/0" },
            appprotect: { enable: false },
            config: { name: "nginx-config", entries: { "log-format": ACCESS_LOG_FORMAT, "log-format-escaping": "json", ...tracing } },
            serviceAccount: v.pullSecret ? { imagePullSecretName: PULL_SECRET } : {},
            service: { create: false },
            reportIngressStatus: { externalService: KIC_SERVICE },
            // MARA's co.elastic.logs/module annotation configured Filebeat; the log agent is Fluent Bit.
            pod: { annotations: { ...ACCESS_LOG_PARSER_ANNOTATION } },
            ingressClass: { name: v.className, create: true, setAsDefaultIngress: true },
            enableCustomResources: true,
            enableCertManager: true,
            // Upstream response codes and latency per backend Service, for the Grafana dashboard (open source NGINX has no other source).
            enableLatencyMetrics: true,
        },
        prometheus: { create: true, port: 9113, service: { create: true } },
    };
}

/**
 * `controller.image`: a digest ("sha256:…") pins the image exactly; the chart then ignores the tag, so none is
 * passed with it. Parts may be Outputs (known only once the image is pushed).
 */
function imageValues(v: KicValuesInput): Record<string, pulumi.Input<string>> {
    const digest = v.digest ?? (typeof v.tag === "string" && v.tag.startsWith("sha256:") ? v.tag : undefined);
    return { repository: v.repository, ...(digest !== undefined ? { digest } : v.tag !== undefined ? { tag: v.tag } : {}), pullPolicy: "IfNotPresent" };
}

/** A `.dockerconfigjson` document with auths for the image registry and, with a JWT, NGINX's private registry. */
export function dockerConfigJson(credentials?: pulumi.Input<RegistryCredentials>, nginxJwt?: pulumi.Input<string>): pulumi.Output<string> {
    return pulumi.secret(
        pulumi.all([credentials, nginxJwt]).apply(([c, jwt]) => {
            const auths: Record<string, { username: string; password: string; auth: string }> = {};
            const add = (server: string, username: string, password: string) =>
                (auths[server] = { username, password, auth: Buffer.from(`${username}:${password}`).toString("base64") });
            if (c) add(c.server, c.username, c.password);
            // NGINX's registry takes the JWT as user name and any password.
            if (jwt) add("private-registry.nginx.com", jwt, "none");
            return JSON.stringify({ auths });
        }),
    );
}
