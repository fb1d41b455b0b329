/**
 * Simulated creation times: how long `pulumi up` waits for each kind of resource on a fresh stack.
 * Every figure names its source; "estimate" means no public measurement was found and the figure is
 * this benchmark's own judgement. Component resources and providers take no time (they create nothing).
 *
 * The figures are typical, not worst cases: they decide which chain of the deployment is the longest,
 * so it is their proportions that matter more than their absolute values.
 *
 * The Kubernetes layer's figures are replaced by those the real engine measured on the real-engine tier
 * (measuredDurations.ts, written by `npm run bench:engine`) wherever one was measured; the cloud layer keeps this
 * sourced table. `BENCH_K8S_DURATIONS=estimates` uses the estimates below for the Kubernetes layer too (they
 * include image pulls and container start-up, which the tier's nodes do not do).
 */
import { durationKey, loadMeasured, MeasuredDurations } from "./measuredDurations";

/** One row of the table. */
export interface DurationRule {
    /** What the rule covers (a type token, a Helm chart or a custom resource kind). */
    readonly what: string;
    /** Simulated minutes. */
    readonly minutes: number;
    /** Where the figure comes from. */
    readonly source: string;
}

const SEC = 1 / 60;

/** By Pulumi type token. */
export const BY_TYPE: Readonly<Record<string, DurationRule>> = {
    "eks:index:Cluster": {
        what: "EKS control plane (pulumi-eks component: cluster, its security groups, OIDC provider, VPC CNI)",
        minutes: 10,
        source: "aws/containers-roadmap#1227: AWS cut control-plane creation to '9 minutes on an average' (2021); users there report 10–14 min",
    },
    "eks:index:ManagedNodeGroup": {
        what: "EKS managed node group, nodes Ready",
        minutes: 4,
        source: "umotif-public/terraform-aws-eks-node-group#7 ('Creation complete after 2m50s'); eksctl-io/eksctl#482 (node group stack 3m36s, then nodes Ready)",
    },
    "aws:eks/addon:Addon": { what: "EKS add-on (EBS CSI driver) until ACTIVE", minutes: 1, source: "estimate" },
    "aws:ec2/natGateway:NatGateway": {
        what: "NAT gateway until available",
        minutes: 2,
        source: "kubernetes/kops#944 ('can take up to 10 min ... from Pending to Available'); terraform-aws-modules/terraform-aws-vpc#999 (still creating after 1m); 2 min is the typical case (estimate within that range)",
    },
    "aws:ec2/subnet:Subnet": { what: "subnet", minutes: 10 * SEC, source: "terraform-aws-modules/terraform-aws-eks#2203 log: aws_subnet 'Creation complete after 10s'" },
    "aws:ec2/routeTableAssociation:RouteTableAssociation": { what: "route table association", minutes: 1 * SEC, source: "terraform-aws-modules/terraform-aws-eks#2203 log: 'Creation complete after 1s'" },
    "aws:ec2/vpc:Vpc": { what: "VPC", minutes: 5 * SEC, source: "estimate (seconds; EC2 control-plane call)" },
    "aws:ec2/internetGateway:InternetGateway": { what: "internet gateway", minutes: 3 * SEC, source: "estimate (seconds)" },
    "aws:ec2/routeTable:RouteTable": { what: "route table", minutes: 3 * SEC, source: "estimate (seconds)" },
    "aws:ec2/eip:Eip": { what: "Elastic IP", minutes: 2 * SEC, source: "estimate (seconds)" },
    "aws:iam/role:Role": { what: "IAM role", minutes: 2 * SEC, source: "estimate (seconds; comparable API calls — security groups and rules — complete in 2–5 s in the hashicorp-education/learn-terraform-variables#6 log)" },
    "aws:iam/rolePolicyAttachment:RolePolicyAttachment": { what: "IAM policy attachment", minutes: 2 * SEC, source: "estimate (seconds, as IAM role)" },
    "aws:ecr/repository:Repository": { what: "ECR repository", minutes: 2 * SEC, source: "estimate (seconds)" },
    "aws:ecr/lifecyclePolicy:LifecyclePolicy": { what: "ECR lifecycle policy", minutes: 2 * SEC, source: "estimate (seconds)" },
    "docker:index/remoteImage:RemoteImage": {
        what: "ingress controller image: pull from its registry (or build from source)",
        minutes: 0.5,
        source: "estimate (half the push below: pulls from Docker Hub are faster than pushes to ECR); a source build takes longer",
    },
    "docker:index/tag:Tag": { what: "local tag of the pulled image", minutes: 1 * SEC, source: "estimate (one Docker Engine API call)" },
    "docker:index/registryImage:RegistryImage": {
        what: "ingress controller image: push to the cluster's registry and read its digest",
        minutes: 1,
        source: "docker/for-mac#427 ('~300MB of image layers directly to Amazon ECR in about a minute'); the nginx-ingress image is about that size",
    },
    "digitalocean:index/kubernetesCluster:KubernetesCluster": {
        what: "DOKS cluster with its node pool",
        minutes: 6,
        source: "crossplane-contrib/provider-upjet-digitalocean#48 ('DO is creating DOKS cluster in 6/7 minutes'); digitalocean/terraform-provider-digitalocean#650 (default create timeout raised to 30 min)",
    },
    "digitalocean:index/containerRegistry:ContainerRegistry": { what: "DOCR registry", minutes: 5 * SEC, source: "estimate (seconds)" },
    "digitalocean:index/containerRegistryDockerCredentials:ContainerRegistryDockerCredentials": { what: "DOCR credentials", minutes: 2 * SEC, source: "estimate (seconds)" },
    "digitalocean:index/dnsRecord:DnsRecord": { what: "DNS A record", minutes: 5 * SEC, source: "estimate (seconds)" },
    "linode:index/lkeCluster:LkeCluster": {
        what: "LKE cluster, API endpoint and kubeconfig ready, nodes Ready",
        minutes: 5,
        source: "linode/linode-api-docs#240 ('it often takes 2-5 minutes before the Kubernetes API server endpoint and the Kubeconfig file ... are ready'); terraform-provider-linode#2250 log (provider then waits for a node to be ready)",
    },
    "pulumi-nodejs:dynamic:Resource": { what: "dynamic resource (ClusterDrain: creating it does nothing; it acts at destroy)", minutes: 1 * SEC, source: "estimate (no API call on create)" },
    "random:index/randomPassword:RandomPassword": { what: "generated password (local)", minutes: 0, source: "local computation, no API call" },
    "random:index/randomString:RandomString": { what: "generated suffix (local)", minutes: 0, source: "local computation, no API call" },
    "tls:index/privateKey:PrivateKey": { what: "RSA key (local)", minutes: 0, source: "local computation, no API call" },
    "kubernetes:core/v1:Namespace": { what: "namespace", minutes: 3 * SEC, source: "estimate (seconds)" },
    "kubernetes:core/v1:Secret": { what: "Secret", minutes: 2 * SEC, source: "estimate (seconds)" },
    "kubernetes:core/v1:ConfigMap": { what: "ConfigMap", minutes: 2 * SEC, source: "estimate (seconds)" },
    "kubernetes:networking.k8s.io/v1:NetworkPolicy": { what: "NetworkPolicy", minutes: 2 * SEC, source: "estimate (seconds)" },
    "kubernetes:storage.k8s.io/v1:StorageClass": { what: "StorageClass", minutes: 2 * SEC, source: "estimate (seconds)" },
    "kubernetes:apps/v1:Deployment": {
        what: "Deployment rolled out (image pull, readiness probe)",
        minutes: 1,
        source: "estimate (pulumi-kubernetes awaits the rollout; Bank of Sirius' Java services start in about a minute)",
    },
    "kubernetes:apps/v1:StatefulSet": { what: "Postgres StatefulSet (volume provisioned, database initialised)", minutes: 1.5, source: "estimate" },
    "kubernetes:networking.k8s.io/v1:Ingress": {
        what: "Ingress until the controller reports its address",
        minutes: 0.5,
        source: "estimate; pulumi/pulumi-kubernetes#1934: the Ingress await checks endpoints and the load balancer status",
    },
};

