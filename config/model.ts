/**
 * The typed, validated configuration the program runs on. `loadConfig()` returns one frozen
 * `MaraConfig`; components receive the parts they need as arguments and never read Pulumi config.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AdmissionMode, AdmissionScope, ChartSettings, InfraType, RepositoryCredentials } from "../contracts";
import type { CertManagerSettings } from "../components/certManager/settings";
import type { PrometheusSettings } from "../components/prometheus/settings";
import type { ObservabilitySettings } from "../components/observability/settings";
import type { NfsStorageSettings } from "../components/nfsStorage/settings";
import type { LogstoreSettings } from "../components/logstore/settings";
import type { LogAgentSettings } from "../components/logAgent/settings";
import type { MetalLbSettings } from "../components/metalLb/settings";

export type { MetallbBgpPeer } from "../components/metalLb/settings";
import type { PulumiOperatorSection, PulumiOperatorSettings } from "../components/pulumiOperator/settings";
import type { ArgoCdSettings } from "../components/argoCd/settings";
import type { AdmissionPoliciesSettings } from "../components/admissionPolicies/settings";
import type { IngressControllerImageSettings, IngressControllerReleaseSettings, IngressControllerSettings } from "../components/ingressController/settings";
import type { ApplicationSettings } from "../components/application/settings";

/** Settings of the AWS path: VPC, EKS and ECR. */
export interface AwsInfraConfig {
    readonly type: "aws";
    /** AWS region of every AWS resource. */
    readonly region: string;
    /** AWS CLI profile for the provider and kubeconfig, when set. */
    readonly profile?: string;
    readonly vpc: {
        /** VPC CIDR block (a /16). */
        readonly cidr: string;
        /** Explicit availability zones, or undefined to take the first `availabilityZoneCount` of the region. */
        readonly availabilityZones?: readonly string[];
        /** Number of availability zones (the length of `availabilityZones` when those are given). */
        readonly availabilityZoneCount: number;
        /** NAT gateway layout for the private subnets. */
        readonly natGateways: "perAz" | "single";
    };
    readonly eks: {
        /** Kubernetes minor version, e.g. "1.35". */
        readonly version: string;
        /** EC2 instance type of the managed node group. */
        readonly instanceType: string;
        readonly minSize: number;
        readonly maxSize: number;
        readonly desiredSize: number;
    };
    readonly ecr: {
        /** Name of the ECR repository for the ingress controller image. */
        readonly repositoryName: string;
        /** Images kept by the lifecycle policy. */
        readonly imageRetention: number;
    };
}

/** Settings of the DigitalOcean path (DOKS, DOCR, DNS). */
export interface DigitalOceanInfraConfig {
    readonly type: "digitalocean";
    /** API token (secret), from config or DIGITALOCEAN_TOKEN. */
    readonly token?: pulumi.Output<string>;
    readonly region: string;
    readonly k8sVersion: string;
    readonly instanceSize: string;
    readonly nodeCount: number;
    readonly registryTier: "starter" | "basic" | "professional";
    /** Registry to create, or the existing one to adopt. */
    readonly registryName?: string;
    /** Adopt the account's existing registry instead of creating one. */
    readonly adoptRegistry: boolean;
}

/** Settings of the Linode path (LKE and, optionally, the user's own registry). */
export interface LinodeInfraConfig {
    readonly type: "linode";
    /** API token (secret), from config or LINODE_TOKEN. */
    readonly token?: pulumi.Output<string>;
    readonly region: string;
    readonly k8sVersion: string;
    readonly instanceType: string;
    readonly nodeCount: number;
    readonly highAvailability: boolean;
    /** The user's registry for the ingress controller image; pulled from its source when unset. */
    readonly registry?: ExternalRegistryConfig;
}

/** An OCI registry of the user's, for pushing the ingress controller image. */
export interface ExternalRegistryConfig {
    readonly server: string;
    readonly repository: string;
    readonly username: string;
    readonly password: pulumi.Output<string>;
}

/** Settings of an existing cluster reached through a kubeconfig. */
export interface KubeconfigInfraConfig {
    readonly type: "kubeconfig";
    /** Path of a kubeconfig file, or its contents. */
    readonly kubeconfig: string;
    /** Context to use; the kubeconfig's current context when unset. */
    readonly context?: string;
    /** The user's registry for the ingress controller image; pulled from its source when unset. */
    readonly registry?: ExternalRegistryConfig;
}

/** Infrastructure settings, discriminated by `type` (the normalised `kubernetes:infra_type`). */
export type InfraConfig = AwsInfraConfig | DigitalOceanInfraConfig | LinodeInfraConfig | KubeconfigInfraConfig;

/** The settings of one infrastructure type. */
export type InfraConfigOf<T extends InfraType> = Extract<InfraConfig, { readonly type: T }>;

