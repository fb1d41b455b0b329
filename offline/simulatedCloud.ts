/**
 * The simulated cloud: what a real `pulumi up` would compute for each resource type, and the answers to
 * the data-source lookups the program makes, in one region of one fake account. One table for every run
 * under mocks — `mara plan` (offline/run.ts), the tests and the benchmarks — so they all see the same cloud.
 */
import { createHash } from "crypto";
import type * as pulumi from "@pulumi/pulumi";
import { availabilityZonesOf } from "../config/availabilityZones";

const ACCOUNT = "123456789012";

/** The resource versions handed out to Secrets, by Secret and content (in this process's memory only). */
const secretVersions = new Map<string, string>();

/**
 * A Secret's resource version as the API server gives it: a counter that moves whenever the Secret's data changes,
 * carrying nothing of the data (a digest of it would let anyone who sees the version test guesses of the values).
 */
function secretResourceVersion(args: pulumi.runtime.MockResourceArgs): string {
    const content = `${args.name}\0${JSON.stringify(args.inputs.stringData ?? args.inputs.data ?? {})}`;
    let version = secretVersions.get(content);
    if (version === undefined) {
        version = String(secretVersions.size + 1);
        secretVersions.set(content, version);
    }
    return version;
}

/** Computed outputs per resource type, as a real `pulumi up` would return them. */
export function computedState(args: pulumi.runtime.MockResourceArgs, region: string): Record<string, unknown> {
    switch (args.type) {
        case "aws:iam/role:Role":
            return { arn: `arn:aws:iam::${ACCOUNT}:role/${args.name}`, name: args.name };
        case "aws:ecr/repository:Repository":
            return {
                registryId: ACCOUNT,
                repositoryUrl: `${ACCOUNT}.dkr.ecr.${region}.amazonaws.com/${args.inputs.name}`,
                arn: `arn:aws:ecr:${region}:${ACCOUNT}:repository/${args.inputs.name}`,
            };
        case "aws:kms/key:Key":
            return { arn: `arn:aws:kms:${region}:${ACCOUNT}:key/${createHash("sha256").update(args.name).digest("hex").slice(0, 32)}`, keyId: args.name };
        case "eks:index:Cluster":
            return {
                kubeconfigJson: JSON.stringify(sampleKubeconfig(args.inputs.name as string)),
                kubeconfig: sampleKubeconfig(args.inputs.name as string),
                oidcProviderArn: `arn:aws:iam::${ACCOUNT}:oidc-provider/oidc.eks.${region}.amazonaws.com/id/EXAMPLE`,
                oidcProviderUrl: `oidc.eks.${region}.amazonaws.com/id/EXAMPLE`,
            };
        case "docker:index/remoteImage:RemoteImage":
            // The local image ID (a pull or a build), as `docker inspect` reports it.
            return { imageId: `sha256:${"cd".repeat(32)}`, repoDigest: "" };
        case "docker:index/tag:Tag":
            return { sourceImageId: String(args.inputs.sourceImage) };
        case "docker:index/registryImage:RegistryImage":
            // The manifest digest the registry reports for the pushed tag.
            return { sha256Digest: `sha256:${"ab".repeat(32)}` };
        case "tls:index/privateKey:PrivateKey":
            return {
                privateKeyPem: `-----BEGIN RSA PRIVATE KEY-----\nMOCK-PRIVATE-${args.name}\n-----END RSA PRIVATE KEY-----\n`,
                publicKeyPem: `-----BEGIN PUBLIC KEY-----\nMOCK-PUBLIC-${args.name}\n-----END PUBLIC KEY-----\n`,
            };
        case "random:index/randomPassword:RandomPassword":
            return { result: `generated-${args.name}`, bcryptHash: "hash" };
        case "kubernetes:core/v1:Secret":
            return { metadata: { ...(args.inputs.metadata as Record<string, unknown>), resourceVersion: secretResourceVersion(args) } };
        case "kubernetes:helm.sh/v3:Release":
            return {
                status: {
                    name: args.inputs.name,
                    namespace: args.inputs.namespace,
                    chart: args.inputs.chart,
                    version: args.inputs.version,
                    status: "deployed",
                    revision: 1,
                },
            };
        case "kubernetes:core/v1:Service": {
            if (!args.inputs.spec || (args.inputs.spec as Record<string, unknown>).type !== "LoadBalancer") return {};
            // AWS load balancers report a host name; DigitalOcean's and Linode's an IP address.
            const annotations = ((args.inputs.metadata as Record<string, unknown>)?.annotations ?? {}) as Record<string, string>;
            const aws = "service.beta.kubernetes.io/aws-load-balancer-type" in annotations;
            return { status: { loadBalancer: { ingress: [aws ? { hostname: "a1b2c3-123.elb.us-east-1.amazonaws.com" } : { ip: "203.0.113.10" }] } } };
        }
        case "digitalocean:index/kubernetesCluster:KubernetesCluster":
            return {
                urn: `do:kubernetes:${args.name}`,
                kubeConfigs: [{ rawConfig: `apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  user:\n    token: do-cluster-token\n`, token: "do-cluster-token" }],
            };
        case "digitalocean:index/containerRegistry:ContainerRegistry":
            return { endpoint: `registry.digitalocean.com/${args.inputs.name}`, serverUrl: "registry.digitalocean.com" };
        case "digitalocean:index/containerRegistryDockerCredentials:ContainerRegistryDockerCredentials":
            return {
                dockerCredentials: JSON.stringify({ auths: { "registry.digitalocean.com": { auth: Buffer.from("do-pull-user:do-pull-password").toString("base64") } } }),
            };
        case "digitalocean:index/dnsRecord:DnsRecord":
            return { fqdn: `${args.inputs.name}.${args.inputs.domain}` };
        case "random:index/randomString:RandomString":
            return { result: "x7k2p9" };
        case "linode:index/lkeCluster:LkeCluster":
            return {
                kubeconfig: Buffer.from("apiVersion: v1\nkind: Config\nusers:\n- name: lke-admin\n  user:\n    token: lke-cluster-token\n").toString("base64"),
            };
        default:
            return {};
    }
}

