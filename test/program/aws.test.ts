/**
 * The whole program on the AWS path, run as `pulumi up` and as a first `pulumi preview` on an empty
 * stack, from a MARA-format stack file, a minimal one and one written with this program's own keys.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../config";
import { aws, fixture } from "../support/config";
import { find, ofType, promiseOf, Registration } from "../support/mocks";
import { ProgramRun, runProgram } from "../support/program";

const FIXTURES = ["mara-aws", "minimal-aws", "canonical-aws"] as const;

/** Packages whose resources must never use a default provider (Pulumi.yaml disables them). */
const EXPLICIT_ONLY = ["aws", "kubernetes", "linode", "digitalocean", "docker"];
const pkg = (type: string) => type.split(":")[0]!;
const plan = (regs: Registration[]) => regs.map((r) => `${r.type}::${r.name}`).sort();
const providerRefOf = (regs: Registration[], type: string) => {
    const providers = ofType(regs, type);
    expect(providers, type).toHaveLength(1);
    return `${providers[0]!.urn}::${providers[0]!.name}-id`;
};

describe.each(FIXTURES)("stack file %s", (name) => {
    let up: ProgramRun;
    let preview: ProgramRun;

    beforeAll(async () => {
        up = await runProgram(fixture(name));
        preview = await runProgram(fixture(name), { preview: true });
    }, 300_000);

    it("runs without error as pulumi up and as a first pulumi preview", () => {
        expect(up.error).toBeUndefined();
        expect(preview.error).toBeUndefined();
    });

    it("registers the same resources in preview, with every cloud value unknown, as in an update", () => {
        expect(plan(preview.registrations)).toEqual(plan(up.registrations));
        expect(up.registrations.length).toBeGreaterThan(30);
    });

    it("gives every resource an explicit provider: one AWS provider, one Kubernetes provider", () => {
        for (const run of [up, preview]) {
            const awsRef = providerRefOf(run.registrations, "pulumi:providers:aws");
            for (const r of run.registrations.filter((x) => x.custom && EXPLICIT_ONLY.includes(pkg(x.type)))) {
                expect(r.provider, `${r.type} ${r.name} uses a default provider`).not.toBe("");
                if (pkg(r.type) === "aws") expect(r.provider, r.name).toMatch(/pulumi:providers:aws::aws::/);
            }
            for (const r of run.registrations.filter((x) => pkg(x.type) === "eks")) expect(r.providers.aws, r.name).toMatch(/::pulumi:providers:aws::aws::/);
            if (run === up) for (const r of run.registrations.filter((x) => pkg(x.type) === "eks")) expect(r.providers.aws).toBe(awsRef);
            expect(ofType(run.registrations, "pulumi:providers:kubernetes")).toHaveLength(1);
        }
    });

    it("makes the Kubernetes provider wait for the node group and the storage driver", () => {
        const provider = find(up.registrations, "pulumi:providers:kubernetes", "kubeconfig-provider");
        expect(provider.dependencies).toContain(find(up.registrations, "eks:index:ManagedNodeGroup", "eks-nodes").urn);
        expect(provider.dependencies).toContain(find(up.registrations, "aws:eks/addon:Addon", "eks-ebs-csi").urn);
    });

    it("builds the cluster on the VPC's subnets", () => {
        const cluster = find(up.registrations, "eks:index:Cluster", "eks-cluster");
        const subnets = ofType(up.registrations, "aws:ec2/subnet:Subnet").map((s) => s.urn);
        expect(cluster.dependencies).toEqual(expect.arrayContaining(subnets));
    });

    it("exports the kubeconfig and the demo login as secrets, everything else as plain outputs", async () => {
        const outputs = up.outputs!;
        expect(Object.keys(outputs).sort()).toEqual(
            [
                ...["azs", "cluster_name", "infra_type", "kubeconfig", "oidc_provider_arn", "private_subnet_ids", "public_subnet_ids", "registry_id", "repository_url", "vpc_id"],
                ...["kic_image_origin", "kic_image_source", "kic_make_target", "kic_image", "kic_image_repository", "kic_image_tag", "kic_image_digest", "kic_image_ref"],
                ...["lb_ingress_hostname", "lb_ingress_ip", "ingress_class", "cluster_issuer", "elasticsearch_url", "kibana_url"],
                ...["prometheus_address", "grafana_address", "statsd_host", "otlp_grpc_endpoint"],
                ...["application_url", "demo_login", "accountsdbmon_status", "ledgerdbmon_status"],
                ...["ingress_controller_status", "nginx_plus", "cert_manager_status", "logstore_status", "log_agent_status"],
                ...["prometheus_status", "statsd_status", "observability_status"],
            ].sort(),
        );
        const secretOutputs = ["kubeconfig", "demo_login"];
        for (const key of secretOutputs) expect(await pulumi.isSecret(outputs[key] as pulumi.Output<string>), key).toBe(true);
        for (const [key, value] of Object.entries(outputs)) {
            if (secretOutputs.includes(key) || !pulumi.Output.isInstance(value)) continue;
            expect(await pulumi.isSecret(value), key).toBe(false);
        }
        expect(outputs.infra_type).toBe("aws");
        expect(await promiseOf(outputs.repository_url as pulumi.Output<string>)).toMatch(/^123456789012\.dkr\.ecr\.[a-z0-9-]+\.amazonaws\.com\/ingress-controller-dev$/);
    });

    it("exports what MARA's kic-image-build and kic-image-push projects exported, under this project's names", async () => {
        const o = up.outputs!;
        const repo = await promiseOf(o.repository_url as pulumi.Output<string>);
        const value = async (k: string) => (pulumi.Output.isInstance(o[k]) ? promiseOf(o[k] as pulumi.Output<unknown>) : o[k]);
        expect(await value("kic_image_origin")).toBe("registry");
        expect(await value("kic_image_source")).toMatch(/^nginx\/nginx-ingress:/);
        expect(await value("kic_make_target")).toBeUndefined();
        expect(await value("kic_image_repository")).toBe(repo);
        expect(await value("kic_image")).toBe(`${repo}:${String(await value("kic_image_tag"))}`);
        expect(await value("kic_image_digest")).toBe(`sha256:${"ab".repeat(32)}`);
        expect(await value("kic_image_ref")).toBe(`${repo}@sha256:${"ab".repeat(32)}`);
    });

    it("never exports the registry's push credentials", async () => {
        for (const value of Object.values(up.outputs!)) {
            const plain = pulumi.Output.isInstance(value) ? await promiseOf(value as pulumi.Output<unknown>) : value;
            expect(String(JSON.stringify(plain))).not.toContain("ecr-push-token");
        }
    });
});

