/**
 * The guardrails' admission side in a real API server: every ValidatingAdmissionPolicy and binding the platform
 * generates (policy/admission.ts) is accepted and type-checked by the API server's own CEL compiler; in warn mode,
 * where the API server reports every policy an object violates (one `Warning` header each) instead of only the
 * first that denies, each rule's failing example is reported by that rule's policy and no passing one is; and in
 * deny mode a failing example is refused. Server-side dry runs, so the examples never collide.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admissionPolicies, kubernetesFixtures, type KubeObject } from "../../policy";
import { startCluster, TestCluster } from "./cluster";
import { ApiError, mergePatch, request, send, waitFor } from "./kubeApi";

let cluster: TestCluster;
const fixtures = kubernetesFixtures();
const NAMESPACE = "team-a";

/** The collection path of an object, for the kinds the examples use. */
function pathOf(o: KubeObject): string {
    const ns = o.metadata?.namespace ?? "default";
    const apiVersion = String(o.apiVersion);
    const kind = String(o.kind);
    const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
    const plural = `${kind.toLowerCase()}${kind.endsWith("s") ? "es" : "s"}`.replace(/ys$/, "ies");
    const clusterScoped = ["StorageClass", "IngressClass", "Namespace"].includes(kind);
    const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
    return clusterScoped ? `${base}/${plural}` : `${base}/namespaces/${ns}/${plural}`;
}

/** A server-side dry run of creating `o`: the warnings when admitted, or the API server's message when refused. */
async function dryRun(o: KubeObject): Promise<{ refused?: string; warnings: string[] }> {
    try {
        return { warnings: (await send(cluster, "POST", `${pathOf(o)}?dryRun=All`, o)).warnings };
    } catch (e) {
        if (e instanceof ApiError && (e.status === 422 || e.status === 403 || e.status === 400)) return { refused: e.message, warnings: [] };
        throw e;
    }
}

beforeAll(async () => {
    cluster = await startCluster({ nodes: 1 });
    const namespaces = new Set([NAMESPACE, ...fixtures.flatMap((f) => [...f.pass, ...f.fail].map((o) => (o as KubeObject).metadata?.namespace).filter((n): n is string => !!n))]);
    for (const name of namespaces) await request(cluster, "POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name } });
    for (const o of admissionPolicies({ mode: "warn", config: { all: "mandatory" } })) {
        const path = o.kind === "ValidatingAdmissionPolicy" ? "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies" : "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings";
        await request(cluster, "POST", path, o);
    }
    // The API server picks policies up asynchronously; wait until the first rule's first failing example is reported.
    await waitFor("the admission policies to take effect", async () => ((await dryRun(fixtures[0]!.fail[0] as KubeObject)).warnings.length ? true : undefined), 60_000, 500);
});

afterAll(async () => {
    await cluster?.stop();
});

describe("the guardrails as ValidatingAdmissionPolicies in a real API server", () => {
    it("every policy's CEL compiles and type-checks against the kinds it matches, without warnings", async () => {
        const policies = await waitFor(
            "type checking of every policy",
            async () => {
                const list = (await request<{ items: any[] }>(cluster, "GET", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies")).items;
                return list.length === fixtures.length && list.every((p) => p.status?.typeChecking) ? list : undefined;
            },
            60_000,
            500,
        );
        const warnings = policies.flatMap((p) => (p.status.typeChecking.expressionWarnings ?? []).map((w: { fieldRef: string; warning: string }) => `${p.metadata.name} ${w.fieldRef}: ${w.warning}`));
        expect(warnings).toEqual([]);
    });

    describe.each(fixtures.map((f) => [f.rule, f] as const))("%s", (_rule, f) => {
        it("reports each failing example by the rule's own policy (or the API server's own validation refuses it first)", async () => {
            let byPolicy = 0;
            for (const o of f.fail) {
                const r = await dryRun(o as KubeObject);
                if (r.refused) {
                    expect(r.refused, `${JSON.stringify(o).slice(0, 200)}: refused by the API server's validation, not a policy`).not.toMatch(/ValidatingAdmissionPolicy/);
                    continue;
                }
                expect(r.warnings.join("\n"), JSON.stringify(o).slice(0, 200)).toContain(`${f.policyName}:`);
                byPolicy++;
            }
            expect(byPolicy, "at least one failing example reaches the policy").toBeGreaterThan(0);
        });

        it("admits each passing example without the rule's policy objecting", async () => {
            for (const o of f.pass) {
                const r = await dryRun(o as KubeObject);
                expect(r.refused, JSON.stringify(o).slice(0, 200)).toBeUndefined();
                expect(r.warnings.filter((w) => w.includes(`${f.policyName}:`)), JSON.stringify(o).slice(0, 200)).toEqual([]);
            }
        });
    });

    it("in deny mode refuses what warn mode reported", async () => {
        const f = fixtures.find((x) => x.rule === "container-resources")!;
        await mergePatch(cluster, `/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings/${f.policyName}`, { spec: { validationActions: ["Deny"] } });
        const refused = await waitFor("the binding to deny", async () => (await dryRun(f.fail[0] as KubeObject)).refused, 30_000, 500);
        expect(refused).toMatch(new RegExp(`ValidatingAdmissionPolicy '${f.policyName}'`));
        expect((await dryRun(f.pass[0] as KubeObject)).refused).toBeUndefined();
    });
});
