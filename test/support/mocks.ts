/**
 * Pulumi mocks that record every registration with what the SDK's MockMonitor leaves out: parent,
 * provider, providers map, dependencies and the state returned. Invokes are answered from a table and
 * any unknown invoke fails the test, so a new cloud lookup cannot slip in unnoticed.
 *
 * In preview mode the mocks behave like a first `pulumi preview` on an empty stack: custom resources get
 * no ID and none of their computed outputs, so everything derived from them (kubeconfig, repository URL,
 * subnet IDs) is unknown.
 */
import * as pulumi from "@pulumi/pulumi";
import { answerCalls, waitForRegistrations } from "../../cli/mockRuntime";

/** One registered resource, as the engine would see it. */
export interface Registration {
    type: string;
    name: string;
    urn?: string;
    parent: string;
    custom: boolean;
    /** Provider reference `<urn>::<id>`; "" means a default provider. */
    provider: string;
    /** Provider references by package, as sent for components (remote components use these). */
    providers: Record<string, string>;
    /** Explicit and implicit dependencies (URNs). */
    dependencies: string[];
    propertyDependencies: Record<string, string[]>;
    /** Inputs as the mock received them (secrets still wrapped; see {@link unwrapSecrets}). */
    inputs?: Record<string, unknown>;
    /** True for `Resource.get` reads of existing resources. */
    read?: boolean;
}

/** Options of {@link installMocks}. */
export interface MockOptions {
    /** Run as `pulumi preview` (dry run) with unknown computed outputs. Default false. */
    preview?: boolean;
    /** Config values `ns:key` → string, replacing any earlier config. */
    config?: Record<string, string>;
    /** Keys of `config` that were stored encrypted. */
    secretKeys?: string[];
    project?: string;
    stack?: string;
}

const ACCOUNT = "123456789012";
const ZONES: Record<string, string[]> = {
    "us-east-1": ["us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d", "us-east-1f"],
    "eu-west-1": ["eu-west-1a", "eu-west-1b", "eu-west-1c"],
    "us-west-2": ["us-west-2a", "us-west-2b", "us-west-2c", "us-west-2d"],
};

/** Region of the explicit AWS provider a registration or invoke used, read from the provider's inputs. */
function regionOf(providerRef: string | undefined, regs: Registration[]): string {
    const urn = providerRef?.split("::").slice(0, -1).join("::");
    const provider = regs.find((r) => r.urn === urn);
    return (provider?.inputs?.region as string | undefined) ?? "us-east-1";
}

