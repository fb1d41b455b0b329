/**
 * Every configuration key the program reads: its canonical name, the MARA keys that mean the same
 * thing, its type, default and description. This table is the single source for validation, the
 * declarations in Pulumi.yaml (see tools/pulumiYaml.ts), the configuration reference (docs/configuration.md)
 * and first-run prompts.
 *
 * Canonical keys live in the project namespace (`mara:`) so no provider ever sees them. MARA's keys are
 * accepted unchanged as legacy aliases; those in a provider's namespace (`eks:`, `linode:`,
 * `digitalocean:`) draw a warning naming the canonical key, because in one program a provider can
 * reject unknown keys in its own namespace (MARA issue #175).
 */
import { ChartId, DEFAULTS, HOST_PATH_ALLOWED, INFRA_TYPES, InfraType, PATTERNS } from "../contracts";
import {
    boolean,
    fqdn,
    hostPort,
    integer,
    ipv4Cidr,
    list,
    member,
    oneOf,
    text,
    kubernetesName,
} from "./valueTypes";
import { fleetName, gitRepoUrl, gitRevision, repoFolder, repoUsername, sshPrivateKey } from "./gitopsValues";
import { bearerToken, emailAddress, emailAddresses, pagerdutyRoutingKey, repeatInterval, runbookUrl, slackChannel, slackWebhookUrl, smarthost, smtpUsername, webhookUrl } from "./alertValues";
import { AWS_REGIONS, AWS_REGIONS_SOURCE, DIGITALOCEAN_REGIONS, DIGITALOCEAN_REGIONS_SOURCE } from "./regions.generated";
import { LINODE_REGIONS, LINODE_REGIONS_SOURCE } from "./linodeRegions";
import { KeySpec, spec } from "./keySpec";
import { CERT_MANAGER_CHART_KEYS, CERT_MANAGER_KEYS } from "../components/certManager/keys";
import { METALLB_CHART_KEYS, METALLB_KEYS } from "../components/metalLb/keys";
import { PROMETHEUS_CHART_KEYS, PROMETHEUS_KEYS } from "../components/prometheus/keys";
import { OBSERVABILITY_CHART_KEYS, OBSERVABILITY_KEYS } from "../components/observability/keys";
import { NFS_STORAGE_CHART_KEYS, NFS_STORAGE_KEYS } from "../components/nfsStorage/keys";
import { LOGSTORE_CHART_KEYS, LOGSTORE_KEYS } from "../components/logstore/keys";
import { LOG_AGENT_CHART_KEYS } from "../components/logAgent/keys";
import { ARGO_CD_CHART_KEYS } from "../components/argoCd/keys";
import { PULUMI_OPERATOR_CHART_KEYS, PULUMI_OPERATOR_KEYS } from "../components/pulumiOperator/keys";
import { ADMISSION_POLICIES_KEYS } from "../components/admissionPolicies/keys";
import { INGRESS_CONTROLLER_CHART_KEYS, INGRESS_CONTROLLER_KEYS, INGRESS_CONTROLLER_SERVICE_KEYS } from "../components/ingressController/keys";
import { APPLICATION_CHART_KEYS, APPLICATION_KEYS } from "../components/application/keys";

// The declaration types, where they were declared before the machinery moved to keySpec.ts (its builders stay internal).
export { KEY_GROUPS, PROJECT_NAMESPACE, PROVIDER_NAMESPACES, type DefaultedKeySpec, type KeyGroup, type KeySpec, type LegacyKey } from "./keySpec";

const k8sMinorVersion = text(PATTERNS.kubernetesMinor);
const awsAz = text({ pattern: /^[a-z]{2,4}(-[a-z]+)+-\d[a-z0-9-]*[a-z]$/, allowed: "an availability zone name such as us-east-1a" });
const email = text(PATTERNS.email);
const linodeType = (example: string) => text({ pattern: /^g\d+-[a-z0-9-]+$/, allowed: `a Linode type such as ${example}` });
const secretText = text({ allowed: "any non-empty text (stored encrypted)" });
// Where it was declared before it moved to its unit.
export { GRAFANA_PASSWORD_MIN_LENGTH } from "../components/prometheus/keys";

