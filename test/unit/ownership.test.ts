/**
 * The ownership rule (components/ownership/rule.ts), the check built on it and the guard's dynamic provider, against a
 * cluster held in memory: which objects are the platform's (this stack's mark, an earlier version's label, Pulumi's
 * hand beside the platform's namespaces), which are refused and how the refusal reads; an update that reads only the
 * names added since the last one, and every name again when the kubeconfig reaches another API server.
 */
import { describe, expect, it } from "vitest";
import { Claims, claimOfType, ObjectClaim, objectPath, releaseRecordPaths } from "../../components/ownership/claims";
import { checkOwnership, refusalMessage } from "../../components/ownership/check";
import type { ClusterAccess, MetadataReader } from "../../components/ownership/clusterReader";
import { clusterReadError } from "../../components/ownership/clusterReader";
import { GuardProps, ownershipProvider } from "../../components/ownership/provider";
import { judgeObject, judgeRelease, MAX_LISTED, ObservedMeta, RuleContext } from "../../components/ownership/rule";

const ME = "mara/dev";
const ctx = (more: Partial<RuleContext> = {}): RuleContext => ({ identity: ME, platformPresent: false, ...more });
const program = { origin: "program" as const };
const chart = { origin: "chart" as const, release: { name: "kic", namespace: "nginx-ingress" } };
const stackMark = (stack: string) => ({ annotations: { "mara.nginx.com/stack": stack } });
const LABEL = { labels: { "app.kubernetes.io/part-of": "mara" } };
const managed = (...managers: string[]) => ({ managedFields: managers.map((manager) => ({ manager })) });

