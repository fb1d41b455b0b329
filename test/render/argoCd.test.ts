/**
 * Argo CD as `mara:delivery: gitops` installs it (components/argoCd/component.ts), rendered by Helm 3 from the vendored
 * argo-cd chart with the component's values: the chart's three CRDs, argocd-cm with the settings the render's waves
 * rely on and without the chart's placeholder URL, no Dex, and Argo CD's components under the names the docs use.
 */
import { describe, expect, it } from "vitest";
import { argoCdValues } from "../../components/argoCd";
import { ARGOCD_CM_SETTINGS, ARGOCD_NAMESPACE, ARGOCD_RELEASE } from "../../components/argoCd/applications";
import { CHARTS } from "../../contracts";
import { KubeObject, parseManifest, vendoredChart } from "../support/charts";
import { helmTemplate } from "../support/helm";

async function render(values: Record<string, unknown>): Promise<KubeObject[]> {
    const chartPath = vendoredChart(CHARTS.argoCd.chart, CHARTS.argoCd.version);
    expect(chartPath, "test/charts has the argo-cd archive").toBeDefined();
    const r = await helmTemplate({ release: ARGOCD_RELEASE, namespace: ARGOCD_NAMESPACE, chartPath: chartPath!, values, kubeVersion: "1.35", includeCrds: true });
    if (!r.ok) throw new Error(r.error);
    return parseManifest(r.manifest);
}

const names = (objects: KubeObject[], kind: string) => objects.filter((o) => o.kind === kind).map((o) => o.metadata!.name!).sort();

describe("the argo-cd chart with the ArgoCd component's values", () => {
    it("installs Argo CD's CRDs, its controllers under Argo CD's own names, and argocd-cm as the waves need it; no Dex", async () => {
        const objects = await render(argoCdValues());
        expect(names(objects, "CustomResourceDefinition")).toEqual(["applications.argoproj.io", "applicationsets.argoproj.io", "appprojects.argoproj.io"]);
        expect(names(objects, "StatefulSet")).toEqual(["argocd-application-controller"]);
        expect(names(objects, "Deployment")).toEqual(["argocd-applicationset-controller", "argocd-notifications-controller", "argocd-redis", "argocd-repo-server", "argocd-server"]);
        expect(objects.filter((o) => /dex/.test(o.metadata!.name!))).toEqual([]);
        for (const o of objects.filter((x) => x.kind !== "CustomResourceDefinition" && !/^Cluster/.test(x.kind!))) expect(o.metadata!.namespace, `${o.kind} ${o.metadata!.name}`).toBe(ARGOCD_NAMESPACE);

        const cm = objects.find((o) => o.kind === "ConfigMap" && o.metadata!.name === "argocd-cm")! as KubeObject & { data: Record<string, string> };
        expect(cm.data).toMatchObject(ARGOCD_CM_SETTINGS);
        expect(cm.data["application.resourceTrackingMethod"]).toBe("annotation");
        expect(cm.data.url).toBeUndefined();
        const images = new Set(objects.flatMap((o) => JSON.stringify(o).match(/"image":"[^"]+"/g) ?? []));
        expect([...images].filter((i) => i.includes("argoproj"))).toEqual(['"image":"quay.io/argoproj/argocd:v3.4.4"']);
    }, 120_000);

    it("differs from the chart's defaults only where the values say: Dex and the placeholder URL", async () => {
        const defaults = await render({});
        expect(names(defaults, "Deployment")).toContain("argocd-dex-server");
        const cm = defaults.find((o) => o.kind === "ConfigMap" && o.metadata!.name === "argocd-cm")! as KubeObject & { data: Record<string, string> };
        expect(cm.data.url).toBe("https://argocd.example.com");
        // Without the values argocd-cm names no tracking method, and Argo CD's built-in default applies.
        expect(cm.data["application.resourceTrackingMethod"]).toBeUndefined();
    }, 120_000);
});
