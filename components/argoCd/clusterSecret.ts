/**
 * The cluster as an Argo CD cluster Secret, in the GitOps Bridge style: Argo CD learns a cluster from a Secret labelled
 * `argocd.argoproj.io/secret-type: cluster`, and the facts that infrastructure code knows (its name, where it runs,
 * its addresses, its registry) travel on that Secret's labels and annotations, where ApplicationSets' cluster
 * generators and templates read them. The Secret carries no credential: in the cluster's own Argo CD it points at
 * the API server Argo CD runs beside; for a hub's Argo CD, the hub adds how it authenticates (on EKS, the IAM
 * role it assumes).
 */
import { parse } from "yaml";
import { ARGOCD_NAMESPACE, GitSource } from "./applications";

/** What the program knows about the cluster when Argo CD takes over the platform. */
export interface ClusterFacts {
    /** Cluster name (the Secret's `name`, and the name Applications written for a hub use as their destination). */
    clusterName: string;
    /** `kubernetes:infra_type`: aws, digitalocean, linode or kubeconfig. */
    infraType: string;
    /** Cloud region, where the infrastructure type has one. */
    region?: string;
    /** The API server's URL (for a hub); the cluster's own Argo CD reaches it in-cluster. */
    apiServer?: string;
    /** Base64 PEM of the API server's CA, which a hub verifies it with (public). */
    caData?: string;
    /** The platform's host name (`mara:fqdn`), when configured. */
    fqdn?: string;
    /** The container registry repository the ingress controller image is pushed to, when there is one. */
    registry?: string;
    /** The ingress controller image the platform runs (by digest when pushed). */
    kicImage?: string;
    /** The repository, revision and folder of the platform's render. */
    source: GitSource;
    /** The hub's fleet the cluster belongs to (`mara:gitopsFleet`, a DNS label), which the fleet's ApplicationSet selects by. */
    fleet?: string;
}

/** The prefix of the label and annotation keys the facts are written under. */
const KEY = "mara.nginx.com";

/** The labels of the cluster Secret that ApplicationSets' cluster generators select by (applicationSet.ts). */
export const CLUSTER_LABELS = {
    clusterName: `${KEY}/cluster-name`,
    infraType: `${KEY}/infra-type`,
    region: `${KEY}/region`,
    fleet: `${KEY}/fleet`,
} as const;

/**
 * A label value: at most 63 characters of letters, digits, `-`, `_` and `.`, starting and ending with one of the first
 * two (the API server's rule, apimachinery validation.IsValidLabelValue). Cut to length before its ends are trimmed,
 * so a cut never leaves a `-` at the end.
 */
export const asLabel = (v: string) => v.replace(/[^A-Za-z0-9_.-]/g, "-").slice(0, 63).replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, "");

/**
 * The Secret's name: `mara-cluster-` and the cluster's name as a DNS label (lower-case letters, digits and `-`, at most
 * 63, starting and ending with a letter or digit), so that any cluster name (an existing cluster's may be any text)
 * gives a name the API server takes (a DNS-1123 subdomain, apimachinery IsDNS1123Subdomain).
 */
export function clusterSecretName(clusterName: string): string {
    const label = clusterName.toLowerCase().replace(/[^a-z0-9-]+/g, "-").slice(0, 63).replace(/^-+|-+$/g, "");
    return label ? `mara-cluster-${label}` : "mara-cluster";
}

/** The cluster Secret for an Argo CD in the cluster itself (`inCluster`) or on a hub. */
export function clusterSecretManifest(facts: ClusterFacts, where: "inCluster" | "hub"): Record<string, unknown> {
    const config = where === "inCluster" ? { tlsClientConfig: { insecure: false } } : hubConfig(facts);
    return {
        apiVersion: "v1",
        kind: "Secret",
        type: "Opaque",
        metadata: {
            name: clusterSecretName(facts.clusterName),
            namespace: ARGOCD_NAMESPACE,
            labels: {
                "argocd.argoproj.io/secret-type": "cluster",
                [CLUSTER_LABELS.clusterName]: asLabel(facts.clusterName),
                [CLUSTER_LABELS.infraType]: asLabel(facts.infraType),
                ...(facts.region ? { [CLUSTER_LABELS.region]: asLabel(facts.region) } : {}),
                ...(facts.fleet ? { [CLUSTER_LABELS.fleet]: facts.fleet } : {}),
            },
            annotations: {
                [`${KEY}/cluster-name`]: facts.clusterName,
                [`${KEY}/infra-type`]: facts.infraType,
                ...(facts.region ? { [`${KEY}/region`]: facts.region } : {}),
                ...(facts.apiServer ? { [`${KEY}/api-server`]: facts.apiServer } : {}),
                ...(facts.fqdn ? { [`${KEY}/fqdn`]: facts.fqdn } : {}),
                ...(facts.registry ? { [`${KEY}/registry`]: facts.registry } : {}),
                ...(facts.kicImage ? { [`${KEY}/kic-image`]: facts.kicImage } : {}),
                [`${KEY}/repo-url`]: facts.source.repoUrl,
                [`${KEY}/repo-revision`]: facts.source.revision,
                [`${KEY}/repo-path`]: facts.source.path,
            },
        },
        stringData: {
            name: facts.clusterName,
            server: where === "inCluster" ? "https://kubernetes.default.svc" : (facts.apiServer ?? ""),
            config: JSON.stringify(config),
        },
    };
}

/** How a hub reaches the cluster, as far as the program knows it without a credential. */
function hubConfig(facts: ClusterFacts): Record<string, unknown> {
    const tls = { tlsClientConfig: { insecure: false, ...(facts.caData ? { caData: facts.caData } : {}) } };
    // EKS: the hub authenticates with its own IAM role (add roleARN if it assumes another); elsewhere add a bearerToken.
    return facts.infraType === "aws" ? { ...tls, awsAuthConfig: { clusterName: facts.clusterName } } : tls;
}

/**
 * The API server URL and CA of a kubeconfig's current context (neither is a secret). A server URL with user
 * information or a query carries a credential, which the cluster Secret's annotations and the stack's outputs must not
 * hold: only the scheme, host, port and path are kept.
 */
export function apiServerOf(kubeconfig: string): { server?: string; caData?: string } {
    // A kubeconfig is YAML (or JSON, which is YAML); only these two fields are read.
    const doc = parse(kubeconfig) as {
        "current-context"?: string;
        contexts?: { name: string; context: { cluster: string } }[];
        clusters?: { name: string; cluster: { server?: string; "certificate-authority-data"?: string } }[];
    };
    const context = doc?.contexts?.find((c) => c.name === doc["current-context"]) ?? doc?.contexts?.[0];
    const cluster = doc?.clusters?.find((c) => c.name === context?.context.cluster) ?? doc?.clusters?.[0];
    const server = cluster?.cluster.server;
    return { server: typeof server === "string" ? serverAddress(server) : undefined, caData: cluster?.cluster["certificate-authority-data"] };
}

/** A server URL without user information, query or fragment; text that is no URL is left out. */
function serverAddress(server: string): string | undefined {
    try {
        const url = new URL(server.trim());
        return `${url.protocol}//${url.host}${url.pathname === "/" && !/^[a-z]+:\/\/[^/]+\/$/i.test(server.trim()) ? "" : url.pathname}`;
    } catch {
        return undefined;
    }
}