/** A kubeconfig shaped like the one @pulumi/eks generates (exec-based, no static credentials). */
export function sampleKubeconfig(cluster: string) {
    return {
        apiVersion: "v1",
        kind: "Config",
        clusters: [{ name: cluster, cluster: { server: "https://EXAMPLE.gr7.us-east-1.eks.amazonaws.com", "certificate-authority-data": "LS0t" } }],
        contexts: [{ name: "aws", context: { cluster, user: "aws" } }],
        "current-context": "aws",
        users: [{ name: "aws", user: { exec: { apiVersion: "client.authentication.k8s.io/v1beta1", command: "aws", args: ["eks", "get-token", "--cluster-name", cluster] } } }],
    };
}

/**
 * Answers to invokes (data-source lookups), by token; undefined for a lookup the simulated cloud does
 * not know (the tests fail on it, `mara plan` answers it with an empty placeholder and says so).
 */
export function invokeAnswer(args: Pick<pulumi.runtime.MockCallArgs, "token" | "inputs">, region: string): Record<string, unknown> | undefined {
    switch (args.token) {
        case "aws:index/getAvailabilityZones:getAvailabilityZones":
            // The zones validation counts on (config/availabilityZones.ts), so validate and plan agree.
            return { id: region, names: [...availabilityZonesOf(region)], zoneIds: [] };
        case "aws:index/getPartition:getPartition":
            return { id: "aws", partition: "aws", dnsSuffix: "amazonaws.com" };
        case "digitalocean:index/getKubernetesVersions:getKubernetesVersions":
            return { id: "versions", latestVersion: args.inputs.versionPrefix ? `${args.inputs.versionPrefix}2-do.0` : "1.35.1-do.0", validVersions: ["1.35.1-do.0", "1.34.4-do.0"] };
        case "digitalocean:index/getDomain:getDomain":
            return { id: args.inputs.name, name: args.inputs.name, ttl: 1800, urn: `do:domain:${args.inputs.name}`, zoneFile: "" };
        case "digitalocean:index/getContainerRegistry:getContainerRegistry":
            return { id: args.inputs.name, name: args.inputs.name, endpoint: `registry.digitalocean.com/${args.inputs.name}`, serverUrl: "registry.digitalocean.com" };
        case "aws:ecr/getAuthorizationToken:getAuthorizationToken":
            return {
                id: region,
                userName: "AWS",
                password: "ecr-push-token",
                proxyEndpoint: `https://${ACCOUNT}.dkr.ecr.${region}.amazonaws.com`,
                authorizationToken: "QVdTOmVjci1wdXNoLXRva2Vu",
                expiresAt: "2026-11-21T23:59:59Z",
            };
        default:
            return undefined;
    }
}
