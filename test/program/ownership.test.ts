/**
 * The ownership guard in the whole program (components/ownership/guard.ts), under mocks, for the stacks that create
 * the most names: every Kubernetes object the program registers waits for the one guard; the guard's list is exactly
 * the namespaces, cluster-scoped objects and Helm releases the program registers, derived from the registrations, each
 * object carrying the platform's marks; and `mara doctor`'s plan names the same objects, so the doctor and the guard
 * judge the same list by the same rule. A first preview registers the guard too (it reads nothing there).
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { doctorPlan } from "../../cli/doctor/plan";
import { validateConfig, type RawConfig } from "../../config";
import { claimOfType, ObjectClaim, RELEASE_TYPE, ReleaseClaim } from "../../components/ownership/claims";
import { fixture } from "../support/config";
import { isWrappedSecret, unwrapSecrets, type Registration } from "../support/mocks";
import { runProgram } from "../support/program";

const withValues = (raw: RawConfig, values: Record<string, string>): RawConfig => ({ ...raw, values: { ...raw.values, ...values } });
/** An existing cluster with every add-on that creates names: MetalLB, NFS, the admission policies, the ACME issuer. */
const EVERYTHING = () =>
    withValues(fixture("mara-kubeconfig"), {
        "mara:metallbAddresses": '["192.168.77.240-192.168.77.250"]',
        "mara:nfsServer": "192.168.77.10",
        "mara:nfsPath": "/srv/nfs/mara",
        "mara:admissionPolicies": "deny",
        "mara:tlsIssuer": "acme",
        "mara:acmeEmail": "ops@example.com",
        "mara:siriusNamespace": "shop",
    });
