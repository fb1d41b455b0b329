/**
 * One negative fixture per rule of the render tier: each breaks exactly one thing Helm or Kubernetes would
 * refuse or ignore, and the tier must name it. The program's validation keeps every such value out of the
 * configuration (the stack files in test/render/fixtures/ show it refusing a chart version and an image), so
 * each rule is broken in a valid run's registrations, the way a code change would break it.
 */
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { validateConfig } from "../../config";
import { stackFile } from "../support/config";
import { find, Registration } from "../support/mocks";
import { runProgram } from "../support/program";
import { RELEASE_TYPE } from "../../render/collect";
import { checkRun, Finding, Rule } from "./tier";

const NEGATIVE = path.join(__dirname, "fixtures");
const load = (name: string) => stackFile(fs.readFileSync(path.join(NEGATIVE, `Pulumi.${name}.yaml`), "utf8"));

/** Findings of one rule, as "subject: message". */
const of = (findings: Finding[], rule: Rule) => findings.filter((f) => f.rule === rule).map((f) => `${f.subject}: ${f.message}`);

/** A fresh, valid run of the base fixture to break. */
async function baseRun(): Promise<Registration[]> {
    const run = await runProgram(load("base"));
    expect(run.error).toBeUndefined();
    return run.registrations;
}

const values = (regs: Registration[], name: string) => find(regs, RELEASE_TYPE, name).inputs!.values as Record<string, Record<string, unknown>>;

