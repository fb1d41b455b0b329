/**
 * `mara doctor` asks the API server about every kind of object the program creates (cli/doctor/requiredAccess.ts).
 * Here the program runs for an existing cluster with every optional add-on (MetalLB with BGP, the NFS provisioner,
 * the admission policies),
 * each release is rendered by Helm 3 from the vendored chart, and every object, rendered or typed, must be one the
 * table asks `create` about, in its namespace or cluster-scoped: a chart bump that adds a kind fails here.
 */
import { describe, expect, it } from "vitest";
import { clusterRules, namespacedRules } from "../../cli/doctor/requiredAccess";
import { doctorPlan } from "../../cli/doctor/plan";
import { releasesOf, typedObjectsOf } from "../../render/collect";
import { validateConfig } from "../../config";
import { KubeObject, parseManifest, vendoredChart } from "../support/charts";
import { withClusterAddOns } from "../support/clusterAddOns";
import { fixture } from "../support/config";
import { helmTemplate } from "../support/helm";
import { runProgram } from "../support/program";

/** Kinds that are not namespaced, besides those of cluster-scoped CRDs (read from the rendered CRDs). */
const CLUSTER_KINDS = new Set(["Namespace", "CustomResourceDefinition", "ClusterRole", "ClusterRoleBinding", "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding", "IngressClass", "StorageClass", "PersistentVolume", "PriorityClass"]);

/** The resource name of a kind: the plural Kubernetes uses for every kind the platform creates. */
const plural = (kind: string) => {
    const k = kind.toLowerCase();
    return /(s|x|ch|sh)$/.test(k) ? `${k}es` : k.endsWith("y") ? `${k.slice(0, -1)}ies` : `${k}s`;
};

describe("mara doctor's permission table", () => {
    it("asks `create` about every object the program and its releases create, where they create it", async () => {
        const base = withClusterAddOns(fixture("mara-kubeconfig", { secrets: { "mara:grafanaAdminPassword": "pw" } }), { bgp: true });
        // With the guardrails installed too: their policies and bindings are cluster-scoped objects of the program's.
        const raw = { ...base, values: { ...base.values, "mara:admissionPolicies": "deny" } };
        const run = await runProgram(raw);
        expect(run.error).toBeUndefined();
        const objects: (KubeObject & { releaseNamespace?: string })[] = typedObjectsOf(run.registrations).map((o) => o.body as KubeObject);
        for (const spec of releasesOf(run.registrations)) {
            const r = await helmTemplate({ release: spec.release, namespace: spec.namespace, chartPath: vendoredChart(spec.chart, spec.version)!, values: spec.values, kubeVersion: "1.35", includeCrds: !spec.skipCrds, skipSchemaValidation: true });
            expect(r.ok, spec.resource).toBe(true);
            if (r.ok) for (const o of parseManifest(r.manifest)) objects.push({ ...o, releaseNamespace: spec.namespace });
        }
        const clusterScopedCrds = new Set(
            objects.filter((o) => o.kind === "CustomResourceDefinition" && (o.spec as { scope?: string }).scope === "Cluster").map((o) => (o.spec as { names: { kind: string } }).names.kind),
        );
        const plan = doctorPlan(validateConfig(raw).config);
        const cluster = new Set(clusterRules(plan).filter((r) => r.verbs.includes("create")).map((r) => `${r.group}/${r.resource}`));
        const byNamespace = new Map(namespacedRules(plan).map(({ namespace, rules }) => [namespace, new Set(rules.filter((r) => r.verbs.includes("create")).map((r) => `${r.group}/${r.resource}`))]));
        const missing = new Set<string>();
        for (const o of objects) {
            // `helm test` pods are never created by `pulumi up`.
            if (/\btest\b/.test(o.metadata?.annotations?.["helm.sh/hook"] ?? "")) continue;
            const group = o.apiVersion.includes("/") ? o.apiVersion.split("/")[0]! : "";
            const key = `${group}/${plural(o.kind)}`;
            if (CLUSTER_KINDS.has(o.kind) || clusterScopedCrds.has(o.kind)) {
                if (!cluster.has(key)) missing.add(`${key} (cluster-scoped)`);
                continue;
            }
            const ns = o.metadata?.namespace ?? o.releaseNamespace ?? "(none)";
            if (!byNamespace.get(ns)?.has(key)) missing.add(`${key} in ${ns}`);
        }
        expect([...missing].sort()).toEqual([]);
    }, 300_000);
});