/** LoadBalancer Services (cloud load balancer) and other Services. */
export const SERVICE_LOAD_BALANCER: DurationRule = {
    what: "Service type LoadBalancer until the cloud reports its address (NLB, DO load balancer, NodeBalancer)",
    minutes: 2,
    source: "kubernetes-sigs/aws-load-balancer-controller#1786 (4–5 min until an NLB's targets are healthy; Pulumi only waits for the address); eficode-academy/kubernetes-katas#78 (AWS host name shown at once, working 'a couple of minutes' later); MicrosoftDocs/azure-docs#10465 ('took about 2 mins')",
};
export const SERVICE_CLUSTER_IP: DurationRule = { what: "Service type ClusterIP", minutes: 10 * SEC, source: "estimate (seconds; the endpoint check passes once pods exist)" };

/** Helm releases (helm.v3.Release waits for every workload of the chart), by chart name. */
export const BY_CHART: Readonly<Record<string, DurationRule>> = {
    "cert-manager": {
        what: "cert-manager release (CRDs, webhook, startupapicheck hook)",
        minutes: 1,
        source: "pulumi/pulumi-kubernetes-cert-manager#10: a stack with the cert-manager Helm release and an Issuer deployed in 'Duration: 55s'",
    },
    "kube-prometheus-stack": {
        what: "kube-prometheus-stack release (operator, Prometheus, Alertmanager, Grafana, volumes)",
        minutes: 3,
        source: "estimate; issue threads show installs reaching 5–10 min on busy clusters (spack/spack-infrastructure#1191, llm-d/llm-d-autoscaling#754)",
    },
    "nginx-ingress": { what: "NGINX Ingress Controller release (controller pods Ready)", minutes: 1, source: "estimate" },
    "eck-operator": { what: "ECK operator release", minutes: 1, source: "estimate" },
    "fluent-bit": { what: "Fluent Bit DaemonSet release", minutes: 1, source: "estimate" },
    "opentelemetry-operator": { what: "OpenTelemetry operator release (webhook certificate from cert-manager)", minutes: 1, source: "estimate" },
    "prometheus-statsd-exporter": { what: "statsd exporter release", minutes: 0.5, source: "estimate" },
    "prometheus-postgres-exporter": { what: "Postgres exporter release", minutes: 0.5, source: "estimate" },
};

