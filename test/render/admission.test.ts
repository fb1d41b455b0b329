/**
 * The platform under its own admission policies: every object the program puts on the cluster, as Helm renders
 * its releases and as it declares them itself, judged by each rule about Kubernetes objects (the pack's check and
 * the admission policy's CEL, evaluated offline). Outside a rule's exempt namespaces nothing breaks it, so the
 * platform deploys in `deny` mode; every exemption (but kube-system, whose objects the cloud makes) is still needed,
 * so none outlives its reason; and no CEL expression fails on any real object, which `failurePolicy: Fail` would
 * turn into a refusal.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { releasesOf, typedObjectsOf } from "../../render/collect";
import { admissionPolicyOf } from "../../policy/admission";
import { resolveRule } from "../../policy/config";
import { KUBERNETES_RULES } from "../../policy/kubernetes";
import { KUBE_SYSTEM } from "../../policy/kubernetes/exemptions";
import type { KubeObject } from "../../policy/rule";
import { admit } from "../support/cel";
import { parseManifest, vendoredChart } from "../support/charts";
import { fixture } from "../support/config";
import { helmTemplate } from "../support/helm";
import { runProgram } from "../support/program";
import { TARGET_KUBE_VERSION } from "./kubernetesSchema";

/** An object the cluster would admit, with the namespace it lands in and where it comes from. */
interface Admitted {
    readonly object: KubeObject;
    readonly from: string;
}

const groupOf = (o: KubeObject) => (o.apiVersion?.includes("/") ? o.apiVersion.split("/")[0]! : "");
const label = (a: Admitted) => `${a.from}: ${a.object.kind} ${a.object.metadata?.namespace ?? ""}/${a.object.metadata?.name}`;

describe("the platform under its admission policies (canonical-aws, every release rendered)", () => {
    const admitted: Admitted[] = [];

    beforeAll(async () => {
        const run = await runProgram(fixture("canonical-aws", { secrets: { "mara:grafanaAdminPassword": "grafana-password", "mara:siriusAccountsPassword": "accounts-password" } }));
        expect(run.error).toBeUndefined();
        for (const spec of releasesOf(run.registrations)) {
            const r = await helmTemplate({
                release: spec.release,
                namespace: spec.namespace,
                chartPath: vendoredChart(spec.chart, spec.version)!,
                values: spec.values,
                kubeVersion: TARGET_KUBE_VERSION,
                includeCrds: false,
                skipSchemaValidation: spec.chart === "nginx-ingress",
            });
            if (!r.ok) throw new Error(`${spec.resource}: ${r.error}`);
            for (const o of parseManifest(r.manifest)) {
                // `helm test` pods are never run by `pulumi up`.
                if (/\btest\b/.test(o.metadata?.annotations?.["helm.sh/hook"] ?? "")) continue;
                admitted.push({ object: { ...o, metadata: { ...o.metadata, namespace: o.metadata?.namespace ?? spec.namespace } } as KubeObject, from: spec.resource });
            }
        }
        for (const t of typedObjectsOf(run.registrations)) admitted.push({ object: t.body as KubeObject, from: t.resource });
    }, 300_000);

    describe.each(KUBERNETES_RULES.map((r) => [r.id, r] as const))("%s", (_id, rule) => {
        const matched = () => admitted.filter((a) => rule.targets.some((t) => t.group === groupOf(a.object) && t.kind === a.object.kind));
        const exempt = (a: Admitted) => (rule.exemptions ?? []).some((e) => e.namespace === a.object.metadata?.namespace);

        it("is followed outside its exempt namespaces, by the pack's check and by the CEL", async () => {
            const settings = resolveRule(rule).settings;
            const policy = admissionPolicyOf(rule, { mode: "deny" })[0]!;
            const broken: string[] = [];
            for (const a of matched().filter((x) => !exempt(x))) {
                const found = rule.check(a.object, settings);
                if (found.length > 0) broken.push(`${label(a)}: ${found.join("; ")}`);
                const d = await admit(policy, a.object);
                if (!d.allowed) broken.push(`${label(a)}: CEL ${d.error ?? d.messages.join("; ")}`);
            }
            expect(broken).toEqual([]);
        });

        it("needs every exemption it has, and its CEL evaluates on every object, exempt or not", async () => {
            const policy = admissionPolicyOf(rule, { mode: "deny" })[0]!;
            for (const e of (rule.exemptions ?? []).filter((x) => x !== KUBE_SYSTEM)) {
                const inNamespace = matched().filter((a) => a.object.metadata?.namespace === e.namespace);
                expect(inNamespace.some((a) => rule.check(a.object, resolveRule(rule).settings).length > 0), `exemption of ${e.namespace}`).toBe(true);
            }
            const errors: string[] = [];
            for (const a of matched()) {
                const d = await admit(policy, a.object);
                if (d.error) errors.push(`${label(a)}: ${d.error}`);
            }
            expect(errors).toEqual([]);
        });
    });

    it("judged objects of every kind the rules look at that the platform makes", () => {
        const kinds = new Set(admitted.map((a) => a.object.kind));
        for (const k of ["Deployment", "StatefulSet", "DaemonSet", "Job", "Service", "Ingress", "ConfigMap", "StorageClass", "IngressClass"]) expect(kinds).toContain(k);
    });
});