/** The key table. Property names are the ids the validator and typed config refer to. */
export const KEYS = {
    // ---- Platform ---------------------------------------------------------------------------
    infraType: spec({
        key: "mara:infraType",
        legacy: ["kubernetes:infra_type"],
        type: oneOf<InfraType>(INFRA_TYPES, { AWS: "aws", DO: "digitalocean", LKE: "linode" }),
        description: "Where the cluster comes from: aws (EKS), digitalocean (DOKS), linode (LKE) or kubeconfig (an existing cluster).",
        example: "aws",
        group: "Platform",
    }),
    clusterName: spec({
        key: "mara:clusterName",
        legacy: ["kubernetes:cluster_name"],
        // The length and form a name may have depend on the infrastructure type (validate.ts, checkClusterName).
        type: text(),
        defaultNote: "mara-<stack>",
        description: "Name of the Kubernetes cluster; also tags the cloud resources Kubernetes creates for it.",
        example: "mara-dev",
        group: "Platform",
    }),
    ...ADMISSION_POLICIES_KEYS,
    fqdn: spec({
        key: "mara:fqdn",
        legacy: ["kic-helm:fqdn"],
        type: fqdn(),
        description: "Public host name of the platform; required where the load balancer has no host name (DigitalOcean, Linode, existing clusters).",
        example: "mara.example.com",
        group: "Platform",
    }),

    // ---- AWS --------------------------------------------------------------------------------
    awsRegion: spec({
        key: "aws:region",
        type: member(AWS_REGIONS, "an AWS region", "us-east-1", AWS_REGIONS_SOURCE),
        defaultNote: "AWS_REGION or AWS_DEFAULT_REGION from the environment",
        description: "AWS region for the VPC, EKS cluster and ECR repository.",
        example: "us-east-1",
        group: "AWS",
    }),
    awsProfile: spec({
        key: "aws:profile",
        type: text({ pattern: /^[\w.+=,@-]+$/, allowed: "an AWS CLI profile name" }),
        description: "AWS CLI profile for the provider and the generated kubeconfig (optional; the default credential chain is used otherwise).",
        example: "default",
        group: "AWS",
    }),
    vpcCidr: spec({
        key: "mara:vpcCidr",
        type: ipv4Cidr(16, 16, { privateOnly: true }),
        default: DEFAULTS.vpc.cidrBlock,
        description: "VPC address range; public /24 and private /20 subnets are carved from it per availability zone.",
        group: "AWS",
    }),
    vpcAzs: spec({
        key: "mara:vpcAzs",
        legacy: ["vpc:azs"],
        type: list(awsAz),
        defaultNote: "the first mara:vpcAzCount zones of the region",
        description: "Availability zones to create subnets in (at least 2, all in aws:region).",
        example: '["us-east-1a","us-east-1b","us-east-1c"]',
        group: "AWS",
    }),
    vpcAzCount: spec({
        key: "mara:vpcAzCount",
        type: integer(2, 6),
        default: DEFAULTS.vpc.availabilityZoneCount,
        description: "How many availability zones to use when mara:vpcAzs is not set.",
        group: "AWS",
    }),
    vpcNatGateways: spec({
        key: "mara:vpcNatGateways",
        type: oneOf(["perAz", "single"] as const),
        default: DEFAULTS.vpc.natGateways,
        description: "NAT gateways for the private subnets: one per availability zone (resilient) or a single shared one (cheaper).",
        group: "AWS",
    }),
    eksVersion: spec({
        key: "mara:eksVersion",
        legacy: ["eks:k8s_version"],
        type: k8sMinorVersion,
        default: DEFAULTS.eks.version,
        description: "Kubernetes version of the EKS control plane and node group.",
        group: "AWS",
    }),
    eksInstanceType: spec({
        key: "mara:eksInstanceType",
        legacy: ["eks:instance_type"],
        // Checked against @pulumi/aws's list, and for an Arm family, in nodeSizes.ts.
        type: text({ pattern: /^[a-z][a-z0-9-]*\.[a-z0-9-]+$/, allowed: "an x86_64 EC2 instance type such as t3.large" }),
        default: DEFAULTS.eks.instanceType,
        description: "EC2 instance type of the managed node group; x86_64, because the platform's images (the ingress controller's is copied for linux/amd64) do not run on Arm (Graviton) nodes.",
        group: "AWS",
    }),
    eksMinSize: spec({
        key: "mara:eksMinSize",
        legacy: ["eks:min_size"],
        type: integer(0, 450, "nodes"),
        default: DEFAULTS.eks.minSize,
        description: "Minimum number of worker nodes.",
        group: "AWS",
    }),
    eksMaxSize: spec({
        key: "mara:eksMaxSize",
        legacy: ["eks:max_size"],
        type: integer(1, 450, "nodes"),
        default: DEFAULTS.eks.maxSize,
        description: "Maximum number of worker nodes.",
        group: "AWS",
    }),
    eksDesiredCapacity: spec({
        key: "mara:eksDesiredCapacity",
        legacy: ["eks:desired_capacity"],
        type: integer(1, 450, "nodes"),
        defaultNote: `${DEFAULTS.eks.desiredSize}, kept within [min, max]`,
        example: "3",
        description: "Number of worker nodes to start with (between the minimum and maximum).",
        group: "AWS",
    }),
    ecrImageRetention: spec({
        key: "mara:ecrImageRetention",
        type: integer(1, 1000, "images"),
        default: DEFAULTS.ecr.imageRetention,
        description: "How many ingress controller images the ECR lifecycle policy keeps; older ones expire.",
        group: "AWS",
    }),

    // ---- DigitalOcean -------------------------------------------------------------------------
    doToken: spec({
        key: "digitalocean:token",
        type: secretText,
        secret: true,
        defaultNote: "DIGITALOCEAN_TOKEN from the environment",
        description: "DigitalOcean API token.",
        group: "DigitalOcean",
    }),
    doK8sVersion: spec({
        key: "mara:doK8sVersion",
        legacy: ["docean:k8s_version"],
        type: text({ pattern: /^(1\.\d{1,2}(\.\d+-do\.\d+)?|latest)$/, allowed: 'a DOKS version slug such as "1.35.1-do.0", a minor version such as "1.35", or "latest"' }),
        default: DEFAULTS.doks.version,
        description: "Kubernetes version of the DOKS cluster.",
        group: "DigitalOcean",
    }),
    doInstanceSize: spec({
        key: "mara:doInstanceSize",
        legacy: ["docean:instance_size"],
        type: text({ pattern: /^[a-z0-9-]+$/, allowed: "a droplet size slug such as s-4vcpu-8gb" }),
        default: DEFAULTS.doks.nodeSize,
        description: "Droplet size of the node pool.",
        group: "DigitalOcean",
    }),
    doNodeCount: spec({
        key: "mara:doNodeCount",
        legacy: ["docean:node_count"],
        type: integer(1, 100, "nodes"),
        default: DEFAULTS.doks.nodeCount,
        description: "Number of nodes in the node pool.",
        group: "DigitalOcean",
    }),
    doRegion: spec({
        key: "mara:doRegion",
        legacy: ["docean:region"],
        type: member(DIGITALOCEAN_REGIONS, "a DigitalOcean region", "sfo3", DIGITALOCEAN_REGIONS_SOURCE),
        default: "sfo3",
        description: "DigitalOcean region of the cluster and registry.",
        group: "DigitalOcean",
    }),
    doRegistryTier: spec({
        key: "mara:doRegistryTier",
        legacy: ["docean:container_registry_subscription_tier", "digitalocean:container_registry_subscription_tier"],
        type: oneOf(["starter", "basic", "professional"] as const),
        default: DEFAULTS.docr.tier,
        description: "Subscription tier of the DigitalOcean container registry, when one is created.",
        group: "DigitalOcean",
    }),

    doRegistryName: spec({
        key: "mara:doRegistryName",
        type: text(PATTERNS.dnsLabel),
        defaultNote: "<cluster name>-<random suffix> when created; required when adopting",
        description: "Name of the DigitalOcean container registry to create, or of the account's existing one with mara:doRegistryAdopt.",
        example: "my-registry",
        group: "DigitalOcean",
    }),
    doRegistryAdopt: spec({
        key: "mara:doRegistryAdopt",
        type: boolean(),
        default: DEFAULTS.docr.adopt,
        description: "Use the account's existing registry (DigitalOcean allows one per account) instead of creating one; it is then never deleted.",
        group: "DigitalOcean",
    }),

    // ---- Linode -------------------------------------------------------------------------------
    linodeToken: spec({
        key: "linode:token",
        type: secretText,
        secret: true,
        defaultNote: "LINODE_TOKEN from the environment",
        description: "Linode API token.",
        group: "Linode",
    }),
    lkeK8sVersion: spec({
        key: "mara:lkeK8sVersion",
        legacy: ["linode:k8s_version"],
        type: k8sMinorVersion,
        description: "Kubernetes version of the LKE cluster.",
        // The version the program is written and tested for (its EKS default); the fix hint for a missing
        // version suggests it, so it must be one validation accepts.
        example: DEFAULTS.eks.version,
        group: "Linode",
    }),
    lkeInstanceType: spec({
        key: "mara:lkeInstanceType",
        legacy: ["linode:instance_type"],
        type: linodeType("g6-standard-8"),
        default: DEFAULTS.lke.nodeType,
        description: "Linode instance type of the node pool.",
        group: "Linode",
    }),
    lkeNodeCount: spec({
        key: "mara:lkeNodeCount",
        legacy: ["linode:node_count"],
        type: integer(1, 100, "nodes"),
        default: DEFAULTS.lke.nodeCount,
        description: "Number of nodes in the node pool.",
        group: "Linode",
    }),
    lkeRegion: spec({
        key: "mara:lkeRegion",
        legacy: ["linode:region"],
        type: member(LINODE_REGIONS, "a Linode region", "us-central", LINODE_REGIONS_SOURCE),
        description: "Linode region of the cluster and registry.",
        example: "us-central",
        group: "Linode",
    }),
    lkeHighAvailability: spec({
        key: "mara:lkeHighAvailability",
        legacy: ["linode:k8s_ha"],
        type: boolean(),
        default: DEFAULTS.lke.highAvailability,
        description: "Run the LKE control plane in high-availability mode.",
        group: "Linode",
    }),
    harborSoaEmail: spec({
        key: "mara:harborSoaEmail",
        legacy: ["linode:soa_email"],
        type: email,
        description: "SOA email for the Harbor registry's DNS zone.",
        example: "admin@example.com",
        group: "Linode",
        // MARA's Harbor VM; nothing reads these keys any more (infraSettings.ts says so when one is set).
        usedOn: [],
    }),
    harborInstanceType: spec({
        key: "mara:harborInstanceType",
        legacy: ["linode:harbor_instance_type"],
        type: linodeType("g6-standard-1"),
        default: "g6-standard-1",
        description: "Linode instance type of the Harbor registry host.",
        group: "Linode",
        // MARA's Harbor VM; nothing reads these keys any more (infraSettings.ts says so when one is set).
        usedOn: [],
    }),
    harborSshKeyPath: spec({
        key: "mara:harborSshKeyPath",
        legacy: ["linode:harbor_ssh_key_path"],
        type: text(),
        description: "Path of an SSH public key authorised on the Harbor host (optional).",
        example: "~/.ssh/id_ed25519.pub",
        group: "Linode",
        // MARA's Harbor VM; nothing reads these keys any more (infraSettings.ts says so when one is set).
        usedOn: [],
    }),
    harborAdminPassword: spec({
        key: "mara:harborAdminPassword",
        legacy: ["linode:harbor_password"],
        type: secretText,
        secret: true,
        defaultNote: "generated",
        description: "Harbor administrator password.",
        group: "Linode",
        // MARA's Harbor VM; nothing reads these keys any more (infraSettings.ts says so when one is set).
        usedOn: [],
    }),
    harborDbPassword: spec({
        key: "mara:harborDbPassword",
        legacy: ["linode:harbor_db_password"],
        type: secretText,
        secret: true,
        defaultNote: "generated",
        description: "Harbor database password.",
        group: "Linode",
        // MARA's Harbor VM; nothing reads these keys any more (infraSettings.ts says so when one is set).
        usedOn: [],
    }),
    harborSudoPassword: spec({
        key: "mara:harborSudoPassword",
        legacy: ["linode:harbor_sudo_user_password"],
        type: secretText,
        secret: true,
        defaultNote: "generated",
        description: "Password of the sudo user on the Harbor host.",
        group: "Linode",
        // MARA's Harbor VM; nothing reads these keys any more (infraSettings.ts says so when one is set).
        usedOn: [],
    }),

    registryServer: spec({
        key: "mara:registryServer",
        type: hostPort("a registry host such as ghcr.io or registry.example.com:5000"),
        description: "Your own OCI registry for the ingress controller image on Linode (instead of MARA's Harbor VM) or an existing cluster; unset: the image is pulled from its source.",
        example: "ghcr.io",
        group: "Linode",
        usedOn: ["linode", "kubeconfig"],
    }),
    registryRepository: spec({
        key: "mara:registryRepository",
        type: text({ pattern: /^[a-z0-9]+([._-][a-z0-9]+)*(\/[a-z0-9]+([._-][a-z0-9]+)*)*$/, allowed: "a repository path such as my-org/nginx-ingress" }),
        description: "Repository in mara:registryServer to push the ingress controller image to.",
        example: "my-org/nginx-ingress",
        group: "Linode",
        usedOn: ["linode", "kubeconfig"],
    }),
    registryUsername: spec({
        key: "mara:registryUsername",
        type: text(),
        description: "User for pushing to and pulling from mara:registryServer.",
        example: "my-robot",
        group: "Linode",
        usedOn: ["linode", "kubeconfig"],
    }),
    registryPassword: spec({
        key: "mara:registryPassword",
        type: secretText,
        secret: true,
        description: "Password or token of mara:registryUsername.",
        group: "Linode",
        usedOn: ["linode", "kubeconfig"],
    }),

    // ---- Existing cluster ---------------------------------------------------------------------
    kubeconfig: spec({
        key: "mara:kubeconfig",
        legacy: ["kubernetes:kubeconfig"],
        // An inline kubeconfig may be JSON (`kubectl config view -o json`).
        type: text({ structured: true }),
        description: "Existing cluster only: path of a kubeconfig file, or the file's contents.",
        example: "~/.kube/config",
        group: "Existing cluster",
    }),
    kubeContext: spec({
        key: "mara:kubeContext",
        legacy: ["kubernetes:context_name"],
        type: text(),
        defaultNote: "the kubeconfig's current context",
        description: "Existing cluster only: kubeconfig context to use.",
        example: "my-cluster",
        group: "Existing cluster",
    }),

    ...INGRESS_CONTROLLER_SERVICE_KEYS,
    containerLogPath: spec({
        key: "mara:containerLogPath",
        // The rule (absolute, no '..', never a system directory) is hostPathProblem, shared with the LogAgent component.
        type: text({ allowed: HOST_PATH_ALLOWED }),
        defaultNote: "the platform's (/var/log/containers)",
        description: "Host directory with the container log files the log agent tails (MARA issue #76).",
        example: "/var/log/containers",
        group: "Existing cluster",
        usedOn: INFRA_TYPES,
    }),

    ...METALLB_KEYS,
    ...NFS_STORAGE_KEYS,

    ...INGRESS_CONTROLLER_KEYS,
    storageClass: spec({
        key: "mara:storageClass",
        type: kubernetesName("subdomain", "a StorageClass name", "gp3"),
        defaultNote: "the platform's class (gp2 on EKS)",
        description: "StorageClass for the platform's persistent volumes (Prometheus, Grafana, Elasticsearch, databases).",
        example: "gp3",
        group: "Platform",
    }),

    // ---- Certificates -------------------------------------------------------------------------
    // The units' own keys (components/<unit>/keys.ts), spread where their group's section stands.
    ...CERT_MANAGER_KEYS,

    chartArchiveDir: spec({
        key: "mara:chartArchiveDir",
        type: text(),
        description:
            "Local folder of chart archives to install instead of fetching charts from their repositories (air-gapped installs): <chart>-<version>.tgz for every chart, and a SHA256SUMS file of their digests.",
        example: "./test/charts",
        group: "Charts",
    }),

    ...INGRESS_CONTROLLER_CHART_KEYS,

    // ---- Charts of the other add-ons ------------------------------------------------------------
    ...CERT_MANAGER_CHART_KEYS,
    ...PROMETHEUS_CHART_KEYS,
    ...LOGSTORE_CHART_KEYS,
    ...LOG_AGENT_CHART_KEYS,
    ...OBSERVABILITY_CHART_KEYS,
    ...METALLB_CHART_KEYS,
    ...NFS_STORAGE_CHART_KEYS,
    ...APPLICATION_CHART_KEYS,
    // Argo CD's chart: read only with mara:delivery gitops and mara:gitopsArgoCd install.
    ...ARGO_CD_CHART_KEYS,
    // The Pulumi Kubernetes Operator's chart: read only with mara:delivery operator.
    ...PULUMI_OPERATOR_CHART_KEYS,

    // ---- Log store ------------------------------------------------------------------------------
    ...LOGSTORE_KEYS,

    // ---- Prometheus -----------------------------------------------------------------------------
    ...PROMETHEUS_KEYS,

    // ---- Alerts ---------------------------------------------------------------------------------
    alertSlackWebhookUrl: spec({
        key: "mara:alertSlackWebhookUrl",
        type: slackWebhookUrl(),
        secret: true,
        description:
            "Slack incoming webhook (https://hooks.slack.com/services/…) that critical alerts and warnings are posted to. The URL is a credential: Pulumi writes it into the Secret alertmanager-receivers, which Alertmanager reads as a file (docs/alerts.md).",
        group: "Alerts",
    }),
    alertSlackChannel: spec({
        key: "mara:alertSlackChannel",
        type: slackChannel(),
        description: "Slack channel (#name or a channel ID) to post to instead of the webhook's own; webhooks made by a Slack app ignore it. Needs mara:alertSlackWebhookUrl.",
        example: "#platform-alerts",
        group: "Alerts",
    }),
    alertPagerdutyRoutingKey: spec({
        key: "mara:alertPagerdutyRoutingKey",
        type: pagerdutyRoutingKey(),
        secret: true,
        description: "Integration (routing) key of a PagerDuty Events API v2 integration: critical alerts page through it. Written into the Secret alertmanager-receivers, read by Alertmanager as a file.",
        group: "Alerts",
    }),
    alertEmailTo: spec({
        key: "mara:alertEmailTo",
        type: emailAddresses(),
        description:
            "Recipients of alert email: critical alerts, and warnings when neither Slack nor a webhook is configured. Setting it configures the email receiver, which also needs mara:alertEmailFrom and mara:alertEmailSmarthost.",
        example: "oncall@example.com",
        group: "Alerts",
    }),
    alertEmailFrom: spec({
        key: "mara:alertEmailFrom",
        type: emailAddress(),
        description: "Sender address of alert email.",
        example: "alertmanager@example.com",
        group: "Alerts",
    }),
    alertEmailSmarthost: spec({
        key: "mara:alertEmailSmarthost",
        type: smarthost(),
        description: "SMTP server of alert email, as host:port (465 is implicit TLS; other ports use STARTTLS, see mara:alertEmailRequireTls).",
        example: "smtp.example.com:587",
        group: "Alerts",
    }),
    alertEmailUsername: spec({
        key: "mara:alertEmailUsername",
        type: smtpUsername(),
        description: "User name Alertmanager authenticates to the SMTP server with; needs mara:alertEmailPassword.",
        example: "alertmanager@example.com",
        group: "Alerts",
    }),
    alertEmailPassword: spec({
        key: "mara:alertEmailPassword",
        type: secretText,
        secret: true,
        description: "Password of mara:alertEmailUsername. Written into the Secret alertmanager-receivers, read by Alertmanager as a file; never sent without TLS.",
        group: "Alerts",
    }),
    alertEmailRequireTls: spec({
        key: "mara:alertEmailRequireTls",
        type: boolean(),
        default: DEFAULTS.prometheus.alerting.emailRequireTls,
        description:
            "Send alert email only over TLS: Alertmanager refuses a server that offers no STARTTLS (port 465 always speaks TLS). Turning it off with a password is refused, since the password would travel in clear text.",
        group: "Alerts",
    }),
    alertWebhookUrl: spec({
        key: "mara:alertWebhookUrl",
        type: webhookUrl(),
        description:
            "An https:// endpoint that receives critical alerts and warnings as Alertmanager's webhook payload (an incident tool, a chat bridge). Written in the configuration in plain text, so never with a credential in it: a token goes in mara:alertWebhookBearerToken.",
        example: "https://hooks.example.com/alertmanager",
        group: "Alerts",
    }),
    alertWebhookBearerToken: spec({
        key: "mara:alertWebhookBearerToken",
        type: bearerToken(),
        secret: true,
        description: "Token Alertmanager sends to mara:alertWebhookUrl as Authorization: Bearer. Written into the Secret alertmanager-receivers, read by Alertmanager as a file.",
        group: "Alerts",
    }),
    alertCriticalRepeatInterval: spec({
        key: "mara:alertCriticalRepeatInterval",
        type: repeatInterval(),
        default: DEFAULTS.prometheus.alerting.criticalRepeatInterval,
        description: "How often a critical alert that keeps firing is sent again (5m to 120h).",
        group: "Alerts",
    }),
    alertWarningRepeatInterval: spec({
        key: "mara:alertWarningRepeatInterval",
        type: repeatInterval(),
        default: DEFAULTS.prometheus.alerting.warningRepeatInterval,
        description: "How often a warning that keeps firing is sent again (5m to 120h; certificate warnings at most once a day).",
        group: "Alerts",
    }),
    alertRunbookUrl: spec({
        key: "mara:alertRunbookUrl",
        type: runbookUrl(),
        defaultNote: "docs/alerts.md, the page in this repository",
        description: "Where your team reads docs/alerts.md (your repository's copy, or a wiki page with the same sections): each alert's runbook_url is this address and the alert's anchor.",
        example: "https://github.com/your-org/platform/blob/main/docs/alerts.md",
        group: "Alerts",
    }),

    // ---- Observability ----------------------------------------------------------------------------
    ...OBSERVABILITY_KEYS,

    // ---- Bank of Sirius -------------------------------------------------------------------------
    ...APPLICATION_KEYS,

    // ---- GitOps ---------------------------------------------------------------------------------
    delivery: spec({
        key: "mara:delivery",
        type: oneOf(["pulumi", "handover", "gitops", "operator"] as const),
        default: "pulumi",
        description:
            "Who delivers the platform and Bank of Sirius: pulumi (this program, as Helm releases and typed objects); handover (still pulumi, every in-cluster resource marked to be kept when it leaves the stack: the step before gitops or operator on a deployed stack); gitops (Pulumi keeps the cloud, registry, image and cluster, installs Argo CD and hands the platform to it from the render in mara:gitopsRepoUrl); operator (Pulumi keeps the same, installs the Pulumi Kubernetes Operator and a Stack that runs the in-cluster stack mara:operatorStack of the project in mara:gitopsRepoUrl). docs/gitops.md and docs/delivery-operator.md have the order of a switch either way.",
        group: "GitOps",
    }),
    gitopsRepoUrl: spec({
        key: "mara:gitopsRepoUrl",
        type: gitRepoUrl(),
        description:
            "Git repository that holds the platform's render (mara render --out), or with mara:delivery operator the project the Pulumi Kubernetes Operator runs; required when mara:delivery is handover, gitops or operator. Never with a credential in it (it is written into the render's Applications): a private repository's credential goes into Argo CD's repository Secret (mara:gitopsRepoPassword or mara:gitopsRepoSshPrivateKey, or mara render --secret-store).",
        example: "https://github.com/your-org/platform-config.git",
        group: "GitOps",
    }),
    gitopsRevision: spec({
        key: "mara:gitopsRevision",
        type: gitRevision(),
        default: "main",
        description: "Branch, tag or commit of mara:gitopsRepoUrl that Argo CD (or, with mara:delivery operator, the Pulumi Kubernetes Operator) follows.",
        group: "GitOps",
    }),
    gitopsPath: spec({
        key: "mara:gitopsPath",
        type: repoFolder(),
        description: "Folder of mara:gitopsRepoUrl that mara render writes the platform to (and its argocd/ Applications), or with mara:delivery operator the folder holding the project's Pulumi.yaml; required when mara:delivery is handover, gitops or operator.",
        example: "deploy/prod",
        group: "GitOps",
    }),
    gitopsArgoCd: spec({
        key: "mara:gitopsArgoCd",
        type: oneOf(["install", "external"] as const),
        default: "install",
        description:
            "With mara:delivery gitops: install Argo CD in the cluster (a Helm release of the argo-cd chart, mara:argoCdChartVersion; a root Application; the cluster's facts as an Argo CD cluster Secret), or leave the platform to an Argo CD elsewhere (a hub), for which the stack outputs the cluster Secret and root Application to apply there.",
        group: "GitOps",
    }),
    gitopsFleet: spec({
        key: "mara:gitopsFleet",
        type: fleetName(),
        description:
            "With mara:gitopsArgoCd external: the fleet of the hub this cluster belongs to. The cluster Secret carries it as the label mara.nginx.com/fleet, and mara render writes an ApplicationSet (argocd/fleet/) whose cluster generator delivers this render to every cluster registered on the hub with that label and this stack's infrastructure type, in place of the root Application.",
        example: "prod",
        group: "GitOps",
    }),

    ...PULUMI_OPERATOR_KEYS,

    gitopsRepoUsername: spec({
        key: "mara:gitopsRepoUsername",
        type: repoUsername(),
        description:
            "User name for mara:gitopsRepoPassword over HTTPS, in Argo CD's repository Secret; leave it out for a token (Argo CD then uses x-access-token).",
        group: "GitOps",
    }),
    gitopsRepoPassword: spec({
        key: "mara:gitopsRepoPassword",
        type: secretText,
        secret: true,
        description:
            "Password or access token Argo CD clones an https:// mara:gitopsRepoUrl with: with mara:delivery gitops and mara:gitopsArgoCd install, Pulumi writes it into Argo CD's repository Secret (argocd/mara-repository) in the cluster, with mara:delivery operator into the operator's (pulumi-kubernetes-operator/mara-repository), never into Git.",
        group: "GitOps",
    }),
    gitopsRepoSshPrivateKey: spec({
        key: "mara:gitopsRepoSshPrivateKey",
        type: sshPrivateKey(),
        secret: true,
        description:
            "Unencrypted SSH private key Argo CD clones an SSH mara:gitopsRepoUrl with (git@host:org/repo.git, or an ssh:// URL with a user): with mara:delivery gitops and mara:gitopsArgoCd install, Pulumi writes it into Argo CD's repository Secret in the cluster, never into Git.",
        group: "GitOps",
    }),

    // ---- Tear down ------------------------------------------------------------------------------
    retainVolumes: spec({
        key: "mara:retainVolumes",
        type: boolean(),
        default: DEFAULTS.platform.retainVolumes,
        description:
            "Keep the data volumes (Elasticsearch, Prometheus, Grafana, the databases) when their claims or the stack are deleted: the platform's StorageClass retains new volumes, `pulumi up` switches existing ones to Retain, and the destroy drain deletes no volume. Volumes whose PersistentVolume says Retain, and imported ones, are kept whatever this says. A change reaches destroy through `mara destroy`, which applies it first, or after `pulumi up`; a plain `pulumi destroy` uses the value of the last `up`. Turning it off never makes a retained volume deletable.",
        group: "Tear down",
    }),
    protectData: spec({
        key: "mara:protectData",
        type: boolean(),
        default: DEFAULTS.platform.protectData,
        description: "Protect the stateful components (Logstore, Prometheus, Bank of Sirius) from deletion: pulumi destroy then stops before touching them.",
        group: "Tear down",
    }),
    removeCrds: spec({
        key: "mara:removeCrds",
        type: boolean(),
        defaultNote: "true; on an existing cluster (kubeconfig) CRDs are never removed, and true is an error",
        description:
            "At destroy, remove the CRDs that this platform's Helm releases installed and Helm keeps (ECK's, cert-manager's when kept), proven by Helm's ownership marks and the release names; never another release's CRDs, never by API group. CRDs charts ship in their crds/ directory carry no such marks and go with the cluster.",
        example: "true",
        group: "Tear down",
    }),
    drainTimeoutMinutes: spec({
        key: "mara:drainTimeoutMinutes",
        type: integer(1, 120, "minutes"),
        default: DEFAULTS.clusterDrain.timeoutMinutes,
        description: "How long destroy waits for the load balancers and volumes this cluster made (as its records prove) to be gone before it fails with their list.",
        group: "Tear down",
    }),
} as const;

