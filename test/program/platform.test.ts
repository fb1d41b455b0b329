/**
 * The platform add-ons as the whole AWS program registers them: all eight components, on the cluster's
 * provider, in the order their dependencies require, valid against the Kubernetes schemas, with no secret
 * in plain text anywhere but inside Pulumi's secret wrappers.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { fixture, stackFile } from "../support/config";
import { validateKubernetesObjects } from "../support/k8s";
import { find, isWrappedSecret, ofType, promiseOf, Registration, plainStrings } from "../support/mocks";
import { ProgramRun, runProgram } from "../support/program";

const COMPONENTS = [
    "mara:platform:Secrets",
    "mara:registry:IngressControllerImage",
    "mara:addons:IngressController",
    "mara:addons:CertManager",
    "mara:observability:Logstore",
    "mara:observability:LogAgent",
    "mara:observability:Prometheus",
    "mara:observability:Observability",
];
const SECRETS = { "mara:grafanaAdminPassword": "grafana-secret-from-config", "mara:siriusAccountsPassword": "accounts-secret-from-config" };

const dependsOnType = (regs: Registration[], r: Registration, type: string) =>
    ofType(regs, type).every((d) => r.dependencies.includes(d.urn!)) && ofType(regs, type).length > 0;

describe("platform on AWS", () => {
    let run: ProgramRun;
    let regs: Registration[];
    const release = (name: string) => find(regs, "kubernetes:helm.sh/v3:Release", name);

    beforeAll(async () => {
        run = await runProgram(fixture("canonical-aws", { secrets: SECRETS }));
        regs = run.registrations;
        expect(run.error).toBeUndefined();
    }, 300_000);

    it("registers all eight add-on components under the Platform component", () => {
        const platform = find(regs, "mara:platform:Platform", "platform");
        for (const type of COMPONENTS) {
            const found = ofType(regs, type);
            expect(found, type).toHaveLength(1);
            expect(found[0]!.parent, type).toBe(platform.urn);
        }
    });

    it("installs each add-on as a Helm release from the catalogue, nothing rendered on the provider side", () => {
        expect(ofType(regs, "kubernetes:helm.sh/v3:Release").map((r) => `${String(r.inputs!.name)}:${String(r.inputs!.chart)}@${String(r.inputs!.version)}`).sort()).toEqual([
            "accountsdbmon:prometheus-postgres-exporter@8.2.0",
            "certmgr:cert-manager@v1.21.1",
            "eck-operator:eck-operator@3.5.0",
            "fluent-bit:fluent-bit@0.58.1",
            "kic:nginx-ingress@2.6.4",
            "ledgerdbmon:prometheus-postgres-exporter@8.2.0",
            "opentelemetry-operator:opentelemetry-operator@0.122.0",
            "prometheus:kube-prometheus-stack@88.5.3",
            "statsd:prometheus-statsd-exporter@1.0.0",
        ]);
        const rendered = regs.filter((r) => /helm\.sh\/v4|yaml\/v2|kubernetes:yaml|kustomize/.test(r.type));
        expect(rendered).toEqual([]);
    });

    it("puts every Kubernetes object on the cluster's provider", () => {
        const provider = find(regs, "pulumi:providers:kubernetes", "kubeconfig-provider");
        const ref = `${provider.urn}::${provider.name}-id`;
        const objects = regs.filter((r) => r.type.startsWith("kubernetes:"));
        expect(objects.length).toBeGreaterThan(20);
        for (const r of objects) expect(r.provider, `${r.type} ${r.name}`).toBe(ref);
    });

    it("orders custom resources after the releases that install their CRDs", () => {
        for (const name of ["platform-cert-manager-selfsigned"]) {
            expect(find(regs, "kubernetes:cert-manager.io/v1:ClusterIssuer", name).dependencies).toContain(release("platform-cert-manager-release").urn);
        }
        expect(find(regs, "kubernetes:elasticsearch.k8s.elastic.co/v1:Elasticsearch", "platform-logstore-elasticsearch").dependencies).toContain(release("platform-logstore-operator").urn);
        expect(find(regs, "kubernetes:kibana.k8s.elastic.co/v1:Kibana", "platform-logstore-kibana").dependencies).toContain(release("platform-logstore-operator").urn);
        expect(find(regs, "kubernetes:monitoring.coreos.com/v1:ServiceMonitor", "platform-prometheus-nginx-ingress").dependencies).toContain(release("platform-prometheus-release").urn);
        expect(release("platform-prometheus-statsd").dependencies).toContain(release("platform-prometheus-release").urn);
        expect(find(regs, "kubernetes:opentelemetry.io/v1beta1:OpenTelemetryCollector", "platform-observability-collector").dependencies).toContain(
            release("platform-observability-operator").urn,
        );
    });

    it("installs the OpenTelemetry operator only after cert-manager and its issuers", () => {
        const ns = find(regs, "kubernetes:core/v1:Namespace", "platform-observability-ns");
        expect(ns.dependencies).toContain(release("platform-cert-manager-release").urn);
        expect(dependsOnType(regs, ns, "kubernetes:cert-manager.io/v1:ClusterIssuer")).toBe(true);
    });

    it("starts the log agent once Elasticsearch exists, writing as its own limited user", () => {
        // The release waits for Elasticsearch (its host name comes from it), not for Kibana.
        const agent = release("platform-log-agent-release");
        expect(agent.dependencies).toContain(find(regs, "kubernetes:elasticsearch.k8s.elastic.co/v1:Elasticsearch", "platform-logstore-elasticsearch").urn);
        expect(agent.dependencies).not.toContain(find(regs, "kubernetes:kibana.k8s.elastic.co/v1:Kibana", "platform-logstore-kibana").urn);
        const values = agent.inputs!.values as Record<string, { inputs: string; outputs: string }>;
        expect(values.config.inputs).toMatch(/\n {4}Path +\/var\/log\/containers\/\*\.log\n/);
        expect(values.config.inputs).toMatch(/\n {4}multiline\.parser +cri\n/);
        expect(values.config.outputs).toMatch(/\n {4}Host +elastic-es-http\.logstore\.svc\.cluster\.local\n/);
        expect(values.config.outputs).toMatch(/\n {4}HTTP_User +\$\{ES_USER\}\n {4}HTTP_Passwd +\$\{ES_PASSWORD\}\n/);
    });

    it("deploys the image IngressControllerImage pushed to ECR, through an NLB", async () => {
        const values = release("platform-ingress-controller-release").inputs!.values as { controller: { image: unknown } };
        // By the digest the registry recorded for the push: a tag moved later does not change the running controller.
        expect(values.controller.image).toEqual({
            repository: "123456789012.dkr.ecr.eu-west-1.amazonaws.com/ingress-controller-dev",
            digest: `sha256:${"ab".repeat(32)}`,
            pullPolicy: "IfNotPresent",
        });
        const push = find(regs, "docker:index/registryImage:RegistryImage", "platform-kic-image-push");
        expect(push.inputs).toMatchObject({ name: "123456789012.dkr.ecr.eu-west-1.amazonaws.com/ingress-controller-dev:5.5.4", keepRemotely: true });
        // The release waits for the push.
        expect(release("platform-ingress-controller-release").dependencies).toContain(push.urn);
        const docker = find(regs, "pulumi:providers:docker", "docker");
        expect(isWrappedSecret(docker.inputs!.registryAuth)).toBe(true);
        const service = find(regs, "kubernetes:core/v1:Service", "platform-ingress-controller-service");
        expect((service.inputs!.metadata as { annotations: Record<string, string> }).annotations["service.beta.kubernetes.io/aws-load-balancer-type"]).toBe("nlb");
        expect(await promiseOf(run.outputs!.lb_ingress_hostname as pulumi.Output<string>)).toBe("a1b2c3-123.elb.us-east-1.amazonaws.com");
    });

    it("keeps every secret out of plain inputs: only Kubernetes Secrets and secret-wrapped inputs carry them", () => {
        const secretValues = [...Object.values(SECRETS), "generated-secrets-"];
        for (const r of regs.filter((x) => x.inputs)) {
            for (const s of plainStrings(r.inputs)) {
                for (const secret of secretValues) expect(s, `${r.type} ${r.name}`).not.toContain(secret);
            }
        }
        const grafana = release("platform-prometheus-release").inputs!.values as { grafana: { admin: unknown; adminPassword?: string } };
        expect(grafana.grafana.admin).toEqual({ existingSecret: "grafana-admin", userKey: "admin-user", passwordKey: "admin-password" });
        expect(grafana.grafana.adminPassword).toBeUndefined();
    });

    it("passes Kubernetes schema validation for every built-in object", () => {
        const { checked, errors } = validateKubernetesObjects(regs);
        expect(errors).toEqual([]);
        expect(checked.length).toBeGreaterThanOrEqual(10);
        expect(checked).toEqual(expect.arrayContaining(["Namespace/platform-logstore-ns", "Secret/platform-prometheus-grafana-admin", "Service/platform-ingress-controller-service"]));
    });

    it("exports the real in-cluster addresses of the add-ons", async () => {
        const out = run.outputs!;
        const value = (k: string) => promiseOf(out[k] as pulumi.Output<string>);
        expect(await value("prometheus_address")).toBe("prometheus-kube-prometheus-prometheus.prometheus.svc.cluster.local:9090");
        expect(await value("grafana_address")).toBe("prometheus-grafana.prometheus.svc.cluster.local:80");
        expect(await value("kibana_url")).toBe("http://kibana-kb-http.logstore.svc.cluster.local:5601");
        expect(await value("otlp_grpc_endpoint")).toBe("simplest-collector.observability.svc.cluster.local:9978");
        expect(await value("statsd_host")).toBe("statsd-prometheus-statsd-exporter.prometheus.svc.cluster.local");
        expect(await value("cluster_issuer")).toBe("selfsigned-issuer");
    });
});

describe("mara:kibanaObjects", () => {
    const KIBANA_JOB = /^platform-logstore-kibana-setup$/;
    const stack = (extra: string) => `config:\n  kubernetes:infra_type: aws\n  aws:region: us-east-1\n${extra}`;

    it("false: the program registers no Kibana setup Job nor its files, and Elasticsearch and Kibana are still there", async () => {
        const run = await runProgram(stackFile(stack("  mara:kibanaObjects: false\n")));
        expect(run.error).toBeUndefined();
        const names = run.registrations.map((r) => r.name);
        expect(names.filter((n) => /kibana-setup/.test(n))).toEqual([]);
        expect(ofType(run.registrations, "mara:observability:Logstore")).toHaveLength(1);
        expect(ofType(run.registrations, "kubernetes:kibana.k8s.elastic.co/v1:Kibana")).toHaveLength(1);
    }, 120_000);

    it("unset (the default) and the CLI's spelling \"true\": the Job is registered", async () => {
        for (const extra of ["", '  mara:kibanaObjects: "true"\n']) {
            const run = await runProgram(stackFile(stack(extra)));
            expect(run.error).toBeUndefined();
            expect(run.registrations.filter((r) => r.type === "kubernetes:batch/v1:Job" && KIBANA_JOB.test(r.name)), extra || "unset").toHaveLength(1);
        }
    }, 120_000);

    it("anything but a boolean is refused before a resource is registered: by the Pulumi CLI from Pulumi.yaml's type, and by the program", async () => {
        const bad = stack("  mara:kibanaObjects: yes please\n");
        expect(() => stackFile(bad)).toThrow(/kibanaObjects' must be of type 'boolean'/);
        const run = await runProgram(stackFile(bad, { projectDefaults: false }));
        expect(String(run.error)).toMatch(/mara:kibanaObjects = "yes please".*Allowed: .*true.*Fix: pulumi config set mara:kibanaObjects/s);
        expect(run.registrations.filter((r) => !/^pulumi:/.test(r.type))).toEqual([]);
    });
});