describe("MARA-format stack file", () => {
    let run: ProgramRun;
    beforeAll(async () => {
        run = await runProgram(fixture("mara-aws"));
    }, 300_000);

    it("configures the AWS provider from aws:region and aws:profile, tagging everything", () => {
        expect(find(run.registrations, "pulumi:providers:aws", "aws").inputs).toMatchObject({
            region: "us-east-1",
            profile: "myProfile",
            defaultTags: JSON.stringify({ tags: { "mara:project": "mara", "mara:stack": "dev", "mara:cluster": "mara-dev" } }),
        });
    });

    it("honours MARA's EKS and VPC keys", () => {
        // MARA's own 1.21, which EKS no longer creates, is read as the default version (with a warning, below).
        expect(find(run.registrations, "eks:index:Cluster", "eks-cluster").inputs).toMatchObject({ name: "mara-dev", version: "1.35" });
        expect(find(run.registrations, "eks:index:ManagedNodeGroup", "eks-nodes").inputs).toMatchObject({
            instanceTypes: ["t2.large"],
            scalingConfig: { minSize: 3, maxSize: 12, desiredSize: 3 },
        });
        const zones = ofType(run.registrations, "aws:ec2/subnet:Subnet").map((s) => s.inputs!.availabilityZone);
        expect(zones.sort()).toEqual(["us-east-1a", "us-east-1a", "us-east-1b", "us-east-1b"]);
        expect(ofType(run.registrations, "aws:ec2/natGateway:NatGateway")).toHaveLength(2);
    });

    it("logs the warnings for its stale settings", () => {
        expect(run.warnings.some((w) => w.startsWith('Keys in the "eks" namespace belong to the eks provider'))).toBe(true);
        expect(run.warnings).toContain(
            "eks:k8s_version = 1.21 is MARA's 2022 pin of the EKS Kubernetes version, which cannot be deployed today; 1.35 is used instead (this platform's default). Delete the key to silence this warning: pulumi config rm eks:k8s_version",
        );
    });

    it("deploys MARA's 2022 chart and image pins as the versions the platform is tested with, saying so for each", () => {
        const releases = Object.fromEntries(
            ofType(run.registrations, "kubernetes:helm.sh/v3:Release").map((r) => [r.name, `${String(r.inputs!.chart)}@${String(r.inputs!.version)}`]),
        );
        expect(releases).toMatchObject({
            "platform-ingress-controller-release": "nginx-ingress@2.6.4",
            "platform-cert-manager-release": "cert-manager@v1.21.1",
            "platform-prometheus-release": "kube-prometheus-stack@88.5.3",
            "platform-prometheus-statsd": "prometheus-statsd-exporter@1.0.0",
            "bank-of-sirius-accountsdbmon": "prometheus-postgres-exporter@8.2.0",
        });
        // The controller image is copied from MARA's repository at the release the chart runs, not 2.4.2.
        const inputs = JSON.stringify(run.registrations.map((r) => r.inputs));
        expect(inputs).toContain("nginx/nginx-ingress:5.5.4");
        expect(inputs).not.toMatch(/nginx-ingress:2\.4\.2|0\.15\.2|v1\.10\.0|41\.5\.0/);
        for (const key of ["kic-helm:chart_version", "kic:image_name", "certmgr:chart_version", "prometheus:chart_version", "prometheus:statsd_chart_version", "sirius:chart_version"]) {
            expect(run.warnings.filter((w) => w.startsWith(`${key} = `) && w.endsWith(`pulumi config rm ${key}`)), key).toHaveLength(1);
        }
        // Keys of the DigitalOcean section are unused on AWS: named once among the keys AWS does not read, never as a pin.
        expect(run.warnings.filter((w) => w.startsWith("docean:k8s_version = "))).toEqual([]);
    });
});