const STACKS: Record<string, () => RawConfig> = {
    "mara-kubeconfig": () => fixture("mara-kubeconfig"),
    "kubeconfig with every add-on": EVERYTHING,
    "minimal-aws": () => fixture("minimal-aws"),
};
const GUARD = "pulumi-nodejs:dynamic:Resource";
const isGuard = (r: Registration) => r.type === GUARD && /-ownership(-\d+)?$/.test(r.name);
const kubernetes = (r: Registration) => r.custom && r.type.startsWith("kubernetes:");
type Meta = { name?: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
const metaOf = (r: Registration) => (unwrapSecrets(r.inputs) as { metadata?: Meta }).metadata ?? {};
const key = (c: Pick<ObjectClaim, "kind" | "name">) => `${c.kind} ${c.name}`;

describe.each(Object.keys(STACKS))("the ownership guard in the program (%s)", { timeout: 240_000 }, (stack) => {
    let run: Awaited<ReturnType<typeof runProgram>>;
    let guard: Registration;
    let inputs: { identity: string; objects: ObjectClaim[]; releases: ReleaseClaim[]; kubeconfig: string; context?: string };

    it("registers one guard, and every Kubernetes object waits for it", async () => {
        run = await runProgram(STACKS[stack]!());
        expect(run.error).toBeUndefined();
        const guards = run.registrations.filter(isGuard);
        expect(guards.map((g) => g.name)).toEqual(["platform-ownership"]);
        guard = guards[0]!;
        inputs = unwrapSecrets(guard.inputs) as typeof inputs;
        const objects = run.registrations.filter(kubernetes);
        expect(objects.length).toBeGreaterThan(50);
        expect(objects.filter((r) => !r.dependencies.includes(guard.urn!)).map((r) => `${r.type} ${r.name}`)).toEqual([]);
    });

    it("lists exactly the namespaces, cluster-scoped objects and releases the program registers, plus the fixed cluster-wide names its charts make", () => {
        const registered = run.registrations.filter((r) => kubernetes(r) && claimOfType(r.type)).map((r) => `${claimOfType(r.type)!.kind} ${metaOf(r).name}`);
        expect(inputs.objects.filter((o) => o.origin === "program").map(key).sort()).toEqual(registered.sort());
        // The ingress controller's IngressClass; on a stack with NFS, the provisioner chart's ClusterRole and binding.
        const nfsRelease = { name: "mara-nfs-provisioner", namespace: "nfs-provisioner" };
        const nfs = run.registrations.some((r) => r.type === RELEASE_TYPE && r.inputs!.name === nfsRelease.name);
        expect(inputs.objects.filter((o) => o.origin === "chart")).toEqual([
            ...(nfs
                ? [
                      { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRole", resource: "clusterroles", name: "mara-nfs-provisioner-runner", origin: "chart", release: nfsRelease },
                      { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRoleBinding", resource: "clusterrolebindings", name: "run-mara-nfs-provisioner", origin: "chart", release: nfsRelease },
                  ]
                : []),
            { apiVersion: "networking.k8s.io/v1", kind: "IngressClass", resource: "ingressclasses", name: "nginx", origin: "chart", release: { name: "kic", namespace: "nginx-ingress" } },
        ]);
        const releases = run.registrations.filter((r) => r.type === RELEASE_TYPE).map((r) => `${String(r.inputs!.namespace)}/${String(r.inputs!.name)}`);
        expect(inputs.releases.map((r) => `${r.namespace}/${r.name}`).sort()).toEqual(releases.sort());
        expect(new Set(inputs.objects.map(key)).size, "no name claimed twice").toBe(inputs.objects.length);
    });

    it("leaves no object without a namespace unclaimed: every cluster-scoped kind the program creates is known", () => {
        const unclaimed = run.registrations.filter((r) => kubernetes(r) && r.type !== RELEASE_TYPE && !r.type.endsWith("Patch") && !claimOfType(r.type) && !metaOf(r).namespace);
        expect(unclaimed.map((r) => `${r.type} ${r.name}`)).toEqual([]);
    });

    it("marks every claimed object with the platform's label and this stack's annotation", () => {
        expect(inputs.identity).toBe("mara/dev");
        for (const r of run.registrations.filter((x) => kubernetes(x) && claimOfType(x.type))) {
            expect(metaOf(r).labels?.["app.kubernetes.io/part-of"], r.name).toBe("mara");
            expect(metaOf(r).annotations?.["mara.nginx.com/stack"], r.name).toBe("mara/dev");
        }
        // The CRDs the platform applies over whoever installed them are definitions it shares, and get no mark.
        for (const r of run.registrations.filter((x) => x.type.endsWith("CustomResourceDefinitionPatch"))) expect(metaOf(r).annotations?.["mara.nginx.com/stack"], r.name).toBeUndefined();
    });

    it("reads the cluster through the Kubernetes provider's own kubeconfig and context, kept secret", () => {
        const provider = run.registrations.find((r) => r.type === "pulumi:providers:kubernetes")!;
        expect(isWrappedSecret(guard.inputs!.kubeconfig)).toBe(true);
        expect(inputs.kubeconfig).toBe(unwrapSecrets(provider.inputs!.kubeconfig));
        expect(inputs.context).toBe(provider.inputs!.context);
    });
});

describe("the doctor's plan and the guard", { timeout: 240_000 }, () => {
    it.each(["mara-kubeconfig", "kubeconfig with every add-on", "minimal-aws"])("name the same objects, and every release is in a namespace the doctor judges (%s)", async (stack) => {
        const raw = STACKS[stack]!();
        const run = await runProgram(raw);
        const guarded = unwrapSecrets(run.registrations.find(isGuard)!.inputs) as { objects: ObjectClaim[]; releases: ReleaseClaim[] };
        const plan = doctorPlan(validateConfig(raw).config!);
        const comparable = (o: ObjectClaim) => ({ apiVersion: o.apiVersion, kind: o.kind, resource: o.resource, name: o.name, origin: o.origin, release: o.release, remedy: o.remedy });
        expect([...plan.owned].map(comparable).sort((a, b) => key(a).localeCompare(key(b)))).toEqual(guarded.objects.map(comparable).sort((a, b) => key(a).localeCompare(key(b))));
        for (const r of guarded.releases) expect(plan.namespaces, `${r.namespace}/${r.name}`).toContain(r.namespace);
        expect(plan.identity).toBe("mara/dev");
    });
});

describe("a first preview", { timeout: 240_000 }, () => {
    it("registers the guard with its list known and every object after it", async () => {
        const run = await runProgram(fixture("mara-kubeconfig"), { preview: true });
        expect(run.error).toBeUndefined();
        const guard = run.registrations.find(isGuard)!;
        expect((unwrapSecrets(guard.inputs) as { objects: unknown[] }).objects.length).toBeGreaterThan(5);
        expect(run.registrations.filter((r) => kubernetes(r) && !r.dependencies.includes(guard.urn!)).map((r) => r.name)).toEqual([]);
    });
});

describe("every component that puts objects on a cluster", () => {
    /** Component classes and whether their files build objects on a cluster (typed objects, releases, namespaces, CRDs). */
    const components = () => {
        const dir = path.join(__dirname, "..", "..", "components");
        // The top level's components, and each add-on unit's (components/<unit>/component.ts).
        const units = fs.readdirSync(dir).filter((d) => fs.existsSync(path.join(dir, d, "component.ts")));
        const files = [...fs.readdirSync(dir).filter((f) => f.endsWith(".ts")), ...units.map((u) => path.join(u, "component.ts"))].map((f) => path.join(dir, f));
        return files
            .map((f) => ({ file: path.relative(dir, f), text: fs.readFileSync(f, "utf8") }))
            .filter((f) => /extends pulumi\.ComponentResource/.test(f.text))
            .map((f) => ({ ...f, builds: /new k8s\.(?!Provider\b)|helmRelease\(|platformNamespace\(|chartCrdResources\(|grafanaDashboard\(|kibanaSetup|sirius[A-Z]\w*\(/.test(f.text) }));
    };

    it("builds itself with guardedOptions, so that it has a guard when a library user builds it alone", () => {
        const found = components();
        expect(found.filter((c) => c.builds).length).toBeGreaterThanOrEqual(12);
        expect(found.filter((c) => c.builds && !/super\("mara:[^"]+", name, \{\}, guardedOptions\(name, opts\)\)/.test(c.text)).map((c) => c.file)).toEqual([]);
    });
});
