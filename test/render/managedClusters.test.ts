/**
 * What the platform's charts render on the clusters the program creates, checked with Helm against the vendored
 * charts: kube-prometheus-stack scrapes (and alerts on) only the control-plane components the cluster exposes,
 * and cert-manager's CRDs survive an uninstall.
 */
import { describe, expect, it } from "vitest";
import { prometheusValues } from "../../components/prometheus";
import { CHARTS, UNREACHABLE_CONTROL_PLANE } from "../../contracts";
import { KubeObject, parseManifest, vendoredChart } from "../support/charts";
import { fixture } from "../support/config";
import { helmTemplate } from "../support/helm";
import { runProgram } from "../support/program";
import { releasesOf } from "../../render/collect";

const SECRETS = { "mara:grafanaAdminPassword": "grafana-pw", "digitalocean:token": "do-token", "sirius:accounts_pwd": "accounts-pw", "linode:token": "linode-token" };
/** The jobs of the four components a managed control plane hides, and the alert each would raise. */
const HIDDEN = { "kube-controller-manager": "KubeControllerManagerDown", "kube-scheduler": "KubeSchedulerDown", "kube-etcd": "etcdMembersDown", "kube-proxy": "KubeProxyDown" };

async function render(chart: string, version: string, release: string, namespace: string, values: Record<string, unknown>): Promise<KubeObject[]> {
    const r = await helmTemplate({ release, namespace, chartPath: vendoredChart(chart, version)!, values, kubeVersion: "1.35", includeCrds: true, skipSchemaValidation: true });
    if (!r.ok) throw new Error(r.error);
    return parseManifest(r.manifest);
}

const alerts = (objects: KubeObject[]) =>
    objects
        .filter((o) => o.kind === "PrometheusRule")
        .flatMap((o) => ((o.spec as { groups: { rules: { alert?: string }[] }[] }).groups ?? []).flatMap((g) => g.rules.map((r) => r.alert)))
        .filter((a): a is string => a !== undefined);
const scraped = (objects: KubeObject[]) => objects.filter((o) => o.kind === "ServiceMonitor").map((o) => o.metadata!.name!);

describe("kube-prometheus-stack on a managed control plane", () => {
    for (const name of ["mara-aws", "mara-do", "mara-lke", "mara-kubeconfig"]) {
        it(`${name}: no ServiceMonitor or "down" alert for the controller manager, scheduler, etcd or kube-proxy`, async () => {
            const run = await runProgram(fixture(name, { secrets: SECRETS }));
            expect(run.error).toBeUndefined();
            const spec = releasesOf(run.registrations).find((r) => r.chart === "kube-prometheus-stack")!;
            const objects = await render(spec.chart, spec.version, spec.release, spec.namespace, spec.values);
            const monitors = scraped(objects);
            for (const [job, alert] of Object.entries(HIDDEN)) {
                expect(monitors.filter((m) => m.includes(job)), job).toEqual([]);
                expect(alerts(objects), alert).not.toContain(alert);
            }
            // What the cluster does expose stays monitored.
            expect(monitors.some((m) => m.endsWith("-kubelet")), "kubelet").toBe(true);
            expect(monitors.some((m) => m.endsWith("-apiserver")), "apiserver").toBe(true);
            expect(alerts(objects)).toEqual(expect.arrayContaining(["KubeletDown", "KubeAPIDown"]));
        }, 120_000);
    }

    it("a cluster that exposes its control plane (facts a library user passes) gets it scraped and alerted on", async () => {
        const values = prometheusValues({
            grafanaAdminSecret: "grafana-admin",
            storageSize: "10Gi",
            dashboardStorageSize: "5Gi",
            controlPlaneMetrics: { controllerManager: true, scheduler: true, etcd: true, kubeProxy: true },
        });
        const objects = await render("kube-prometheus-stack", CHARTS.prometheus.version, "prometheus", "prometheus", values);
        for (const [job, alert] of Object.entries(HIDDEN)) {
            expect(scraped(objects).some((m) => m.includes(job)), job).toBe(true);
            expect(alerts(objects)).toContain(alert);
        }
        expect(prometheusValues({ grafanaAdminSecret: "s", storageSize: "1Gi", dashboardStorageSize: "1Gi" })).toMatchObject({
            kubeControllerManager: { enabled: UNREACHABLE_CONTROL_PLANE.controllerManager },
            kubeProxy: { enabled: false },
        });
    }, 120_000);
});

describe("cert-manager's CRDs", () => {
    it("are kept by Helm when the release is uninstalled, and carry the marks the destroy drain removes them by", async () => {
        const run = await runProgram(fixture("mara-kubeconfig"));
        const spec = releasesOf(run.registrations).find((r) => r.chart === "cert-manager")!;
        const crds = (await render(spec.chart, spec.version, spec.release, spec.namespace, spec.values)).filter((o) => o.kind === "CustomResourceDefinition");
        expect(crds.map((c) => c.metadata!.name)).toEqual(expect.arrayContaining(["certificates.cert-manager.io", "clusterissuers.cert-manager.io"]));
        for (const crd of crds) {
            expect(crd.metadata!.annotations?.["helm.sh/resource-policy"], crd.metadata!.name).toBe("keep");
            expect(crd.metadata!.labels?.["app.kubernetes.io/managed-by"], crd.metadata!.name).toBe("Helm");
        }
    }, 120_000);
});