describe("the ownership rule", () => {
    it("takes a free name as free, and this stack's mark as its own", () => {
        expect(judgeObject(program, undefined, ctx())).toEqual({ state: "free" });
        expect(judgeObject(program, { ...stackMark(ME), ...LABEL }, ctx())).toEqual({ state: "own" });
    });

    it("refuses another stack's object, whatever else it carries; without a stack of its own (mara doctor --kubeconfig) too", () => {
        expect(judgeObject(program, { ...stackMark("mara/prod"), ...LABEL, ...managed("pulumi-kubernetes-1a2b") }, ctx({ platformPresent: true }))).toEqual({ state: "another-stack", stack: "mara/prod" });
        expect(judgeObject(program, stackMark(ME), ctx({ identity: undefined }))).toEqual({ state: "another-stack", stack: ME });
    });

    it("takes an object with the platform's label and no stack mark for one an earlier version made (the upgrade in place)", () => {
        expect(judgeObject(program, LABEL, ctx())).toEqual({ state: "earlier", evidence: "label app.kubernetes.io/part-of=mara" });
    });

    it("takes an unlabelled object Pulumi applied for an earlier version's only beside the platform's namespaces (its ClusterIssuers)", () => {
        const issuer = managed("pulumi-kubernetes-5f3c1e2a", "cert-manager-clusterissuers");
        expect(judgeObject(program, issuer, ctx({ platformPresent: true })).state).toBe("earlier");
        expect(judgeObject(program, issuer, ctx({ platformPresent: false }))).toEqual({ state: "foreign", owner: "applied by pulumi-kubernetes-5f3c1e2a, cert-manager-clusterissuers" });
        // Client-side apply's manager counts as Pulumi's too.
        expect(judgeObject(program, managed("pulumi-kubernetes"), ctx({ platformPresent: true })).state).toBe("earlier");
        expect(judgeObject(program, managed("pulumi-kubernetes-like-tool"), ctx({ platformPresent: true })).state).toBe("earlier");
        expect(judgeObject(program, managed("not-pulumi-kubernetes"), ctx({ platformPresent: true })).state).toBe("foreign");
    });

    it("names who made what it refuses: Helm's release, Argo CD, the field managers (not the controllers that only write status)", () => {
        const helm = { labels: { "app.kubernetes.io/managed-by": "Helm" }, annotations: { "meta.helm.sh/release-name": "shop", "meta.helm.sh/release-namespace": "bos" }, ...managed("helm", "kube-controller-manager") };
        expect(judgeObject(program, helm, ctx())).toEqual({ state: "foreign", owner: "Helm release shop in namespace bos; applied by helm" });
        expect(judgeObject(program, { annotations: { "argocd.argoproj.io/tracking-id": "shop:/Namespace:bos" } }, ctx({ platformPresent: true }))).toEqual({
            state: "foreign",
            owner: "Argo CD (shop:/Namespace:bos)",
        });
        expect(judgeObject(program, managed("kubelet", "kube-controller-manager"), ctx())).toEqual({ state: "foreign", owner: "it carries no marks of who made it" });
        expect(judgeObject(program, managed("a", "b", "c", "d", "e", "f"), ctx())).toEqual({ state: "foreign", owner: "applied by a, b, c, d and 2 more" });
    });

    it("takes what Argo CD applied from the render for the platform's only where Argo CD delivers it", () => {
        const argo = managed("argocd-controller");
        expect(judgeObject(program, argo, ctx({ argoCdDelivers: true, platformPresent: true })).state).toBe("earlier");
        expect(judgeObject(program, argo, ctx({ argoCdDelivers: false, platformPresent: true })).state).toBe("foreign");
        expect(judgeObject(chart, argo, ctx({ argoCdDelivers: true })).state).toBe("earlier");
        expect(judgeObject(chart, argo, ctx())).toMatchObject({ state: "foreign" });
    });

    it("takes an object a chart creates as the platform's when Helm's annotations name the platform's release, and no other", () => {
        const by = (name: string, namespace: string) => ({ annotations: { "meta.helm.sh/release-name": name, "meta.helm.sh/release-namespace": namespace } });
        expect(judgeObject(chart, by("kic", "nginx-ingress"), ctx())).toEqual({ state: "own" });
        expect(judgeObject(chart, by("kic", "ingress"), ctx())).toEqual({ state: "foreign", owner: "Helm release kic in namespace ingress" });
        expect(judgeObject(chart, by("ingress-nginx", "ingress-nginx"), ctx()).state).toBe("foreign");
        // The platform's label is no proof for an object Helm makes: k3s's own IngressClass could carry anything.
        expect(judgeObject(chart, { ...LABEL, ...managed("pulumi-kubernetes-x") }, ctx({ platformPresent: true })).state).toBe("foreign");
    });

    it("judges a release by its namespace: Helm marks no release with who asked for it", () => {
        const record = (version: string, status: string, kind: "Secret" | "ConfigMap" = "Secret") => ({ kind, meta: { labels: { owner: "helm", name: "statsd", version, status } } });
        expect(judgeRelease([], { state: "foreign", owner: "x" })).toEqual({ state: "free" });
        expect(judgeRelease([record("1", "deployed")], { state: "own" })).toEqual({ state: "own" });
        expect(judgeRelease([record("1", "deployed")], { state: "earlier", evidence: "label" })).toEqual({ state: "earlier", evidence: "its namespace is the platform's" });
        expect(judgeRelease([record("1", "superseded"), record("2", "failed")], { state: "foreign", owner: "x" })).toEqual({
            state: "foreign",
            owner: "installed in a namespace the platform did not make, revision 2 failed",
        });
        expect(judgeRelease([record("3", "deployed", "ConfigMap")], { state: "another-stack", stack: "mara/prod" })).toEqual({
            state: "foreign",
            owner: "installed in stack mara/prod's namespace, revision 3 deployed, recorded in a ConfigMap",
        });
    });
});

describe("claims from Pulumi type tokens", () => {
    it("claims namespaces and cluster-scoped kinds, built-in and cert-manager's, and nothing namespaced or patched", () => {
        expect(claimOfType("kubernetes:core/v1:Namespace")).toEqual({ apiVersion: "v1", kind: "Namespace", resource: "namespaces", origin: "program" });
        expect(claimOfType("kubernetes:storage.k8s.io/v1:StorageClass")).toMatchObject({ apiVersion: "storage.k8s.io/v1", resource: "storageclasses" });
        expect(claimOfType("kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding")).toMatchObject({ resource: "clusterrolebindings" });
        expect(claimOfType("kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding")).toMatchObject({ resource: "validatingadmissionpolicybindings" });
        expect(claimOfType("kubernetes:cert-manager.io/v1:ClusterIssuer")).toMatchObject({ apiVersion: "cert-manager.io/v1", resource: "clusterissuers" });
        for (const t of ["kubernetes:core/v1:ConfigMap", "kubernetes:cert-manager.io/v1:Issuer", "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinitionPatch", "kubernetes:core/v1:NamespacePatch", "kubernetes:helm.sh/v3:Release", "pulumi:providers:kubernetes", "mara:platform:Platform"]) {
            expect(claimOfType(t), t).toBeUndefined();
        }
    });

    it("reads an object at its API path, and a release's records in both of Helm's stores", () => {
        expect(objectPath({ apiVersion: "v1", resource: "namespaces", name: "bos" })).toBe("/api/v1/namespaces/bos");
        expect(objectPath({ apiVersion: "rbac.authorization.k8s.io/v1", resource: "clusterroles", name: "mara:nfs-provisioner:x" })).toBe("/apis/rbac.authorization.k8s.io/v1/clusterroles/mara%3Anfs-provisioner%3Ax");
        expect(releaseRecordPaths({ name: "statsd", namespace: "prometheus" })).toEqual([
            "/api/v1/namespaces/prometheus/secrets?labelSelector=owner%3Dhelm%2Cname%3Dstatsd",
            "/api/v1/namespaces/prometheus/configmaps?labelSelector=owner%3Dhelm%2Cname%3Dstatsd",
        ]);
    });
});