/** The whole validated configuration. */
export interface MaraConfig<I extends InfraConfig = InfraConfig> {
    /** Pulumi project name. */
    readonly project: string;
    /** Pulumi stack name. */
    readonly stack: string;
    /** Kubernetes cluster name (created, or the existing cluster's). */
    readonly clusterName: string;
    /** Public host name of the platform, when configured. */
    readonly fqdn?: string;
    /** StorageClass for persistent volumes; the platform's default when unset. */
    readonly storageClass?: string;
    /** Infrastructure provider settings. */
    readonly infra: I;
    /** NGINX Ingress Controller: its release and its image (components/ingressController/settings.ts). */
    readonly ingressController: IngressControllerSettings;
    /** @deprecated Use {@link MaraConfig.ingressController}'s `image`, the same settings under the add-on's one name. */
    readonly kic: IngressControllerImageSettings;
    /** @deprecated Use {@link MaraConfig.ingressController}, whose release settings these are (beside its `image`). */
    readonly ingress: IngressControllerReleaseSettings;
    /** The guardrails in the cluster: whether and how the admission policies enforce them, and where (components/admissionPolicies/settings.ts). */
    readonly admissionPolicies: AdmissionPoliciesSettings;
    /**
     * @deprecated Use {@link MaraConfig.admissionPolicies}, the same settings under the add-on's one name
     * (`guardrails.admissionPolicies` is its `mode`).
     */
    readonly guardrails: {
        readonly admissionPolicies: "none" | AdmissionMode;
        readonly scope: AdmissionScope;
    };
    /** How `pulumi destroy` treats data and leftovers. */
    readonly teardown: {
        readonly retainVolumes: boolean;
        readonly protectData: boolean;
        readonly removeCrds: boolean;
        readonly drainTimeoutMinutes: number;
    };
    /** MetalLB for an existing cluster's LoadBalancer Services (components/metalLb/): installed when `addresses` is not empty. */
    readonly metalLb: MetalLbSettings;
    /** @deprecated Use {@link MaraConfig.metalLb}, the same section under the add-on's one name. */
    readonly metallb: MetalLbSettings;
    /** The NFS subdir external provisioner and its StorageClass (components/nfsStorage/settings.ts): installed when `server` is set. */
    readonly nfsStorage: NfsStorageSettings;
    /** @deprecated Use {@link MaraConfig.nfsStorage}, the same section under the add-on's one name. */
    readonly nfs: NfsStorageSettings;
    /** Overrides of the platform's facts. */
    readonly platformOverrides: { readonly containerLogPath?: string };
    /** cert-manager's settings (components/certManager/settings.ts). */
    readonly certManager: CertManagerSettings;
    /** The log store's settings (components/logstore/settings.ts). */
    readonly logstore: LogstoreSettings;
    /** The log agent's settings (components/logAgent/settings.ts). */
    readonly logAgent: LogAgentSettings;
    /**
     * The log agent's settings under 0.1.0's name: the same object as {@link MaraConfig.logAgent}.
     * @deprecated Use `logAgent`.
     */
    readonly logagent: LogAgentSettings;
    /** Prometheus's settings (components/prometheus/settings.ts). */
    readonly prometheus: PrometheusSettings;
    /** Alertmanager's receivers (credentials as secret Outputs), the route tree's intervals and the runbooks' address (docs/alerts.md). */
    readonly alerting: {
        readonly slack?: { readonly webhookUrl: pulumi.Output<string>; readonly channel?: string };
        readonly pagerDuty?: { readonly routingKey: pulumi.Output<string> };
        readonly email?: {
            readonly to: readonly string[];
            readonly from: string;
            readonly smarthost: string;
            readonly requireTls: boolean;
            readonly username?: string;
            readonly password?: pulumi.Output<string>;
        };
        readonly webhook?: { readonly url: string; readonly bearerToken?: pulumi.Output<string> };
        readonly criticalRepeatInterval: string;
        readonly warningRepeatInterval: string;
        /** Where docs/alerts.md is read; undefined: the page's path in this repository. */
        readonly runbookUrl?: string;
    };
    /** Observability's settings (components/observability/settings.ts). */
    readonly observability: ObservabilitySettings;
    /** Who delivers the platform (docs/gitops.md); the repository is set whenever the delivery is not pulumi. */
    readonly gitops: {
        readonly delivery: "pulumi" | "handover" | "gitops" | "operator";
        readonly repoUrl?: string;
        readonly revision: string;
        readonly path?: string;
        readonly argoCd: "install" | "external";
        /** The hub's fleet this cluster belongs to (`mara:gitopsFleet`), read only with `argoCd` external. */
        readonly fleet?: string;
        /** @deprecated Use {@link MaraConfig.argoCd}'s `chart`, the same settings under the add-on's one name. */
        readonly argoCdChart: ChartSettings;
        /** @deprecated Use {@link MaraConfig.pulumiOperator}'s `chart`, the same settings under the add-on's one name. */
        readonly operatorChart: ChartSettings;
        /** @deprecated Use {@link MaraConfig.pulumiOperator}'s `stack`, the same settings under the add-on's one name. */
        readonly operator?: PulumiOperatorSettings;
        /** The repository's credential Pulumi writes into Argo CD's repository Secret (secret Outputs), when given and Pulumi installs Argo CD. */
        readonly repository?: RepositoryCredentials;
    };
    /** Argo CD's settings (components/argoCd/settings.ts): its chart, installed when Argo CD delivers the platform from its cluster. */
    readonly argoCd: ArgoCdSettings;
    /** The Pulumi Kubernetes Operator's settings (components/pulumiOperator/settings.ts), read when `gitops.delivery` is operator. */
    readonly pulumiOperator: PulumiOperatorSection;
    /** The application's (Bank of Sirius's) settings (components/application/settings.ts). */
    readonly application: ApplicationSettings;
    /** @deprecated Use {@link MaraConfig.application}, the same section under the add-on's one name. */
    readonly sirius: ApplicationSettings;
}