/** Computed outputs per resource type, as a real `pulumi up` would return them. */
function computedState(args: pulumi.runtime.MockResourceArgs, regs: Registration[]): Record<string, unknown> {
    const region = regionOf(args.provider, regs);
    switch (args.type) {
        case "aws:iam/role:Role":
            return { arn: `arn:aws:iam::${ACCOUNT}:role/${args.name}`, name: args.name };
        case "aws:ecr/repository:Repository":
            return {
                registryId: ACCOUNT,
                repositoryUrl: `${ACCOUNT}.dkr.ecr.${region}.amazonaws.com/${args.inputs.name}`,
                arn: `arn:aws:ecr:${region}:${ACCOUNT}:repository/${args.inputs.name}`,
            };
        case "eks:index:Cluster":
            return {
                kubeconfigJson: JSON.stringify(sampleKubeconfig(args.inputs.name as string)),
                kubeconfig: sampleKubeconfig(args.inputs.name as string),
                oidcProviderArn: `arn:aws:iam::${ACCOUNT}:oidc-provider/oidc.eks.${region}.amazonaws.com/id/EXAMPLE`,
                oidcProviderUrl: `oidc.eks.${region}.amazonaws.com/id/EXAMPLE`,
            };
        case "docker:index/image:Image":
            return { repoDigest: `${String(args.inputs.imageName).split(":")[0]}@sha256:${"ab".repeat(32)}`, registryServer: "registry" };
        case "tls:index/privateKey:PrivateKey":
            return {
                privateKeyPem: `-----BEGIN RSA PRIVATE KEY-----\nMOCK-PRIVATE-${args.name}\n-----END RSA PRIVATE KEY-----\n`,
                publicKeyPem: `-----BEGIN PUBLIC KEY-----\nMOCK-PUBLIC-${args.name}\n-----END PUBLIC KEY-----\n`,
            };
        case "random:index/randomPassword:RandomPassword":
            return { result: `generated-${args.name}`, bcryptHash: "hash" };
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

/** Answers to invokes, by token. */
function answer(args: pulumi.runtime.MockCallArgs, regs: Registration[]): Record<string, unknown> {
    const region = regionOf(args.provider, regs);
    switch (args.token) {
        case "aws:index/getAvailabilityZones:getAvailabilityZones":
            return { id: region, names: ZONES[region] ?? [`${region}a`, `${region}b`, `${region}c`], zoneIds: [] };
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
            throw new Error(`Mock not implemented for invoke ${args.token}; add it to test/support/mocks.ts.`);
    }
}

/** Installs recording mocks; call before the program or component under test is constructed. */
export async function installMocks(o: MockOptions = {}) {
    const registrations: Registration[] = [];
    const calls: pulumi.runtime.MockCallArgs[] = [];
    const preview = o.preview ?? false;
    const mocks: pulumi.runtime.Mocks = {
        newResource(args) {
            const state = preview ? { ...args.inputs } : { ...args.inputs, ...computedState(args, registrations) };
            const reg = registrations.find((r) => r.type === args.type && r.name === args.name && r.inputs === undefined);
            if (reg) reg.inputs = args.inputs;
            // A first preview knows no IDs; an empty ID is what the engine sends for "unknown".
            const id = args.custom && !preview ? `${args.name}-id` : undefined;
            return { id: id as string, state };
        },
        call(args) {
            calls.push(args);
            return answer(args, registrations);
        },
    };
    pulumi.runtime.setAllConfig(o.config ?? {}, o.secretKeys);
    await pulumi.runtime.setMocks(mocks, o.project ?? "mara", o.stack ?? "dev", preview);

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const monitor: any = pulumi.runtime.getMonitor();
    const register = monitor.registerResource.bind(monitor);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    monitor.registerResource = (req: any, cb: any) => {
        const propertyDependencies: Record<string, string[]> = {};
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        req.getPropertydependenciesMap().forEach((v: any, k: string) => (propertyDependencies[k] = v.getUrnsList()));
        const providers: Record<string, string> = {};
        req.getProvidersMap().forEach((v: string, k: string) => (providers[k] = v));
        const reg: Registration = {
            type: req.getType(),
            name: req.getName(),
            parent: req.getParent(),
            custom: req.getCustom(),
            provider: req.getProvider(),
            providers,
            dependencies: req.getDependenciesList(),
            propertyDependencies,
        };
        registrations.push(reg);
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        return register(req, (err: any, resp: any) => {
            if (resp) reg.urn = resp.getUrn();
            cb(err, resp);
        });
    };
    const read = monitor.readResource.bind(monitor);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    monitor.readResource = (req: any, cb: any) => {
        const reg: Registration = {
            type: req.getType(),
            name: req.getName(),
            parent: req.getParent(),
            custom: true,
            provider: req.getProvider(),
            providers: {},
            dependencies: req.getDependenciesList(),
            propertyDependencies: {},
            read: true,
        };
        registrations.push(reg);
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        return read(req, (err: any, resp: any) => {
            if (resp) reg.urn = resp.getUrn();
            cb(err, resp);
        });
    };
    answerCalls(monitor, mocks);
    return { registrations, calls };
}

/** Waits until every registration and invoke the program started has been answered. */
export async function settle(): Promise<void> {
    await waitForRegistrations();
}

/** Resolves an Output's value; only for known values (it never resolves for unknown ones in preview). */
export function promiseOf<T>(output: pulumi.Output<T>): Promise<T> {
    return new Promise((resolve) => output.apply((v) => resolve(v)));
}

/** Whether an Output is marked secret. */
export function isSecret(output: pulumi.Output<unknown>): Promise<boolean> {
    return pulumi.isSecret(output);
}

/** Replaces the SDK's secret sentinels in mock inputs by their plain values. */
export function unwrapSecrets(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(unwrapSecrets);
    if (value && typeof value === "object") {
        const v = value as Record<string, unknown>;
        if (v[pulumi.runtime.specialSigKey] === pulumi.runtime.specialSecretSig) return unwrapSecrets(v.value);
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrapSecrets(x)]));
    }
    return value;
}

/** Whether a mock input value is a wrapped secret. */
export function isWrappedSecret(value: unknown): boolean {
    return !!value && typeof value === "object" && (value as Record<string, unknown>)[pulumi.runtime.specialSigKey] === pulumi.runtime.specialSecretSig;
}

/** Every string in a mock input value that is not inside a secret wrapper: what would be stored in plain text. */
export function plainStrings(value: unknown, out: string[] = []): string[] {
    if (isWrappedSecret(value)) return out;
    if (typeof value === "string") out.push(value);
    else if (Array.isArray(value)) value.forEach((v) => plainStrings(v, out));
    else if (value && typeof value === "object") Object.values(value).forEach((v) => plainStrings(v, out));
    return out;
}

/** The registrations of one type. */
export const ofType = (regs: Registration[], type: string) => regs.filter((r) => r.type === type);

/** The single registration with this type and name; throws when missing. */
export function find(regs: Registration[], type: string, name: string): Registration {
    const r = regs.find((x) => x.type === type && x.name === name);
    if (!r) throw new Error(`no ${type} named ${name}; registered: ${regs.map((x) => `${x.type}::${x.name}`).join(", ")}`);
    return r;
}