/** A cluster held in memory: objects by API path, release records by list path; every read counted. */
class MemoryCluster {
    readonly reads: string[] = [];
    constructor(
        readonly objects: Record<string, ObservedMeta> = {},
        readonly lists: Record<string, ObservedMeta[]> = {},
        readonly server = "https://127.0.0.1:6443",
    ) {}
    reader(): MetadataReader {
        return {
            server: this.server,
            get: async (p) => {
                this.reads.push(p);
                return this.objects[p];
            },
            list: async (p) => {
                this.reads.push(p);
                return this.lists[p] ?? [];
            },
        };
    }
}

const ns = (name: string, remedy?: string): ObjectClaim => ({ apiVersion: "v1", kind: "Namespace", resource: "namespaces", name, origin: "program", ...(remedy ? { remedy } : {}) });
const issuer = (name: string): ObjectClaim => ({ apiVersion: "cert-manager.io/v1", kind: "ClusterIssuer", resource: "clusterissuers", name, origin: "program" });
const role: ObjectClaim = { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRole", resource: "clusterroles", name: "mara:nfs-provisioner:nfs-provisioner", origin: "program" };
const APP = "give Bank of Sirius another namespace: pulumi config set mara:siriusNamespace <name> (the Application's `namespace` argument)";
const CLAIMS: Claims = {
    objects: [ns("cert-manager"), ns("prometheus"), ns("bos", APP), issuer("selfsigned-issuer"), role],
    releases: [
        { name: "certmgr", namespace: "cert-manager" },
        { name: "statsd", namespace: "prometheus" },
    ],
};
const [STATSD_SECRETS] = releaseRecordPaths({ name: "statsd", namespace: "prometheus" });

describe("the check", () => {
    it("passes a cluster where every name is free, reading each name and each release's two stores once", async () => {
        const c = new MemoryCluster();
        const report = await checkOwnership(c.reader(), CLAIMS, { identity: ME });
        expect(report.refusals).toEqual([]);
        expect(c.reads).toHaveLength(CLAIMS.objects.length + 2 * CLAIMS.releases.length);
    });

    it("refuses the neighbours' objects and lists each with its owner and the way out", async () => {
        const c = new MemoryCluster(
            {
                "/api/v1/namespaces/bos": { name: "bos", labels: { team: "shop" }, ...managed("kubectl-create") },
                "/api/v1/namespaces/prometheus": { name: "prometheus", ...managed("helm") },
                [objectPath(role)]: { name: role.name, ...managed("kubectl-client-side-apply") },
                "/apis/cert-manager.io/v1/clusterissuers/selfsigned-issuer": { name: "selfsigned-issuer", ...stackMark("mara/prod") },
            },
            { [STATSD_SECRETS!]: [{ labels: { owner: "helm", name: "statsd", version: "1", status: "deployed" } }] },
        );
        const report = await checkOwnership(c.reader(), CLAIMS, { identity: ME });
        expect(refusalMessage(report.refusals, ME, c.server)).toBe(
            [
                "The platform will not take over objects it did not create on https://127.0.0.1:6443, so it created nothing there:",
                "  - Namespace prometheus exists and is not the platform's (applied by helm); no setting moves it: deploy the platform to another cluster, or have the other object removed first",
                `  - Namespace bos exists and is not the platform's (applied by kubectl-create); ${APP}`,
                "  - ClusterIssuer selfsigned-issuer exists and belongs to stack mara/prod; no setting moves it: deploy the platform to another cluster, or have the other object removed first",
                "  - ClusterRole mara:nfs-provisioner:nfs-provisioner exists and is not the platform's (applied by kubectl-client-side-apply); no setting moves it: deploy the platform to another cluster, or have the other object removed first",
                "  - Helm release statsd in namespace prometheus exists and is not the platform's (installed in a namespace the platform did not make, revision 1 deployed); no setting moves it: deploy the platform to another cluster, or have the other object removed first",
                "Every namespace and cluster-wide object the platform creates carries the label app.kubernetes.io/part-of=mara and the annotation mara.nginx.com/stack=<project>/<stack> (this stack: mara/dev); `mara doctor` runs the same check.",
            ].join("\n"),
        );
    });

    it("lets a stack upgrading in place keep what an earlier version made: labelled namespaces and ClusterRoles, and the ClusterIssuer Pulumi applied beside them", async () => {
        const c = new MemoryCluster(
            {
                "/api/v1/namespaces/cert-manager": { name: "cert-manager", ...LABEL, ...managed("pulumi-kubernetes-0c1d") },
                "/api/v1/namespaces/prometheus": { name: "prometheus", ...LABEL, ...managed("pulumi-kubernetes-77aa") },
                "/api/v1/namespaces/bos": { name: "bos", ...LABEL, ...managed("pulumi-kubernetes-9e0f") },
                [objectPath(role)]: { name: role.name, ...LABEL },
                "/apis/cert-manager.io/v1/clusterissuers/selfsigned-issuer": { name: "selfsigned-issuer", ...managed("pulumi-kubernetes-31f2") },
            },
            { [STATSD_SECRETS!]: [{ labels: { owner: "helm", name: "statsd", version: "4", status: "deployed" } }] },
        );
        const report = await checkOwnership(c.reader(), CLAIMS, { identity: ME });
        expect(report.refusals).toEqual([]);
        expect(report.objects.map((o) => o.verdict.state)).toEqual(["earlier", "earlier", "earlier", "earlier", "earlier"]);
        expect(report.releases.map((r) => r.verdict.state)).toEqual(["free", "earlier"]);
    });

    it("refuses an unlabelled ClusterIssuer Pulumi applied when none of the platform's namespaces is there: another program's", async () => {
        const c = new MemoryCluster({ "/apis/cert-manager.io/v1/clusterissuers/selfsigned-issuer": { name: "selfsigned-issuer", ...managed("pulumi-kubernetes-31f2") } });
        const report = await checkOwnership(c.reader(), CLAIMS, { identity: ME });
        expect(report.refusals.map((r) => r.what)).toEqual(["ClusterIssuer selfsigned-issuer"]);
    });

    it("judges a release outside the claimed namespaces by its namespace, read for the purpose", async () => {
        const claims: Claims = { objects: [], releases: [{ name: "x", namespace: "elsewhere" }] };
        const [secrets] = releaseRecordPaths({ name: "x", namespace: "elsewhere" });
        const c = new MemoryCluster({ "/api/v1/namespaces/elsewhere": { name: "elsewhere", ...stackMark(ME) } }, { [secrets!]: [{ labels: { version: "1", status: "deployed" } }] });
        expect((await checkOwnership(c.reader(), claims, { identity: ME })).releases[0]!.verdict).toEqual({ state: "own" });
        expect(c.reads).toContain("/api/v1/namespaces/elsewhere");
    });

    it("lists one screen of refusals and counts the rest", async () => {
        const many: Claims = { objects: Array.from({ length: 45 }, (_, i) => ns(`team-${i}`)), releases: [] };
        const c = new MemoryCluster(Object.fromEntries(many.objects.map((o) => [objectPath(o), { name: o.name, ...managed("kubectl") }])));
        const report = await checkOwnership(c.reader(), many, { identity: ME });
        const lines = refusalMessage(report.refusals, ME, c.server).split("\n");
        expect(lines).toHaveLength(1 + MAX_LISTED + 1 + 1);
        expect(lines.at(-2)).toBe(`  - and ${45 - MAX_LISTED} more`);
    });
});

describe("the guard's provider", () => {
    const access: ClusterAccess = { kubeconfig: "apiVersion: v1\nkind: Config\nclusters: []\n" };
    const props = (claims: Claims, more: Partial<GuardProps> = {}): GuardProps => ({ identity: ME, ...access, ...claims, ...more });
    const provider = (c: MemoryCluster, servers: Record<string, string> = {}) => ownershipProvider(() => c.reader(), (a) => servers[a.kubeconfig ?? ""] ?? c.server);

    it("creates after checking every name, and fails with the refusal message naming them, before anything else is created", async () => {
        const clean = new MemoryCluster();
        expect(await provider(clean).create!(props(CLAIMS))).toMatchObject({ id: "ownership" });
        expect(clean.reads).toHaveLength(9);
        const taken = new MemoryCluster({ "/api/v1/namespaces/bos": { name: "bos", ...managed("kubectl-create") } });
        await expect(provider(taken).create!(props(CLAIMS))).rejects.toThrow(/^The platform will not take over objects it did not create on https:\/\/127\.0\.0\.1:6443, so it created nothing there:\n {2}- Namespace bos exists/);
    });

    it("updates by reading only the names added since the last inputs", async () => {
        const c = new MemoryCluster();
        const olds = props({ objects: CLAIMS.objects.slice(0, 3), releases: CLAIMS.releases.slice(0, 1) });
        await provider(c).update!("ownership", olds, props(CLAIMS));
        expect(c.reads.sort()).toEqual([...new Set(["/api/v1/namespaces/prometheus", "/apis/cert-manager.io/v1/clusterissuers/selfsigned-issuer", objectPath(role), ...releaseRecordPaths(CLAIMS.releases[1]!)])].sort());
        const none = new MemoryCluster();
        await provider(none).update!("ownership", props(CLAIMS), props(CLAIMS, { kubeconfig: `${access.kubeconfig}# a rotated token\n` }));
        expect(none.reads).toEqual([]);
    });

    it("reads every name again when the kubeconfig now reaches another API server", async () => {
        const c = new MemoryCluster();
        const moved = `${access.kubeconfig}# elsewhere\n`;
        await provider(c, { [moved]: "https://10.0.0.9:6443" }).update!("ownership", props(CLAIMS), props(CLAIMS, { kubeconfig: moved }));
        expect(c.reads).toHaveLength(9);
    });

    it("fails, creating nothing, when the cluster cannot be read, with the reader's own words", async () => {
        const failing = ownershipProvider(
            () => ({
                server: "https://127.0.0.1:6443",
                get: async () => {
                    throw clusterReadError("https://127.0.0.1:6443 does not let the kubeconfig's user read it (GET /api/v1/namespaces/bos)");
                },
                list: async () => [],
            }),
            () => "https://127.0.0.1:6443",
        );
        await expect(failing.create!(props(CLAIMS))).rejects.toThrow(
            "The platform could not check that the names it creates are free or its own, so it created nothing on the cluster: https://127.0.0.1:6443 does not let the kubeconfig's user read it (GET /api/v1/namespaces/bos)",
        );
    });

    it("diffs equal inputs in any key order as no change, and anything else as an in-place update", async () => {
        const p = provider(new MemoryCluster());
        const a = props(CLAIMS) as unknown as Record<string, unknown>;
        const reordered = Object.fromEntries(Object.entries(a).reverse());
        expect(await p.diff!("ownership", a, reordered)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
        expect(await p.diff!("ownership", a, { ...a, objects: CLAIMS.objects.slice(1) })).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    });

    it("takes a cluster setting that a preview does not know yet as no change (a setting the provider was not given reads as unknown there)", async () => {
        const p = provider(new MemoryCluster());
        const a = props(CLAIMS) as unknown as Record<string, unknown>;
        const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
        expect(await p.diff!("ownership", a, { ...a, cluster: UNKNOWN, context: UNKNOWN })).toMatchObject({ changes: false });
        expect(await p.diff!("ownership", a, { ...a, kubeconfig: UNKNOWN })).toMatchObject({ changes: false });
        // Known values are compared: a context given where there was none is a change.
        expect(await p.diff!("ownership", a, { ...a, context: "prod" })).toMatchObject({ changes: true });
        // The list is never read from the provider, so an unknown list is a change.
        expect(await p.diff!("ownership", a, { ...a, objects: UNKNOWN })).toMatchObject({ changes: true });
    });
});
