/**
 * The guardrails' admission side in a real API server: every ValidatingAdmissionPolicy and binding the platform
 * generates (policy/admission.ts) is accepted and type-checked by the API server's own CEL compiler; in warn mode,
 * where the API server reports every policy an object violates (one `Warning` header each) instead of only the
 * first that denies, each rule's failing example is reported by that rule's policy and no passing one is; and in
 * deny mode a failing example is refused. Server-side dry runs, so the examples never collide. Then the scope: bound to
 * the platform's namespaces (the default on an existing cluster), deny mode refuses in those and leaves a neighbour's
 * namespace and unlabelled cluster-scoped objects alone, and a neighbour's object that breaks a rule can still be
 * updated; bound to the whole cluster, the neighbour is refused; and `mara doctor`'s admission check, against the same
 * API server, lists the neighbour's objects a cluster-wide scope would refuse.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as fs from "fs";
import { admissionPolicies, kubernetesFixtures, type KubeObject } from "../../policy";
import type { ServerVersion } from "../../cli/doctor/access";
import { checkAdmission } from "../../cli/doctor/admission";
import { kubeClient, kubeConfigFrom } from "../../cli/doctor/kubeClient";
import { doctorPlan } from "../../cli/doctor/plan";
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

/**
 * A dry run of a failing example, repeated until `policyName` reports it or the API server refuses it, within a bound
 * far above normal: the API server loads each policy and each binding on its own (an informer each), so the ones
 * created last can take effect seconds after the first, more so on a loaded machine.
 */