/** Custom resources, by kind. */
export const BY_KIND: Readonly<Record<string, DurationRule>> = {
    Elasticsearch: {
        what: "Elasticsearch (ECK) until green",
        minutes: 4,
        source: "estimate. pulumi-kubernetes does not itself wait for custom resources unless PULUMI_K8S_AWAIT_ALL or a pulumi.com/waitFor annotation is set (pulumi/pulumi-kubernetes#3143); counted as the time until the log store is usable, the same in both orders",
    },
    Kibana: { what: "Kibana (ECK) until available", minutes: 2, source: "estimate (same caveat as Elasticsearch)" },
    OpenTelemetryCollector: { what: "OpenTelemetry collector", minutes: 0.5, source: "estimate (same caveat as Elasticsearch)" },
    ClusterIssuer: { what: "cert-manager ClusterIssuer", minutes: 5 * SEC, source: "estimate (seconds)" },
    ServiceMonitor: { what: "ServiceMonitor", minutes: 2 * SEC, source: "estimate (seconds)" },
    VirtualServer: { what: "NGINX VirtualServer", minutes: 5 * SEC, source: "estimate (seconds)" },
};

/** Fallbacks for types the table does not name; the run reports which registrations used them. */
export const DEFAULTS: Readonly<Record<string, DurationRule>> = {
    aws: { what: "other AWS resource", minutes: 5 * SEC, source: "estimate (seconds)" },
    kubernetes: { what: "other Kubernetes object", minutes: 3 * SEC, source: "estimate (seconds)" },
    other: { what: "other resource", minutes: 5 * SEC, source: "estimate (seconds)" },
};