/** The id of a key in {@link KEYS}. */
export type KeyId = keyof typeof KEYS;
/** The parsed value type of a key id. */
export type KeyValue<K extends KeyId> = (typeof KEYS)[K] extends KeySpec<infer T> ? T : never;
/** The ids of the keys that have a declared default. */
export type DefaultedKeyId = { [K in KeyId]: (typeof KEYS)[K] extends { readonly default: unknown } ? K : never }[KeyId];

/**
 * MARA keys that are accepted and deliberately not used, with the reason shown when they are set to
 * something other than what we install.
 */
export const INFORMATIONAL_KEYS: Readonly<Record<string, string>> = {
    "kic-helm:helm_repo_name": "Helm releases are installed from the repository URL; the local repo name is not used.",
    "certmgr:certmgr_helm_repo_name": "Helm releases are installed from the repository URL; the local repo name is not used.",
    "prometheus:prometheus_helm_repo_name": "Helm releases are installed from the repository URL; the local repo name is not used.",
    "prometheus:helm_repo_name": "Helm releases are installed from the repository URL; the local repo name is not used.",
    "logstore:helm_repo_name": "Helm releases are installed from the repository URL; the local repo name is not used.",
    "logagent:helm_repo_name": "Helm releases are installed from the repository URL; the local repo name is not used.",
    "sirius:helm_repo_name": "Helm releases are installed from the repository URL; the local repo name is not used.",
};

/**
 * MARA's `*:chart_name` keys, per chart. The chart name is fixed by the catalogue because each
 * component's values are written for that chart; a MARA key naming a different chart (MARA's Bitnami
 * Elasticsearch or Filebeat) means the section's version and repository keys describe that other chart
 * and are ignored with a warning.
 */
export const LEGACY_CHART_NAME_KEYS: Readonly<Record<string, ChartId>> = {
    "kic-helm:chart_name": "ingress",
    "certmgr:chart_name": "certManager",
    "prometheus:chart_name": "prometheus",
    "prometheus:statsd_chart_name": "statsd",
    "logstore:chart_name": "logstore",
    "logagent:chart_name": "logagent",
    "sirius:chart": "postgresExporter",
};

/** Namespaces MARA used for its own settings; unknown keys there are reported as likely typos. */
export const MARA_NAMESPACES = [
    "mara",
    "kic",
    "kic-helm",
    "vpc",
    "eks",
    "logstore",
    "logagent",
    "certmgr",
    "prometheus",
    "sirius",
    "docean",
] as const;
