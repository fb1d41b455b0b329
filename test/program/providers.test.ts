/**
 * The whole program on DigitalOcean, Linode and an existing cluster, from MARA-format stack files, as
 * `pulumi up` and as a first `pulumi preview`: the same platform and app on every infra type, no default
 * provider anywhere, credentials secret, and each provider's bad inputs stopped before anything exists.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../config";
import { DNS_PUBLISHING_INFRA_TYPES, InfraType } from "../../contracts";
import { fixture, rawConfig } from "../support/config";
import { validateKubernetesObjects } from "../support/k8s";
import { find, isWrappedSecret, ofType, promiseOf, Registration, unwrapSecrets, plainStrings } from "../support/mocks";
import { ProgramRun, runProgram } from "../support/program";

const SECRETS = {
    "digitalocean:token": "do-api-token-from-config",
    "linode:token": "linode-api-token-from-config",
    "sirius:accounts_pwd": "accounts-password-from-config",
    "linode:harbor_password": "harbor-password-from-config",
};
const EXPLICIT_ONLY = ["aws", "kubernetes", "linode", "digitalocean", "docker"];
const pkg = (type: string) => type.split(":")[0]!;
const plan = (regs: Registration[]) => regs.map((r) => `${r.type}::${r.name}`).sort();
describe.each([
    ["mara-do", "digitalocean"],
    ["mara-lke", "linode"],
    ["mara-kubeconfig", "kubeconfig"],
])("stack file %s", (name, infraType) => {
    let up: ProgramRun;
    let preview: ProgramRun;

    beforeAll(async () => {
        up = await runProgram(fixture(name, { secrets: SECRETS }));
        preview = await runProgram(fixture(name, { secrets: SECRETS }), { preview: true });
    }, 300_000);

    it("runs as pulumi up and as a first pulumi preview, registering the same resources", () => {
        expect(up.error).toBeUndefined();
        expect(preview.error).toBeUndefined();
        expect(plan(preview.registrations)).toEqual(plan(up.registrations));
    });

    it("runs the same platform and application as on AWS", () => {
        for (const type of ["mara:platform:Platform", "mara:addons:IngressController", "mara:addons:CertManager", "mara:observability:Logstore", "mara:observability:LogAgent", "mara:observability:Prometheus", "mara:observability:Observability", "mara:app:Application"]) {
            expect(ofType(up.registrations, type), type).toHaveLength(1);
        }
        expect(up.outputs!.infra_type).toBe(infraType);
    });

    it("gives every resource an explicit provider and every Kubernetes object the cluster's", () => {
        for (const run of [up, preview]) {
            for (const r of run.registrations.filter((x) => x.custom && EXPLICIT_ONLY.includes(pkg(x.type)))) {
                expect(r.provider, `${r.type} ${r.name}`).not.toBe("");
            }
            const k8sProviders = ofType(run.registrations, "pulumi:providers:kubernetes");
            expect(k8sProviders).toHaveLength(1);
            for (const r of run.registrations.filter((x) => x.type.startsWith("kubernetes:"))) {
                expect(r.provider, r.name).toMatch(/pulumi:providers:kubernetes::kubeconfig-provider::/);
            }
        }
    });

    it("keeps the kubeconfig, tokens and passwords secret", async () => {
        expect(await pulumi.isSecret(up.outputs!.kubeconfig as pulumi.Output<string>)).toBe(true);
        const credentials = [...Object.values(SECRETS), "do-cluster-token", "lke-cluster-token", "fixture-kubeconfig-token", "do-pull-password"];
        for (const r of up.registrations.filter((x) => x.inputs)) {
            for (const s of plainStrings(r.inputs)) for (const c of credentials) expect(s, `${r.type} ${r.name}`).not.toContain(c);
        }
        for (const value of Object.values(up.outputs!)) {
            if (!pulumi.Output.isInstance(value) || (await pulumi.isSecret(value))) continue;
            const plain = String(JSON.stringify(await promiseOf(value as pulumi.Output<unknown>)));
            for (const c of credentials) expect(plain).not.toContain(c);
        }
    }, 120_000);

    it("creates a DNS record exactly where validation counts on one (DNS_PUBLISHING_INFRA_TYPES)", () => {
        // Validation warns about an ACME name the stack does not publish on the strength of this list.
        const records = ofType(up.registrations, "digitalocean:index/dnsRecord:DnsRecord");
        expect(records).toHaveLength(DNS_PUBLISHING_INFRA_TYPES.includes(infraType as InfraType) ? 1 : 0);
    });

    it("passes Kubernetes schema validation", () => {
        expect(validateKubernetesObjects(up.registrations).errors).toEqual([]);
    });
});

describe("DigitalOcean", () => {
    let run: ProgramRun;
    const regs = () => run.registrations;
    beforeAll(async () => {
        run = await runProgram(fixture("mara-do", { secrets: SECRETS }));
    }, 300_000);

    it("creates a DOKS cluster from MARA's docean keys, tagged with the cluster", () => {
        expect(find(regs(), "digitalocean:index/kubernetesCluster:KubernetesCluster", "doks-cluster").inputs).toMatchObject({
            name: "mara-dev",
            region: "sfo3",
            version: "1.35.1-do.0",
            tags: ["mara-cluster-mara-dev"],
            nodePool: { name: "mara-dev-pool", size: "s-4vcpu-8gb", nodeCount: 3 },
        });
        expect(isWrappedSecret(find(regs(), "pulumi:providers:digitalocean", "digitalocean").inputs!.token)).toBe(true);
    });

    it("creates a registry, pushes the image there and gives the ingress namespace a read-only pull secret", () => {
        expect(find(regs(), "digitalocean:index/containerRegistry:ContainerRegistry", "docr-registry").inputs).toMatchObject({ name: "mara-dev-x7k2p9", subscriptionTierSlug: "starter", region: "sfo3" });
        expect(find(regs(), "digitalocean:index/containerRegistryDockerCredentials:ContainerRegistryDockerCredentials", "docr-pull").inputs).toMatchObject({ write: false });
        expect(find(regs(), "docker:index/registryImage:RegistryImage", "platform-kic-image-push").inputs!.name).toBe("registry.digitalocean.com/mara-dev-x7k2p9/nginx-ingress:5.5.4");
        // DigitalOcean's registry takes the API token as user name and password, from the Docker provider (whose
        // object-valued settings the SDK sends as JSON text).
        const auth = find(regs(), "pulumi:providers:docker", "docker").inputs!.registryAuth;
        expect(isWrappedSecret(auth)).toBe(true);
        expect(JSON.parse(unwrapSecrets(auth) as string)).toEqual([
            { address: "registry.digitalocean.com", username: "do-api-token-from-config", password: "do-api-token-from-config" },
        ]);
        const pull = find(regs(), "kubernetes:core/v1:Secret", "platform-ingress-controller-pull-secret");
        const doc = JSON.parse((unwrapSecrets(pull.inputs!.stringData) as Record<string, string>)[".dockerconfigjson"]!);
        expect(Object.keys(doc.auths)).toEqual(["registry.digitalocean.com"]);
        expect(doc.auths["registry.digitalocean.com"].username).toBe("do-pull-user");
    });

    it("points the configured host name at the load balancer's IP in the existing domain", async () => {
        expect(find(regs(), "digitalocean:index/dnsRecord:DnsRecord", "dns-a").inputs).toEqual({ domain: "example.com", type: "A", name: "mara", value: "203.0.113.10", ttl: 1800 });
        expect(await promiseOf(run.outputs!.application_url as pulumi.Output<string>)).toBe("https://mara.example.com");
    });

    it("adopts the account's registry when asked, without managing it", async () => {
        const raw = fixture("mara-do", { secrets: SECRETS });
        const withAdopt = { ...raw, values: { ...raw.values, "mara:doRegistryAdopt": "true", "mara:doRegistryName": "company-registry" } };
        const run2 = await runProgram(withAdopt);
        expect(run2.error).toBeUndefined();
        expect(ofType(run2.registrations, "digitalocean:index/containerRegistry:ContainerRegistry")).toEqual([]);
        expect(find(run2.registrations, "docker:index/registryImage:RegistryImage", "platform-kic-image-push").inputs!.name).toBe("registry.digitalocean.com/company-registry/nginx-ingress:5.5.4");
    }, 120_000);
});

describe("Linode", () => {
    let run: ProgramRun;
    beforeAll(async () => {
        run = await runProgram(fixture("mara-lke", { secrets: SECRETS }));
    }, 300_000);

    it("creates an LKE cluster from MARA's linode keys through an explicit provider with the token", () => {
        expect(find(run.registrations, "linode:index/lkeCluster:LkeCluster", "lke-cluster").inputs).toMatchObject({
            label: "mara-dev",
            region: "us-central",
            k8sVersion: "1.35",
            controlPlane: { highAvailability: true },
            pools: [{ type: "g6-standard-8", count: 3 }],
        });
        expect(unwrapSecrets(find(run.registrations, "pulumi:providers:linode", "linode").inputs!.token)).toBe("linode-api-token-from-config");
    });

    it("decodes the kubeconfig Linode returns before handing it to the Kubernetes provider", () => {
        const kubeconfig = unwrapSecrets(find(run.registrations, "pulumi:providers:kubernetes", "kubeconfig-provider").inputs!.kubeconfig) as string;
        expect(kubeconfig.startsWith("apiVersion: v1")).toBe(true);
    });

    it("pulls the image from its source without a registry, and says MARA's Harbor keys are unused", () => {
        expect(ofType(run.registrations, "mara:registry:IngressControllerImage")).toEqual([]);
        expect(ofType(run.registrations, "pulumi:providers:docker")).toEqual([]);
        const values = find(run.registrations, "kubernetes:helm.sh/v3:Release", "platform-ingress-controller-release").inputs!.values as { controller: { image: unknown } };
        expect(values.controller.image).toEqual({ repository: "nginx/nginx-ingress", tag: "5.5.4", pullPolicy: "IfNotPresent" });
        expect(run.warnings.some((w) => w.startsWith("linode:soa_email, linode:harbor_password are not used: MARA's Harbor VM is replaced"))).toBe(true);
    });

    it("tags the NodeBalancer and the volumes with the cluster, on a class that deletes them with their claims", () => {
        const service = find(run.registrations, "kubernetes:core/v1:Service", "platform-ingress-controller-service");
        expect((service.inputs!.metadata as { annotations: Record<string, string> }).annotations["service.beta.kubernetes.io/linode-loadbalancer-tags"]).toBe("mara-cluster-mara-dev");
        expect(find(run.registrations, "kubernetes:storage.k8s.io/v1:StorageClass", "platform-storage-class").inputs).toMatchObject({
            metadata: { name: "mara-volumes" },
            provisioner: "linodebs.csi.linode.com",
            parameters: { "linodebs.csi.linode.com/volumeTags": "mara-cluster-mara-dev" },
            reclaimPolicy: "Delete",
        });
        const values = find(run.registrations, "kubernetes:helm.sh/v3:Release", "platform-prometheus-release").inputs!.values as { grafana: { persistence: { storageClassName: string } } };
        expect(values.grafana.persistence.storageClassName).toBe("mara-volumes");
    });

    it("pushes to your own registry when one is configured", async () => {
        const raw = fixture("mara-lke", { secrets: { ...SECRETS, "mara:registryPassword": "registry-token" } });
        const values = { ...raw.values, "mara:registryServer": "ghcr.io", "mara:registryRepository": "acme/nginx-ingress", "mara:registryUsername": "acme-bot", "mara:registryPassword": "registry-token" };
        const r = await runProgram({ ...raw, values, secretKeys: new Set([...raw.secretKeys, "mara:registryPassword"]) });
        expect(find(r.registrations, "docker:index/registryImage:RegistryImage", "platform-kic-image-push").inputs!.name).toBe("ghcr.io/acme/nginx-ingress:5.5.4");
        expect(JSON.parse(unwrapSecrets(find(r.registrations, "pulumi:providers:docker", "docker").inputs!.registryAuth) as string)).toEqual([
            { address: "ghcr.io", username: "acme-bot", password: "registry-token" },
        ]);
        expect(ofType(r.registrations, "kubernetes:core/v1:Secret").map((s) => s.name)).toContain("platform-ingress-controller-pull-secret");
    }, 120_000);
});

describe("existing cluster", () => {
    let run: ProgramRun;
    beforeAll(async () => {
        run = await runProgram(fixture("mara-kubeconfig", { secrets: SECRETS }));
    }, 300_000);

    it("creates no cloud resource and reads the kubeconfig file into the provider, with its context", () => {
        expect(run.registrations.filter((r) => ["aws", "digitalocean", "linode", "docker"].includes(pkg(r.type)))).toEqual([]);
        const provider = find(run.registrations, "pulumi:providers:kubernetes", "kubeconfig-provider");
        expect(unwrapSecrets(provider.inputs!.kubeconfig)).toContain("token: fixture-kubeconfig-token");
        expect(provider.inputs!.context).toBe("lab-admin");
    });

    it("pulls MARA's configured image directly and serves the app on kic-helm:fqdn", async () => {
        const values = find(run.registrations, "kubernetes:helm.sh/v3:Release", "platform-ingress-controller-release").inputs!.values as { controller: { image: unknown } };
        expect(values.controller.image).toEqual({ repository: "nginx/nginx-ingress", tag: "5.5.4", pullPolicy: "IfNotPresent" });
        expect(await promiseOf(run.outputs!.lb_ingress_hostname as pulumi.Output<string>)).toBe("mara.lab.example.org");
        expect(await promiseOf(run.outputs!.application_url as pulumi.Output<string>)).toBe("https://mara.lab.example.org");
    });

    it("offers NodePort for clusters without a load balancer implementation", async () => {
        const raw = fixture("mara-kubeconfig");
        const r = await runProgram({ ...raw, values: { ...raw.values, "mara:ingressServiceType": "NodePort" } });
        const spec = find(r.registrations, "kubernetes:core/v1:Service", "platform-ingress-controller-service").inputs!.spec as { type: string; ports: { nodePort: number }[] };
        expect(spec.type).toBe("NodePort");
        expect(spec.ports.map((p) => p.nodePort)).toEqual([30080, 30443]);
    }, 120_000);
});

describe("bad input on the other infra types stops the program before anything is registered", () => {
    it.each([
        ["missing Linode region", { "kubernetes:infra_type": "LKE", "linode:k8s_version": "1.35", "kic-helm:fqdn": "mara.example.net" }, "linode:region: is not set"],
        ["zero Linode nodes", { "kubernetes:infra_type": "LKE", "linode:region": "us-central", "linode:k8s_version": "1.35", "linode:node_count": "0", "kic-helm:fqdn": "mara.example.net" }, 'linode:node_count = "0": is below the minimum of 1'],
        ["zero DigitalOcean nodes", { "kubernetes:infra_type": "DO", "docean:node_count": "0", "kic-helm:fqdn": "mara.example.com" }, 'docean:node_count = "0": is below the minimum of 1'],
        ["invalid FQDN", { "kubernetes:infra_type": "DO", "kic-helm:fqdn": "mara_example" }, 'kic-helm:fqdn = "mara_example": is not a valid domain name'],
        ["FQDN without a host in a domain", { "kubernetes:infra_type": "DO", "kic-helm:fqdn": "example.com" }, 'kic-helm:fqdn = "example.com": has no host part'],
        ["missing FQDN", { "kubernetes:infra_type": "kubeconfig", "kubernetes:kubeconfig": "./test/fixtures/kubeconfig.yaml" }, "kic-helm:fqdn: is not set"],
        ["missing kubeconfig path", { "kubernetes:infra_type": "kubeconfig", "kubernetes:kubeconfig": "/nowhere/kubeconfig", "kic-helm:fqdn": "mara.example.org" }, 'kubernetes:kubeconfig = "/nowhere/kubeconfig": names a file that does not exist'],
        ["no kubeconfig at all", { "kubernetes:infra_type": "kubeconfig", "kic-helm:fqdn": "mara.example.org" }, "kubernetes:kubeconfig: is not set"],
        ["LKE label too long", { "kubernetes:infra_type": "LKE", "linode:region": "us-central", "linode:k8s_version": "1.35", "kic-helm:fqdn": "mara.example.net", "kubernetes:cluster_name": "a-very-long-cluster-name-for-linode-lke" }, "kubernetes:cluster_name"],
        ["half a registry", { "kubernetes:infra_type": "LKE", "linode:region": "us-central", "linode:k8s_version": "1.35", "kic-helm:fqdn": "mara.example.net", "mara:registryServer": "ghcr.io" }, "mara:registryRepository: is not set, but mara:registryServer is"],
    ])("%s", async (_, values, message) => {
        const run = await runProgram(rawConfig(values));
        expect(run.error).toBeInstanceOf(ConfigError);
        expect((run.error as Error).message).toContain(message);
        expect(run.registrations).toEqual([]);
    });
});