describe("minimal stack file", () => {
    it("uses current defaults: three zones from the region, one NAT gateway each, EKS 1.35 on t3.large", async () => {
        const run = await runProgram(fixture("minimal-aws"));
        expect(run.warnings).toEqual([]);
        expect(ofType(run.registrations, "aws:ec2/subnet:Subnet").map((s) => s.inputs!.availabilityZone).sort()).toEqual(
            ["us-east-1a", "us-east-1a", "us-east-1b", "us-east-1b", "us-east-1c", "us-east-1c"],
        );
        expect(ofType(run.registrations, "aws:ec2/natGateway:NatGateway")).toHaveLength(3);
        expect(find(run.registrations, "eks:index:Cluster", "eks-cluster").inputs).toMatchObject({ version: "1.35" });
        expect(find(run.registrations, "eks:index:ManagedNodeGroup", "eks-nodes").inputs).toMatchObject({
            instanceTypes: ["t3.large"],
            scalingConfig: { minSize: 3, maxSize: 12, desiredSize: 3 },
        });
        expect(find(run.registrations, "pulumi:providers:aws", "aws").inputs!.profile).toBeUndefined();
    }, 120_000);
});

describe("native stack file", () => {
    it("applies mara: keys: a single NAT gateway, the chosen region, sizes and cluster name", async () => {
        const run = await runProgram(fixture("canonical-aws", { secrets: { "mara:grafanaAdminPassword": "grafana-password", "mara:siriusAccountsPassword": "a" } }));
        expect(ofType(run.registrations, "aws:ec2/natGateway:NatGateway")).toHaveLength(1);
        expect(find(run.registrations, "pulumi:providers:aws", "aws").inputs!.region).toBe("eu-west-1");
        expect(find(run.registrations, "eks:index:Cluster", "eks-cluster").inputs).toMatchObject({ name: "platform-eu" });
        expect(find(run.registrations, "eks:index:ManagedNodeGroup", "eks-nodes").inputs).toMatchObject({
            instanceTypes: ["m6i.large"],
            scalingConfig: { minSize: 2, maxSize: 6, desiredSize: 3 },
        });
        const subnet = find(run.registrations, "aws:ec2/subnet:Subnet", "vpc-public-0");
        expect((subnet.inputs!.tags as Record<string, string>)["kubernetes.io/cluster/platform-eu"]).toBe("shared");
    }, 120_000);
});

describe("bad input stops the program before anything is registered", () => {
    it.each([
        [{ "kubernetes:infra_type": "gcp" }, "kubernetes:infra_type"],
        [{ "eks:min_size": "5", "eks:max_size": "2" }, "eks:min_size"],
        [{ "eks:min_size": "three" }, "eks:min_size"],
        [{ "eks:desired_capacity": "20" }, "eks:desired_capacity"],
        [{ "kic-helm:helm_timeout": "300s" }, "kic-helm:helm_timeout"],
        [{ "vpc:azs": '["us-west-1a","us-west-1b"]' }, "vpc:azs"],
        [{ "logstore:master_replicas": "-3" }, "logstore:master_replicas"],
        [{ "prometheus:helm_repo_url": "https://https://prometheus-community.github.io/helm-charts" }, "prometheus:helm_repo_url"],
        [{ "kic:image_name": "NGINX/ingress:latest" }, "kic:image_name"],
        [{ "kic:image_origin": "ftp" }, "kic:image_origin"],
    ])("%j", async (values, key) => {
        for (const preview of [false, true]) {
            const run = await runProgram(aws(values), { preview });
            expect(run.error).toBeInstanceOf(ConfigError);
            const message = (run.error as Error).message;
            expect(message).toMatch(/^MARA configuration is invalid \(\d problems?\); nothing was created\./);
            expect(message).toContain(`${key} `);
            expect(message).toContain("Allowed: ");
            expect(message).toContain("Fix: ");
            expect(run.registrations).toEqual([]);
        }
    });

    it("a ConfigError hides the stack trace from the Pulumi CLI", async () => {
        const run = await runProgram(aws({ "eks:min_size": "x" }));
        expect(pulumi.RunError.isInstance(run.error)).toBe(true);
    });

});
