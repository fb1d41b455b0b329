/**
 * `mara plan` lists every container image before anything is deployed; for what a chart runs on its own it reads
 * a table per pinned chart version (cli/plan/chartImages.ts). Here every release of the program is rendered by Helm
 * from the vendored chart, with the program's values, and the plan's list is held against what Helm renders:
 * every container a release's pods run (Helm test pods aside, which `pulumi up` never runs) is in the plan, and
 * every image the plan names is one the rendered manifests name (a container, a custom resource's image, or an
 * operator's image flag). A chart refresh that changes its images fails here with the table entry to write.
 */
import { describe, expect, it } from "vitest";
import { CHART_IMAGES } from "../../cli/plan/chartImages";
import { DEFAULT_COLLECTOR_IMAGE, inventory } from "../../cli/plan/inventory";
import { KubeObject, parseManifest, vendoredChart } from "../support/charts";
import { withClusterAddOns } from "../support/clusterAddOns";
import { fixture } from "../support/config";
import { helmTemplate } from "../support/helm";
import { unwrapSecrets } from "../support/mocks";
import { runProgram } from "../support/program";
import { releasesOf } from "../../render/collect";

const SECRETS = { "mara:grafanaAdminPassword": "grafana-pw", "digitalocean:token": "do-token", "sirius:accounts_pwd": "accounts-pw", "linode:token": "linode-token" };

/** What a release's manifests run and name. */
function imagesIn(objects: KubeObject[]): { run: Set<string>; named: Set<string> } {
    const run = new Set<string>();
    const named = new Set<string>();
    const walk = (v: unknown) => {
        if (Array.isArray(v)) v.forEach(walk);
        else if (v && typeof v === "object") {
            for (const [k, x] of Object.entries(v)) {
                if ((k === "containers" || k === "initContainers") && Array.isArray(x)) {
                    for (const c of x as { image?: string; args?: string[]; command?: string[] }[]) {
                        if (c.image) run.add(c.image);
                        // Operators name the images of the pods they start in flags (--collector-image=..., --prometheus-config-reloader=...).
                        for (const a of [...(c.args ?? []), ...(c.command ?? [])]) {
                            const m = /^--?[\w-]+=(\S+\/\S+:\S+)$/.exec(String(a));
                            if (m) named.add(m[1]!);
                        }
                    }
                }
                walk(x);
            }
        }
    };
    for (const o of objects) {
        // `helm test` pods are never run by `pulumi up`.
        if (/\btest\b/.test(o.metadata?.annotations?.["helm.sh/hook"] ?? "")) continue;
        walk(o);
        const image = (o.spec as { image?: unknown } | undefined)?.image;
        if (typeof image === "string" && !/^(Deployment|StatefulSet|DaemonSet|Job|CronJob|Pod)$/.test(o.kind)) named.add(image);
    }
    for (const i of run) named.add(i);
    return { run, named };
}

describe("mara plan's images are the ones Helm renders", () => {
    // The existing cluster with MetalLB (BGP, so frr-k8s runs too) and the NFS provisioner.
    const stacks = { "mara-aws": () => fixture("mara-aws", { secrets: SECRETS }), "mara-kubeconfig": () => fixture("mara-kubeconfig", { secrets: SECRETS }), "mara-do": () => fixture("mara-do", { secrets: SECRETS }), "mara-kubeconfig with MetalLB and NFS": () => withClusterAddOns(fixture("mara-kubeconfig", { secrets: SECRETS }), { bgp: true }) };
    for (const [name, raw] of Object.entries(stacks)) {
        it(`${name}: every release's images, and nothing else`, async () => {
            const run = await runProgram(raw());
            expect(run.error).toBeUndefined();
            const resources = run.registrations.map((r) => ({ type: r.type, name: r.name, inputs: unwrapSecrets(r.inputs) as Record<string, unknown> }));
            const plan = inventory(resources);
            expect(plan.unlistedCharts).toEqual([]);
            const planned = (resource: string) => plan.images.filter((i) => i.usedBy.includes(resource)).map((i) => i.image).sort();

            for (const spec of releasesOf(run.registrations)) {
                const archive = vendoredChart(spec.chart, spec.version)!;
                const r = await helmTemplate({ release: spec.release, namespace: spec.namespace, chartPath: archive, values: spec.values, kubeVersion: "1.35", includeCrds: true, skipSchemaValidation: true });
                expect(r.ok, spec.resource).toBe(true);
                if (!r.ok) continue;
                const { run: runs, named } = imagesIn(parseManifest(r.manifest));
                const mine = planned(spec.resource);
                // Every container the release runs is listed by the plan...
                expect([...runs].filter((i) => !mine.includes(i)), `${spec.resource}: images Helm renders that mara plan does not list`).toEqual([]);
                // ...and the plan lists nothing the chart does not name.
                expect(mine.filter((i) => !named.has(i)), `${spec.resource}: images mara plan lists that Helm does not render`).toEqual([]);
                // The table itself holds only images the chart names (a stale entry fails even where values hide it).
                const table = CHART_IMAGES[`${spec.chart}@${spec.version}`] ?? [];
                expect(table.filter((i) => !named.has(i)), `cli/plan/chartImages.ts ${spec.chart}@${spec.version}: not rendered by the chart`).toEqual([]);
            }
            // The operator's default collector image is what its chart passes it.
            const otel = releasesOf(run.registrations).find((s) => s.chart === "opentelemetry-operator")!;
            const rendered = await helmTemplate({ release: otel.release, namespace: otel.namespace, chartPath: vendoredChart(otel.chart, otel.version)!, values: otel.values, kubeVersion: "1.35", includeCrds: true, skipSchemaValidation: true });
            expect(rendered.ok && rendered.manifest).toContain(`--collector-image=${DEFAULT_COLLECTOR_IMAGE[`${otel.chart}@${otel.version}`]}`);
        }, 300_000);
    }
});
