/**
 * The Pulumi Kubernetes Operator as `mara:delivery: operator` installs it (components/pulumiOperator/component.ts), rendered by
 * Helm 3 from the vendored chart with the component's values (none) and Helm skipping `crds/`, as the release does
 * because the program applies those CRDs: no CRD comes from the release, the controller runs the operator's v2.9.0
 * image in the release's namespace, its ClusterRole covers the kinds the program's Stack needs reconciled, and the
 * crds/ directory holds exactly the four CRDs the program ships (components/crds/).
 */
import { describe, expect, it } from "vitest";
import { shippedCrds } from "../../components/chartCrds";
import { OPERATOR_NAMESPACE, OPERATOR_RELEASE } from "../../components/pulumiOperator/stack";
import { CHARTS } from "../../contracts";
import { KubeObject, parseManifest, vendoredChart } from "../support/charts";
import { helmTemplate } from "../support/helm";

async function render(includeCrds: boolean): Promise<KubeObject[]> {
    const chartPath = vendoredChart(CHARTS.pulumiOperator.chart, CHARTS.pulumiOperator.version);
    expect(chartPath, "test/charts has the pulumi-kubernetes-operator archive").toBeDefined();
    const r = await helmTemplate({ release: OPERATOR_RELEASE, namespace: OPERATOR_NAMESPACE, chartPath: chartPath!, values: {}, kubeVersion: "1.35", includeCrds });
    if (!r.ok) throw new Error(r.error);
    return parseManifest(r.manifest);
}

describe("the pulumi-kubernetes-operator chart as the PulumiOperator component installs it", () => {
    it("brings no CRD with the release, runs the operator's image in its namespace, and may reconcile Stacks, Workspaces and Updates", async () => {
        const objects = await render(false);
        expect(objects.filter((o) => o.kind === "CustomResourceDefinition")).toEqual([]);
        const deployments = objects.filter((o) => o.kind === "Deployment");
        expect(deployments.map((d) => d.metadata!.name)).toEqual(["pulumi-kubernetes-operator-controller-manager"]);
        expect(JSON.stringify(deployments[0]).match(/"image":"[^"]+"/g)).toEqual(['"image":"docker.io/pulumi/pulumi-kubernetes-operator:v2.9.0"']);
        // Written without a namespace (Helm installs them into the release's), or into the release's: none elsewhere.
        for (const o of objects.filter((x) => !/^Cluster/.test(x.kind!))) expect(o.metadata!.namespace ?? OPERATOR_NAMESPACE, `${o.kind} ${o.metadata!.name}`).toBe(OPERATOR_NAMESPACE);
        const rules = objects.filter((o) => o.kind === "ClusterRole").flatMap((o) => (o as KubeObject & { rules?: { apiGroups?: string[]; resources?: string[] }[] }).rules ?? []);
        const granted = (group: string, resource: string) => rules.some((r) => r.apiGroups?.includes(group) && r.resources?.includes(resource));
        for (const [group, resource] of [["pulumi.com", "stacks"], ["auto.pulumi.com", "workspaces"], ["auto.pulumi.com", "updates"], ["", "secrets"]] as const) expect(granted(group, resource), `${group}/${resource}`).toBe(true);
    }, 120_000);

    it("its crds/ directory is the four CRDs the program applies, at the pinned version", async () => {
        const fromChart = (await render(true)).filter((o) => o.kind === "CustomResourceDefinition").map((o) => o.metadata!.name).sort();
        expect(fromChart).toEqual(["programs.pulumi.com", "stacks.pulumi.com", "updates.auto.pulumi.com", "workspaces.auto.pulumi.com"]);
        expect(shippedCrds(CHARTS.pulumiOperator)!.map((c) => c.metadata.name).sort()).toEqual(fromChart);
    }, 120_000);
});