describe("render tier: each rule fails when broken", () => {
    let clean: Finding[];
    beforeAll(async () => {
        clean = await checkRun(await baseRun(), { probeIgnoredKeys: false });
    }, 300_000);

    it("the base fixture is clean", () => {
        expect(clean).toEqual([]);
    });

    it("chart-archive: a chart version without a vendored archive", async () => {
        // Validation refuses the stack that would install it (an nginx-ingress chart whose flags are not recorded),
        // so the tier is shown a run whose registration was changed the way a code change to the catalogue would.
        expect(validateConfig(load("unvendored-chart")).problems.map((p) => p.key)).toEqual(["mara:ingressChartVersion"]);
        const regs = await baseRun();
        find(regs, RELEASE_TYPE, "platform-ingress-controller-release").inputs!.version = "2.6.3";
        expect(of(await checkRun(regs, { probeIgnoredKeys: false }), "chart-archive")).toEqual([
            "release platform-ingress-controller-release (nginx-ingress@2.6.3): no vendored archive test/charts/nginx-ingress-2.6.3.tgz: the chart version the program installs cannot be rendered; vendor it (tools/refresh-charts.ts) or pin a vendored version in contracts/charts.ts",
        ]);
    }, 300_000);

    it("controller-flags: an ingress controller image older than the chart's flags (MARA's 2.4.2 with chart 2.6.4)", async () => {
        // Validation refuses such an image (and reads MARA's own 2.4.2 pin as 5.5.4): the tier sees it in the values.
        expect(validateConfig(load("old-controller-image")).problems.map((p) => p.problem)).toEqual([
            expect.stringContaining("is not an image the chart runs: controller 2.4.1 is outside 5.5.0 to 5.5.x"),
        ]);
        const regs = await baseRun();
        (values(regs, "platform-ingress-controller-release").controller!.image as Record<string, unknown>).tag = "2.4.2";
        const found = of(await checkRun(regs, { probeIgnoredKeys: false }), "controller-flags");
        expect(found).toHaveLength(1);
        expect(found[0]).toMatch(/^release platform-ingress-controller-release \(nginx-ingress@2\.6\.4\): nginx\/nginx-ingress:2\.4\.2 does not define the flags the chart renders: /);
        expect(found[0]).toContain("-allow-empty-ingress-host");
        expect(found[0]).toContain("-log-level");
        expect(found[0]).toContain("controller 2.4.2 is outside 5.5.0 to 5.5.x, the versions nginx-ingress chart 2.6.4 runs");
    }, 300_000);

    it("values-schema: a value of the wrong type where Helm cannot check the schema offline (nginx-ingress)", async () => {
        const regs = await baseRun();
        values(regs, "platform-ingress-controller-release").controller!.replicaCount = "two";
        expect(of(await checkRun(regs, { probeIgnoredKeys: false }), "values-schema")).toEqual([
            "release platform-ingress-controller-release (nginx-ingress@2.6.4): values do not match the chart's values.schema.json: /controller/replicaCount must be integer",
        ]);
    }, 300_000);

    it("helm-template: a key cert-manager's schema forbids makes Helm itself refuse to render", async () => {
        const regs = await baseRun();
        values(regs, "platform-cert-manager-release").crds!.remove = true;
        const findings = await checkRun(regs, { probeIgnoredKeys: false });
        expect(of(findings, "helm-template")).toEqual([expect.stringMatching(/^release platform-cert-manager-release \(cert-manager@v1\.21\.1\): helm template fails: .*values don't meet the specifications of the schema/s)]);
        expect(of(findings, "values-schema")).toEqual([expect.stringContaining('/crds must NOT have additional properties "remove"')]);
    }, 300_000);

    it("ignored-key: a values key the chart does not read (a typo of controller.enableSnippets)", async () => {
        const regs = await baseRun();
        values(regs, "platform-ingress-controller-release").controller!.enableSnipets = true;
        const findings = await checkRun(regs);
        expect(of(findings, "ignored-key")).toEqual([
            "release platform-ingress-controller-release (nginx-ingress@2.6.4): values key controller.enableSnipets is not in the chart's defaults and the chart ignores it: removing or changing it leaves the rendered manifests unchanged",
        ]);
    }, 300_000);

    it("kubernetes-schema: a typed object Kubernetes 1.35 rejects, and an API version it no longer serves", async () => {
        const regs = await baseRun();
        const deployment = find(regs, "kubernetes:apps/v1:Deployment", "bank-of-sirius-frontend");
        (deployment.inputs!.spec as Record<string, unknown>).replicas = "three";
        const pdb = { ...deployment, type: "kubernetes:policy/v1beta1:PodDisruptionBudget", name: "old-pdb", inputs: { metadata: { name: "old" }, spec: { minAvailable: 1 } } };
        const findings = await checkRun([...regs, pdb], { probeIgnoredKeys: false });
        expect(of(findings, "kubernetes-schema")).toEqual([
            "Deployment bank-of-sirius-frontend: invalid for Kubernetes 1.35: data/spec/replicas must be integer",
            "PodDisruptionBudget old-pdb: policy/v1beta1 PodDisruptionBudget is not served by Kubernetes 1.35 (removed in 1.25)",
        ]);
    }, 300_000);

    it("crd-schema: a custom resource that violates its CRD, and a kind no release defines", async () => {
        const regs = await baseRun();
        const issuer = find(regs, "kubernetes:cert-manager.io/v1:ClusterIssuer", "platform-cert-manager-selfsigned");
        issuer.inputs!.spec = { selfsigned: {} };
        const stray = { ...issuer, type: "kubernetes:example.com/v1:Widget", name: "widget", inputs: { metadata: { name: "w" } } };
        const findings = await checkRun([...regs, stray], { probeIgnoredKeys: false });
        expect(of(findings, "crd-schema")).toEqual([
            'ClusterIssuer platform-cert-manager-selfsigned: not valid against the ClusterIssuer CRD from release certmgr: /spec must NOT have additional properties "selfsigned"',
            "Widget widget: example.com/v1 Widget is neither built into Kubernetes nor defined by a CRD the program or one of its releases installs",
        ]);
    }, 300_000);

    it("dependency: a custom resource that does not wait for the release installing its CRD and webhook", async () => {
        const regs = await baseRun();
        const release = find(regs, RELEASE_TYPE, "platform-cert-manager-release");
        const issuer = find(regs, "kubernetes:cert-manager.io/v1:ClusterIssuer", "platform-cert-manager-selfsigned");
        issuer.dependencies = issuer.dependencies.filter((d) => d !== release.urn);
        const found = of(await checkRun(regs, { probeIgnoredKeys: false }), "dependency");
        expect(found).toContain("ClusterIssuer platform-cert-manager-selfsigned: is a custom resource whose CRD release platform-cert-manager-release installs, but it does not wait for that release");
        expect(found).toContain(
            "ClusterIssuer platform-cert-manager-selfsigned: is checked by admission webhook webhook.cert-manager.io (failurePolicy Fail) of release platform-cert-manager-release, but does not wait for that release",
        );
    }, 300_000);

    it("values-unknown: a release whose whole values object is unknown on a first preview (values built inside an apply)", async () => {
        const regs = await baseRun();
        find(regs, RELEASE_TYPE, "platform-ingress-controller-release").inputs!.values = pulumi.unknown;
        expect(of(await checkRun(regs, { probeIgnoredKeys: false }), "values-unknown")).toEqual([
            "release platform-ingress-controller-release (nginx-ingress@2.6.4): the whole values object is unknown on a first preview, so nothing of the release can be shown or rendered; pass the unknown parts as nested Outputs instead of building the values inside an apply",
        ]);
    }, 300_000);

    it("crd-schema: a custom resource against a CRD the program applies itself (not Helm)", async () => {
        const regs = await baseRun();
        const monitor = find(regs, "kubernetes:monitoring.coreos.com/v1:ServiceMonitor", "platform-prometheus-nginx-ingress");
        (monitor.inputs!.spec as Record<string, unknown>).endpoint = [];
        expect(of(await checkRun(regs, { probeIgnoredKeys: false }), "crd-schema")).toEqual([
            'ServiceMonitor platform-prometheus-nginx-ingress: not valid against the ServiceMonitor CRD from the program\'s platform-prometheus-crd-servicemonitors.monitoring.coreos.com: /spec must NOT have additional properties "endpoint"',
        ]);
    }, 300_000);

    it("dependency: a release whose chart renders custom resources before the program has applied their CRDs", async () => {
        const regs = await baseRun();
        const crds = regs.filter((r) => r.type.endsWith(":CustomResourceDefinitionPatch")).map((r) => r.urn);
        expect(crds.length).toBeGreaterThanOrEqual(22);
        const release = find(regs, RELEASE_TYPE, "platform-prometheus-release");
        release.dependencies = release.dependencies.filter((d) => !crds.includes(d));
        const found = of(await checkRun(regs, { probeIgnoredKeys: false }), "dependency");
        expect(found).toContain(
            "release platform-prometheus-release: renders Prometheus Prometheus/prometheus/prometheus-kube-prometheus-prometheus, whose CRD resource platform-prometheus-crd-prometheuses.monitoring.coreos.com applies, but does not wait for that resource",
        );
        // Only that release, and what waits for the CRDs through it (the monitors and alert rules the component creates
        // after its release): everything else still waits for the CRDs it uses.
        expect(found.filter((f) => !(f.startsWith("release platform-prometheus-release: ") || f.startsWith("release platform-prometheus-statsd: ") || f.includes("ServiceMonitor") || f.startsWith("PrometheusRule platform-prometheus-alerts-")))).toEqual([]);
    }, 300_000);
});