async function dryRunReported(o: KubeObject, policyName: string, boundMs = 60_000): Promise<{ refused?: string; warnings: string[] }> {
    const deadline = Date.now() + boundMs;
    for (;;) {
        const r = await dryRun(o);
        if (r.refused || r.warnings.some((w) => w.includes(`${policyName}:`)) || Date.now() > deadline) return r;
        await new Promise((resolve) => setTimeout(resolve, 500));
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
    // The API server picks policies up asynchronously; wait until the first rule's first failing example is reported
    // (each rule's failing examples wait for their own policy below).
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
                const r = await dryRunReported(o as KubeObject, f.policyName);
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

describe("the admission policies' scope in a real API server", () => {
    const PLATFORM = "platform-app";
    const NEIGHBOUR = "team-b";
    const BINDINGS = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings";
    const config = { all: "mandatory" } as const;
    const lb = (namespace: string, name = "web"): KubeObject => ({ apiVersion: "v1", kind: "Service", metadata: { name, namespace }, spec: { type: "LoadBalancer", selector: { app: name }, ports: [{ port: 80 }] } });
    const unbounded = (namespace: string): KubeObject => ({
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name: "web", namespace },
        spec: { replicas: 0, selector: { matchLabels: { app: "web" } }, template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "web", image: "registry.example.org/web@sha256:" + "a".repeat(64) }] } } },
    });
    const defaultClass = (labels: Record<string, string>): KubeObject => ({
        apiVersion: "networking.k8s.io/v1",
        kind: "IngressClass",
        metadata: { name: `other-${Object.keys(labels).length}`, labels, annotations: { "ingressclass.kubernetes.io/is-default-class": "true" } },
        spec: { controller: "example.com/other" },
    });
    const bind = async (objects: KubeObject[]) => {
        for (const b of objects.filter((o) => o.kind === "ValidatingAdmissionPolicyBinding")) await request(cluster, "POST", BINDINGS, b);
    };

    beforeAll(async () => {
        for (const name of [PLATFORM, NEIGHBOUR]) await request(cluster, "POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name } });
        // The neighbour's objects, there before the platform's policies: a Deployment without resources, a LoadBalancer
        // Service. The bindings above (one of them denying) go first, and the API server must have seen them go.
        await request(cluster, "DELETE", BINDINGS);
        await waitFor("no binding to deny", async () => ((await dryRun(unbounded(NEIGHBOUR))).refused ? undefined : true), 30_000, 500);
        await request(cluster, "POST", `/apis/apps/v1/namespaces/${NEIGHBOUR}/deployments`, unbounded(NEIGHBOUR));
        await request(cluster, "POST", `/api/v1/namespaces/${NEIGHBOUR}/services`, lb(NEIGHBOUR, "shop"));
        await bind(admissionPolicies({ mode: "deny", config, namespaces: [PLATFORM] }));
        await waitFor("the scoped bindings to deny", async () => (await dryRun(lb(PLATFORM))).refused, 30_000, 500);
    }, 120_000);

    it("refuses a LoadBalancer Service in the platform's namespace, and admits the neighbour's in its own", async () => {
        expect((await dryRun(lb(PLATFORM))).refused).toMatch(/ValidatingAdmissionPolicy 'mara-load-balancer-namespace'/);
        const neighbour = await dryRun(lb(NEIGHBOUR));
        expect(neighbour.refused).toBeUndefined();
        expect(neighbour.warnings.filter((w) => w.includes("mara-"))).toEqual([]);
    });

    it("lets the neighbour update its Deployment that breaks a rule, and refuses the same Deployment in the platform's namespace", async () => {
        await mergePatch(cluster, `/apis/apps/v1/namespaces/${NEIGHBOUR}/deployments/web`, { metadata: { labels: { updated: "yes" } } });
        expect((await request(cluster, "GET", `/apis/apps/v1/namespaces/${NEIGHBOUR}/deployments/web`)).metadata.labels).toEqual({ updated: "yes" });
        expect((await dryRun(unbounded(PLATFORM))).refused).toMatch(/ValidatingAdmissionPolicy 'mara-container-resources'/);
    });

    it("judges a cluster-scoped object only when it carries the platform's label", async () => {
        expect((await dryRun(defaultClass({}))).refused).toBeUndefined();
        expect((await dryRun(defaultClass({ "app.kubernetes.io/part-of": "mara" }))).refused).toMatch(/ValidatingAdmissionPolicy 'mara-default-ingress-class'/);
    });

    it("mara doctor's check lists the neighbour's objects a cluster-wide scope would refuse, and warns when that scope is chosen in deny mode", async () => {
        const client = kubeClient(kubeConfigFrom(fs.readFileSync(cluster.kubeconfig, "utf8")));
        const version = await client.get<ServerVersion>("/version");
        const plan = { ...doctorPlan(), namespaces: [PLATFORM], admissionPolicies: true, admissionMode: "deny" as const, admissionScope: "platform" as const };
        const findings = await checkAdmission(client, plan, version);
        expect(findings.find((f) => f.id === "admission-policies-api")).toMatchObject({ verdict: "pass" });
        const scoped = findings.find((f) => f.id === "admission-policy-scope")!;
        expect(scoped.verdict).toBe("pass");
        expect(scoped.detail).toMatch(/^the policies judge only the platform's namespaces; (at least )?\d+ objects? outside the platform's namespaces/);
        expect(scoped.items).toEqual(expect.arrayContaining([expect.stringMatching(/^team-b\/Deployment web \[container-resources\]: container "web" lacks a CPU request/), expect.stringMatching(/^team-b\/Service shop \[load-balancer-namespace\]/)]));
        // A Deployment's ReplicaSet is its owner's business: it is not listed twice.
        expect(scoped.items!.filter((i) => i.startsWith("team-b/ReplicaSet"))).toEqual([]);
        const cluster_ = (await checkAdmission(client, { ...plan, admissionScope: "cluster" }, version)).find((f) => f.id === "admission-policy-scope")!;
        expect(cluster_.verdict).toBe("warn");
        expect(cluster_.detail).toContain("with mara:admissionPolicyScope cluster in deny mode, the API server will refuse their next update");
        expect(cluster_.fix).toContain("pulumi config set mara:admissionPolicyScope platform");
    });

    it("bound to the whole cluster, refuses the neighbour's LoadBalancer Service too", async () => {
        await request(cluster, "DELETE", `${BINDINGS}/mara-load-balancer-namespace`);
        await bind(admissionPolicies({ mode: "deny", config }).filter((o) => o.metadata?.name === "mara-load-balancer-namespace"));
        const refused = await waitFor("the cluster-wide binding to deny", async () => (await dryRun(lb(NEIGHBOUR))).refused, 30_000, 500);
        expect(refused).toMatch(/ValidatingAdmissionPolicy 'mara-load-balancer-namespace'/);
    });
});