/** What a registration looks like to the table. */
export interface Registered {
    readonly type: string;
    readonly custom: boolean;
    readonly remote: boolean;
    readonly inputs?: Record<string, unknown>;
}

let measured: MeasuredDurations | undefined | null = null;

/** The measured figures in use (undefined: the estimates are), read once. */
export function measuredDurations(): MeasuredDurations | undefined {
    if (measured === null) measured = loadMeasured();
    return measured;
}

/** The simulated duration of one registration, and the rule that gave it (undefined: no work). */
export function simulatedDuration(r: Registered): { minutes: number; rule?: DurationRule; fallback?: boolean } {
    if (r.type.startsWith("pulumi:providers:")) return { minutes: 0 };
    if (!r.custom && !r.remote) return { minutes: 0 };
    const table = r.type.startsWith("kubernetes:") ? measuredDurations() : undefined;
    const figure = table?.figures[durationKey(r)];
    if (table && figure) {
        const rule = { what: durationKey(r), minutes: figure.seconds / 60, source: `measured by the real engine on the real-engine tier, median of ${figure.samples} creations in ${table.measured.rounds} rounds (${table.measured.date})` };
        return { minutes: rule.minutes, rule };
    }
    const byType = BY_TYPE[r.type];
    if (byType) return { minutes: byType.minutes, rule: byType };
    if (r.type === "kubernetes:core/v1:Service") {
        const type = (r.inputs?.spec as Record<string, unknown> | undefined)?.type;
        const rule = type === "LoadBalancer" ? SERVICE_LOAD_BALANCER : SERVICE_CLUSTER_IP;
        return { minutes: rule.minutes, rule };
    }
    if (r.type === "kubernetes:helm.sh/v3:Release") {
        const chart = (typeof r.inputs?.chart === "string" ? r.inputs.chart : "").split("/").pop()!;
        const rule = BY_CHART[chart];
        if (rule) return { minutes: rule.minutes, rule };
    }
    if (r.type.startsWith("kubernetes:")) {
        const kind = r.type.split(":").pop()!;
        const rule = BY_KIND[kind];
        if (rule) return { minutes: rule.minutes, rule };
    }
    const pkg = r.type.split(":")[0]!;
    const rule = DEFAULTS[pkg] ?? DEFAULTS.other!;
    return { minutes: rule.minutes, rule, fallback: true };
}

/** The whole table, for the report and the JSON: the measured Kubernetes figures first, when they are used. */
export function durationTable(): DurationRule[] {
    const table = measuredDurations();
    const measuredRows = table
        ? Object.entries(table.figures).map(([key, f]) => ({ what: `${key} [measured]`, minutes: f.seconds / 60, source: `real-engine tier, median of ${f.samples} (${table.measured.date}); ${table.measured.note}` }))
        : [];
    return [
        ...measuredRows,
        ...Object.entries(BY_TYPE).map(([k, v]) => ({ ...v, what: `${v.what} [${k}]` })),
        SERVICE_LOAD_BALANCER,
        SERVICE_CLUSTER_IP,
        ...Object.entries(BY_CHART).map(([k, v]) => ({ ...v, what: `${v.what} [chart ${k}]` })),
        ...Object.entries(BY_KIND).map(([k, v]) => ({ ...v, what: `${v.what} [kind ${k}]` })),
        ...Object.values(DEFAULTS),
    ];
}
