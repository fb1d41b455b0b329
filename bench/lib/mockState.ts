/**
 * What the simulated cloud answers: the computed outputs a real `pulumi up` would return per resource
 * type, and the answers to the invokes the program makes. Modelled on the test suite's mocks (not
 * imported from them: the benchmark must run on its own), kept to what the program needs to finish a
 * run with every output known.
 */
import type * as pulumi from "@pulumi/pulumi";

const ACCOUNT = "123456789012";
const REGION = "us-east-1";
const ZONES = ["us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d", "us-east-1f"];

/** A kubeconfig shaped like the one @pulumi/eks generates (exec-based, no static credentials). */
function eksKubeconfig(cluster: string) {
    return {
        apiVersion: "v1",
        kind: "Config",
        clusters: [{ name: cluster, cluster: { server: "https://EXAMPLE.gr7.us-east-1.eks.amazonaws.com", "certificate-authority-data": "LS0t" } }],
        contexts: [{ name: "aws", context: { cluster, user: "aws" } }],
        "current-context": "aws",
        users: [{ name: "aws", user: { exec: { apiVersion: "client.authentication.k8s.io/v1beta1", command: "aws", args: ["eks", "get-token", "--cluster-name", cluster] } } }],
    };
}

/** Outputs the provider would compute for a newly created resource (merged over its inputs). */
export function computedState(args: pulumi.runtime.MockResourceArgs): Record<string, unknown> {
    const inputs = args.inputs as Record<string, unknown>;
    switch (args.type) {
        case "aws:iam/role:Role":
            return { arn: `arn:aws:iam::${ACCOUNT}:role/${args.name}`, name: args.name };
        case "aws:ecr/repository:Repository":
            return {
                registryId: ACCOUNT,
                repositoryUrl: `${ACCOUNT}.dkr.ecr.${REGION}.amazonaws.com/${inputs.name}`,
                arn: `arn:aws:ecr:${REGION}:${ACCOUNT}:repository/${inputs.name}`,
            };
        case "eks:index:Cluster":
            return {
                kubeconfigJson: JSON.stringify(eksKubeconfig(inputs.name as string)),
                kubeconfig: eksKubeconfig(inputs.name as string),
                oidcProviderArn: `arn:aws:iam::${ACCOUNT}:oidc-provider/oidc.eks.${REGION}.amazonaws.com/id/EXAMPLE`,
                oidcProviderUrl: `oidc.eks.${REGION}.amazonaws.com/id/EXAMPLE`,
            };
        case "docker:index/image:Image":
            return { repoDigest: `${String(inputs.imageName).split(":")[0]}@sha256:${"ab".repeat(32)}`, registryServer: "registry" };
        case "tls:index/privateKey:PrivateKey":
            return { privateKeyPem: `-----BEGIN RSA PRIVATE KEY-----\nBENCH-${args.name}\n-----END RSA PRIVATE KEY-----\n`, publicKeyPem: `-----BEGIN PUBLIC KEY-----\nBENCH-${args.name}\n-----END PUBLIC KEY-----\n` };
        case "random:index/randomPassword:RandomPassword":
            return { result: `generated-${args.name}`, bcryptHash: "hash" };
        case "random:index/randomString:RandomString":
            return { result: "x7k2p9" };
        case "kubernetes:helm.sh/v3:Release":
            return { status: { name: inputs.name, namespace: inputs.namespace, chart: inputs.chart, version: inputs.version, status: "deployed", revision: 1 } };
        case "kubernetes:core/v1:Service": {
            const spec = (inputs.spec ?? {}) as Record<string, unknown>;
            if (spec.type !== "LoadBalancer") return {};
            const annotations = ((inputs.metadata as Record<string, unknown>)?.annotations ?? {}) as Record<string, string>;
            const aws = "service.beta.kubernetes.io/aws-load-balancer-type" in annotations;
            return { status: { loadBalancer: { ingress: [aws ? { hostname: "a1b2c3-123.elb.us-east-1.amazonaws.com" } : { ip: "203.0.113.10" }] } } };
        }
        case "digitalocean:index/kubernetesCluster:KubernetesCluster":
            return { urn: `do:kubernetes:${args.name}`, kubeConfigs: [{ rawConfig: "apiVersion: v1\nkind: Config\n", token: "do-cluster-token" }] };
        case "digitalocean:index/containerRegistry:ContainerRegistry":
            return { endpoint: `registry.digitalocean.com/${inputs.name}`, serverUrl: "registry.digitalocean.com" };
        case "digitalocean:index/containerRegistryDockerCredentials:ContainerRegistryDockerCredentials":
            return { dockerCredentials: JSON.stringify({ auths: { "registry.digitalocean.com": { auth: Buffer.from("pull-user:pull-password").toString("base64") } } }) };
        case "digitalocean:index/dnsRecord:DnsRecord":
            return { fqdn: `${inputs.name}.${inputs.domain}` };
        case "linode:index/lkeCluster:LkeCluster":
            return { kubeconfig: Buffer.from("apiVersion: v1\nkind: Config\n").toString("base64") };
        default:
            return {};
    }
}

/** Answers to the program's invokes (data-source lookups), by token. Unknown invokes fail the run. */
export function invokeAnswer(args: pulumi.runtime.MockCallArgs): Record<string, unknown> {
    const inputs = args.inputs as Record<string, unknown>;
    switch (args.token) {
        case "aws:index/getAvailabilityZones:getAvailabilityZones":
            return { id: REGION, names: ZONES, zoneIds: [] };
        case "aws:index/getPartition:getPartition":
            return { id: "aws", partition: "aws", dnsSuffix: "amazonaws.com" };
        case "aws:ecr/getAuthorizationToken:getAuthorizationToken":
            return {
                id: REGION,
                userName: "AWS",
                password: "ecr-push-token",
                proxyEndpoint: `https://${ACCOUNT}.dkr.ecr.${REGION}.amazonaws.com`,
                authorizationToken: "QVdTOmVjci1wdXNoLXRva2Vu",
                expiresAt: "2026-11-21T23:59:59Z",
            };
        case "digitalocean:index/getKubernetesVersions:getKubernetesVersions":
            return { id: "versions", latestVersion: inputs.versionPrefix ? `${inputs.versionPrefix}2-do.0` : "1.35.1-do.0", validVersions: ["1.35.1-do.0", "1.34.4-do.0"] };
        case "digitalocean:index/getDomain:getDomain":
            return { id: inputs.name, name: inputs.name, ttl: 1800, urn: `do:domain:${inputs.name}`, zoneFile: "" };
        case "digitalocean:index/getContainerRegistry:getContainerRegistry":
            return { id: inputs.name, name: inputs.name, endpoint: `registry.digitalocean.com/${inputs.name}`, serverUrl: "registry.digitalocean.com" };
        default:
            throw new Error(`bench mocks: no answer for invoke ${args.token}; add it to bench/lib/mockState.ts.`);
    }
}
