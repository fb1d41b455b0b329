/**
 * Upgrades that upgrade: bumping a pinned chart version changes its CRDs in the plan. A newer
 * kube-prometheus-stack is made from the vendored archive (the version in Chart.yaml raised, one CRD given a new
 * field, one CRD added), its CRDs extracted by the same tool `npm run gen` runs, and the program run with the pin
 * before and after the bump: the CRDs are the same resources with new inputs (updates, none replaced or deleted),
 * the new CRD is created, and every CRD resource is retained on delete, so no plan ever deletes one from a cluster.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parse, stringify } from "yaml";
import { CHARTS, CrdManifest } from "../../contracts";
import { extractCrds } from "../../tools/chartCrds";
import { fixture } from "../support/config";
import { vendoredChart } from "../support/charts";
import { Registration, unwrapSecrets } from "../support/mocks";
import { runProgram } from "../support/program";

/** CRDs of chart versions the package does not ship (the bumped one), as if `npm run gen` had written them. */
const extraCrds = vi.hoisted(() => new Map<string, readonly CrdManifest[]>());
vi.mock("../../components/chartCrds", async (original) => {
    const actual = await original<typeof import("../../components/chartCrds")>();
    const chartCrdResources: typeof actual.chartCrdResources = (name, chart, a, opts) =>
        actual.chartCrdResources(name, chart, { ...a, crds: a.crds ?? extraCrds.get(`${chart.chart}@${chart.version}`) }, opts);
    return { ...actual, chartCrdResources };
});

const PINNED = CHARTS.prometheus.version;
const BUMPED = "88.6.0";
const CRD = "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinitionPatch";
const SECRETS = { "mara:grafanaAdminPassword": "grafana-pw", "mara:siriusAccountsPassword": "pw", "linode:token": "t", "digitalocean:token": "t" };

/** A newer chart made from the vendored one: version raised, ServiceMonitor's spec given a field, a CRD added. */
function bumpedArchive(dir: string): string {
    execFileSync("tar", ["-xzf", vendoredChart("kube-prometheus-stack", PINNED)!, "-C", dir]);
    const chart = path.join(dir, "kube-prometheus-stack");
    const chartYaml = path.join(chart, "Chart.yaml");
    fs.writeFileSync(chartYaml, fs.readFileSync(chartYaml, "utf8").replace(/^version: .*$/m, `version: ${BUMPED}`));
    const crds = path.join(chart, "charts", "crds", "crds");
    const file = path.join(crds, "crd-servicemonitors.yaml");
    const sm = parse(fs.readFileSync(file, "utf8"));
    sm.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.scrapeClassicHistograms = { type: "boolean", description: "new in the bump" };
    sm.metadata.annotations["operator.prometheus.io/version"] = "0.94.0";
    fs.writeFileSync(file, stringify(sm));
    const widget = { ...sm, metadata: { ...sm.metadata, name: "widgets.monitoring.coreos.com" }, spec: { ...sm.spec, names: { ...sm.spec.names, kind: "Widget", listKind: "WidgetList", plural: "widgets", singular: "widget" } } };
    fs.writeFileSync(path.join(crds, "crd-widgets.yaml"), stringify(widget));
    const archive = path.join(dir, `kube-prometheus-stack-${BUMPED}.tgz`);
    execFileSync("tar", ["-czf", archive, "-C", dir, "kube-prometheus-stack"]);
    return archive;
}

const crdResources = (regs: Registration[]) => new Map(regs.filter((r) => r.type === CRD).map((r) => [r.urn!, r]));
const spec = (r: Registration) => (unwrapSecrets(r.inputs) as unknown as CrdManifest).spec;

describe("bumping a chart that ships CRDs in crds/", () => {
    let tmp: string;
    let before: Registration[];
    let after: Registration[];

    beforeAll(async () => {
        tmp = fs.mkdtempSync(path.join(os.tmpdir(), "crd-bump-"));
        extraCrds.set(`kube-prometheus-stack@${BUMPED}`, extractCrds(bumpedArchive(tmp)));
        const pinned = await runProgram(fixture("canonical-aws", { secrets: SECRETS }));
        const base = fixture("canonical-aws", { secrets: SECRETS });
        const bumped = await runProgram({ ...base, values: { ...base.values, "mara:prometheusChartVersion": BUMPED } });
        expect(pinned.error).toBeUndefined();
        expect(bumped.error).toBeUndefined();
        [before, after] = [pinned.registrations, bumped.registrations];
    }, 120_000);
    afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

    it("installs the bumped chart version", () => {
        const release = (regs: Registration[]) => regs.find((r) => r.name === "platform-prometheus-release")!.inputs!;
        expect([release(before).version, release(after).version]).toEqual([PINNED, BUMPED]);
        expect(release(after).skipCrds).toBe(true);
    });

    it("updates the changed CRD in place, leaves the others unchanged and creates the new one: nothing replaced or deleted", () => {
        const [old, next] = [crdResources(before), crdResources(after)];
        const prefix = "platform-prometheus-crd-";
        const changed: string[] = [];
        for (const [urn, r] of old) {
            expect(next.has(urn), `${r.name} would be deleted`).toBe(true);
            if (JSON.stringify(spec(r)) !== JSON.stringify(spec(next.get(urn)!)) || JSON.stringify(r.inputs) !== JSON.stringify(next.get(urn)!.inputs)) changed.push(r.name);
        }
        expect(changed).toEqual([`${prefix}servicemonitors.monitoring.coreos.com`]);
        const sm = [...next.values()].find((r) => r.name === `${prefix}servicemonitors.monitoring.coreos.com`)!;
        const props = (spec(sm) as { versions: { schema: { openAPIV3Schema: { properties: { spec: { properties: Record<string, unknown> } } } } }[] }).versions[0]!.schema.openAPIV3Schema.properties.spec.properties;
        expect(props.scrapeClassicHistograms).toEqual({ type: "boolean", description: "new in the bump" });
        expect([...next.values()].filter((r) => !old.has(r.urn!)).map((r) => r.name)).toEqual([`${prefix}widgets.monitoring.coreos.com`]);
    });

    it("marks every CRD retained on delete, before and after the bump", () => {
        for (const r of [...crdResources(before).values(), ...crdResources(after).values()]) expect(r.retainOnDelete, r.name).toBe(true);
    });
});

describe("CRDs on an existing cluster", () => {
    it("are applied, never deleted: retained on delete, and the drain removes no CRD there", async () => {
        const run = await runProgram(fixture("mara-kubeconfig", { secrets: SECRETS }));
        expect(run.error).toBeUndefined();
        const crds = [...crdResources(run.registrations).values()];
        expect(crds.length).toBe(22);
        for (const r of crds) expect(r.retainOnDelete, r.name).toBe(true);
        const drain = run.registrations.find((r) => r.type === "pulumi-nodejs:dynamic:Resource" && r.name.endsWith("-drain"))!;
        expect(unwrapSecrets(drain.inputs)).toMatchObject({ cloud: "none", removeCrds: false });
    }, 120_000);
});
