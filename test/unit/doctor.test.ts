/** The pure parts of `mara doctor`: address ranges, distribution marks, credential expiry, version verdicts, the plan's numbers. */
import { describe, expect, it } from "vitest";
import { elasticsearchSpec } from "../../components/logstore";
import { addressRanges, overlapping, parseAddressRange, parseCidr, within } from "../../contracts/ipRanges";
import { credentialExpiry, jwtExpiry, versionFinding } from "../../cli/doctor/access";
import { cpuMillis, memoryMi } from "../../cli/doctor/capacity";
import { detectDistribution, METALLB_POOL_NAME, NodeInfo } from "../../cli/doctor/distribution";
import { METALLB_POOL } from "../../components/metalLb";
import { checkConflicts } from "../../cli/doctor/conflicts";
import type { KubeClient } from "../../cli/doctor/kubeClient";
import { doctorPlan, LOGSTORE_MEMORY } from "../../cli/doctor/plan";
import { validateConfig } from "../../config";
import { fixture } from "../support/config";
import { doctorExitCode } from "../../cli/doctor/report";

const node = (labels: Record<string, string> = {}, providerID?: string): NodeInfo => ({ metadata: { name: "n", labels }, spec: providerID ? { providerID } : {} });
const v = (gitVersion: string) => ({ gitVersion, major: "1", minor: "35" });

describe("address ranges", () => {
    it("parses CIDR blocks, first-last ranges and single addresses, and says what is wrong with the rest", () => {
        expect(parseAddressRange("192.168.1.240/28")).toEqual({ range: parseCidr("192.168.1.240/28") });
        expect(parseAddressRange("192.168.1.240 - 192.168.1.250")).toEqual({ range: { first: 3232236016, last: 3232236026 } });
        expect(parseAddressRange("10.0.0.7")).toEqual({ range: { first: 167772167, last: 167772167 } });
        expect(parseAddressRange("192.168.1.250-192.168.1.240")).toEqual({ problem: "ends (192.168.1.240) before it starts (192.168.1.250)" });
        expect(parseAddressRange("192.168.1.241/28")).toEqual({ problem: "has host bits set; the block starts at 192.168.1.240" });
        expect(parseAddressRange("192.168.1.0/33")).toEqual({ problem: "is not an IPv4 CIDR block" });
        expect(parseAddressRange("fd00::/64")).toEqual({ problem: "is not an IPv4 CIDR block" });
        expect(parseAddressRange("lab")).toEqual({ problem: "is neither an IPv4 CIDR block nor a first-last range" });
        expect(addressRanges(["lab", "10.0.0.0/31"])).toEqual([{ first: 167772160, last: 167772161 }]);
    });

    it("overlap and containment at the edges", () => {
        const svc = parseCidr("10.96.0.0/12")!;
        expect(overlapping(parseCidr("10.111.255.255/32")!, svc)).toBe(true);
        expect(overlapping(parseCidr("10.112.0.0/32")!, svc)).toBe(false);
        expect(within(parseCidr("10.96.0.0/16")!, svc)).toBe(true);
        expect(within(parseCidr("10.64.0.0/10")!, svc)).toBe(false);
    });
});

describe("distribution marks", () => {
    it("tells the distributions apart by version string, node labels and provider IDs", () => {
        expect(detectDistribution(v("v1.35.2-eks-1a2b3c"), [], false).name).toBe("EKS");
        expect(detectDistribution(v("v1.35.2"), [node({ "doks.digitalocean.com/node-id": "x" })], false).name).toBe("DOKS");
        expect(detectDistribution(v("v1.35.2"), [node({}, "linode://123")], false).name).toBe("LKE");
        expect(detectDistribution(v("v1.35.1+k3s1"), [], false).name).toBe("k3s");
        expect(detectDistribution(v("v1.35.1+rke2r1"), [], false).name).toBe("RKE2");
        expect(detectDistribution(v("v1.35.1"), [node({ "microk8s.io/cluster": "true" })], false).name).toBe("MicroK8s");
        expect(detectDistribution(v("v1.35.1"), [node({}, "kind://docker/kind/kind-control-plane")], true).name).toBe("kind");
        expect(detectDistribution(v("v1.35.1"), [node()], true)).toEqual({ name: "kubeadm", evidence: "ConfigMap kube-system/kubeadm-config" });
        expect(detectDistribution(v("v1.35.1"), [node()], false).name).toBe("unknown");
    });
});

describe("credential expiry", () => {
    it("reads a JWT's exp and a client certificate's end; exec plugins and plain tokens have none", () => {
        const jwt = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.sig`;
        expect(jwtExpiry(jwt({ exp: 1_800_000_000 }))).toEqual(new Date(1_800_000_000_000));
        expect(jwtExpiry("0123456789abcdef")).toBeUndefined();
        expect(credentialExpiry({ name: "u", token: jwt({ exp: 1_800_000_000 }) } as never)).toEqual({ kind: "bearer token", expires: new Date(1_800_000_000_000) });
        expect(credentialExpiry({ name: "u", exec: { command: "aws" } } as never)).toEqual({ kind: "exec plugin (aws)" });
        expect(credentialExpiry(null)).toEqual({ kind: "none" });
    });
});

describe("the version check", () => {
    const today = new Date("2026-11-20T12:00:00Z");
    it("passes a supported release, warns for one past upstream support, fails one the charts refuse", () => {
        expect(versionFinding(v("v1.35.4"), today).verdict).toBe("pass");
        expect(versionFinding(v("v1.34.9+k3s1"), today)).toMatchObject({ verdict: "warn", detail: "Kubernetes v1.34.9+k3s1: the charts install, but upstream support for 1.34 ended 2026-10-27" });
        expect(versionFinding(v("v1.24.17"), today)).toMatchObject({ verdict: "fail", detail: "Kubernetes v1.24.17: argo-cd@10.1.1 needs >=1.25.0; kube-prometheus-stack@88.5.3 needs >=1.25.0; nginx-ingress@2.6.4 needs >= 1.25.0" });
        expect(versionFinding(v("v1.38.0"), today).verdict).toBe("warn");
    });
});

describe("the plan's numbers", () => {
    it("Elasticsearch's memory per role is what the Logstore sets", () => {
        const spec = elasticsearchSpec("9.5.0", { master: 1, data: 1, ingest: 1, coordinating: 1 }, "10Gi", undefined, {}) as { nodeSets: { name: string; podTemplate: { spec: { containers: { resources: { requests: unknown } }[] } } }[] };
        for (const set of spec.nodeSets) {
            const requests = set.podTemplate.spec.containers[0].resources.requests;
            expect(requests, set.name).toEqual({ memory: LOGSTORE_MEMORY[set.name as keyof typeof LOGSTORE_MEMORY], cpu: LOGSTORE_MEMORY.cpu });
        }
    });

    it("sums the defaults: 4 Elasticsearch nodes, Kibana, nine Bank of Sirius workloads, the controller and ECK", () => {
        const plan = doctorPlan();
        expect(plan.consumers.reduce((s, c) => s + c.pods * c.memoryMi, 0)).toBe(5 * 1024 + 2 * 1024 + 512 * 5 + 64 * 3 + 128 + 128 + 150);
        expect(plan.namespaces).toEqual(["nginx-ingress", "cert-manager", "logstore", "logagent", "prometheus", "observability", "bos"]);
    });

    it("quantities", () => {
        expect(cpuMillis("250m")).toBe(250);
        expect(cpuMillis("2")).toBe(2000);
        expect(memoryMi("64Gi")).toBe(65536);
        expect(memoryMi("131072Ki")).toBe(128);
        expect(memoryMi("1G")).toBeCloseTo(953.67, 1);
    });
});

describe("the platform's own MetalLB pool", () => {
    it("is the one the doctor does not count as another MetalLB's", () => {
        expect(METALLB_POOL_NAME).toBe(METALLB_POOL);
    });
});

describe("conflicts on a cluster where Argo CD applied the platform (mara:delivery gitops)", () => {
    /** A cluster whose CRDs and IngressClass carry only the given annotations and field managers. */
    const cluster = (meta: { annotations?: Record<string, string>; managedFields?: { manager: string }[] }): KubeClient => ({
        server: "https://127.0.0.1:6443",
        context: "test",
        user: null,
        get: async (path: string) =>
            (path === "/apis/networking.k8s.io/v1/ingressclasses" ? { items: [{ metadata: { name: "nginx", ...meta }, spec: { controller: "nginx.org/ingress-controller" } }] } : { items: [] }) as never,
        find: async (path: string) =>
            (path.includes("/customresourcedefinitions/") || path === "/apis/networking.k8s.io/v1/ingressclasses/nginx"
                ? { metadata: { name: path.split("/").at(-1)!, ...meta }, spec: { controller: "nginx.org/ingress-controller" } }
                : undefined) as never,
        post: async () => ({}) as never,
    });
    const verdicts = async (client: KubeClient, gitops: boolean) => {
        const raw = fixture("minimal-aws");
        const values = gitops ? { ...raw.values, "mara:delivery": "gitops", "mara:gitopsRepoUrl": "https://git.example.com/platform-config.git", "mara:gitopsPath": "deploy/prod", "mara:fqdn": "mara.example.com" } : raw.values;
        const cfg = validateConfig({ ...raw, values }).config!;
        const findings = await checkConflicts(client, doctorPlan(cfg));
        return Object.fromEntries(findings.filter((x) => x.id !== "conflict-metallb").map((x) => [x.id, x.verdict]));
    };

    it("takes what Argo CD applied (its field manager or tracking annotation) as the platform's own; under Pulumi delivery, as another installation", async () => {
        const mine = { "conflict-cert-manager": "pass", "conflict-prometheus-operator": "pass", "conflict-eck": "pass", "conflict-opentelemetry-operator": "pass", "conflict-nginx-ingress": "pass", "ingress-class": "pass" };
        const byArgo = cluster({ managedFields: [{ manager: "argocd-controller" }] });
        const tracked = cluster({ annotations: { "argocd.argoproj.io/tracking-id": "platform-cert-manager:apiextensions.k8s.io/CustomResourceDefinition:/x" } });
        expect(await verdicts(byArgo, true)).toMatchObject(mine);
        expect(await verdicts(tracked, true)).toMatchObject(mine);
        const foreign = { "conflict-cert-manager": "fail", "conflict-prometheus-operator": "fail", "conflict-eck": "fail", "conflict-opentelemetry-operator": "fail", "conflict-nginx-ingress": "fail", "ingress-class": "fail" };
        expect(await verdicts(byArgo, false)).toMatchObject(foreign);
        // Something else's objects stay a conflict either way.
        expect(await verdicts(cluster({ managedFields: [{ manager: "kubectl-client-side-apply" }] }), true)).toMatchObject(foreign);
    });
});

describe("another Argo CD, where the platform installs its own (mara:delivery gitops, mara:gitopsArgoCd install)", () => {
    const GITOPS = { "mara:delivery": "gitops", "mara:gitopsRepoUrl": "https://git.example.com/platform-config.git", "mara:gitopsPath": "deploy/prod", "mara:fqdn": "mara.example.com" };
    const plan = (values: Record<string, string> = {}) => {
        const raw = fixture("minimal-aws");
        return doctorPlan(validateConfig({ ...raw, values: { ...raw.values, ...values } }).config!);
    };
    /** A cluster with an Argo CD CRD carrying `crdMeta`, and an argocd-server Deployment in `namespace` when given. */
    const cluster = (crdMeta: { annotations?: Record<string, string>; managedFields?: { manager: string }[] } | undefined, namespace?: string): KubeClient => ({
        server: "https://127.0.0.1:6443",
        context: "test",
        user: null,
        get: async (path: string) =>
            (path === "/apis/apps/v1/deployments" && namespace
                ? { items: [{ metadata: { name: "argocd-server", namespace }, spec: { template: { spec: { containers: [{ image: "quay.io/argoproj/argocd:v3.1.5" }] } } } }] }
                : { items: [] }) as never,
        find: async (path: string) => (crdMeta && path.endsWith("/applications.argoproj.io") ? ({ metadata: { name: "applications.argoproj.io", ...crdMeta } } as never) : undefined),
        post: async () => ({}) as never,
    });
    const argo = async (client: KubeClient, p: ReturnType<typeof plan>) => (await checkConflicts(client, p)).find((x) => x.id === "conflict-argo-cd");

    it("plans Argo CD's release and namespace only when the platform installs it", () => {
        expect(plan(GITOPS).releases).toContainEqual({ release: "argocd", namespace: "argocd" });
        expect(plan(GITOPS).namespaces).toContain("argocd");
        for (const other of [{}, { ...GITOPS, "mara:gitopsArgoCd": "external" }, { ...GITOPS, "mara:delivery": "handover" }]) {
            expect(plan(other).releases.map((r) => r.release)).not.toContain("argocd");
            expect(plan(other).namespaces).not.toContain("argocd");
        }
    });

    it("fails on another Argo CD running or owning its CRD; passes the platform's own release", async () => {
        const theirs = await argo(cluster({ annotations: { "meta.helm.sh/release-name": "argo-cd", "meta.helm.sh/release-namespace": "gitops" } }, "gitops"), plan(GITOPS));
        expect(theirs?.verdict).toBe("fail");
        expect(theirs?.detail).toContain("it already runs as gitops/argocd-server");
        expect(theirs?.detail).toContain("CRD applications.argoproj.io belongs to Helm release argo-cd in namespace gitops");
        expect(theirs?.detail).toContain("Helm refuses to install the platform's Argo CD");
        expect(theirs?.fix).toContain("helm -n gitops uninstall");
        expect(theirs?.fix).toContain("pulumi config set mara:gitopsArgoCd external");
        const ours = await argo(cluster({ annotations: { "meta.helm.sh/release-name": "argocd", "meta.helm.sh/release-namespace": "argocd" } }, "argocd"), plan(GITOPS));
        expect(ours).toMatchObject({ verdict: "pass", detail: "applications.argoproj.io is the platform's own" });
        expect((await argo(cluster(undefined), plan(GITOPS)))?.verdict).toBe("pass");
    });

    it("takes a self-managed Argo CD's CRD (Argo's own tracking marks, no Helm release) for another installation's", async () => {
        const selfManaged = cluster({ annotations: { "argocd.argoproj.io/tracking-id": "argocd:apiextensions.k8s.io/CustomResourceDefinition:/applications.argoproj.io" }, managedFields: [{ manager: "argocd-controller" }] });
        expect(await argo(selfManaged, plan(GITOPS))).toMatchObject({ verdict: "fail", detail: expect.stringContaining("CRD applications.argoproj.io exists, installed by something other than this platform") });
    });

    it("is no concern where the platform does not install Argo CD", async () => {
        const theirs = cluster({ annotations: { "meta.helm.sh/release-name": "argo-cd", "meta.helm.sh/release-namespace": "gitops" } }, "gitops");
        expect(await argo(theirs, plan())).toBeUndefined();
        expect(await argo(theirs, plan({ ...GITOPS, "mara:gitopsArgoCd": "external" }))).toBeUndefined();
    });
});

describe("the platform's names on the cluster, by the rule the program's ownership guard applies", () => {
    type Meta = Record<string, unknown>;
    /** A cluster holding `objects` (metadata by API path) and no workloads. */
    const cluster = (objects: Record<string, Meta>): KubeClient => ({
        server: "https://127.0.0.1:6443",
        context: "test",
        user: null,
        get: async () => ({ items: [] }) as never,
        find: async (path: string) => (objects[path] ? ({ metadata: objects[path] } as never) : undefined),
        post: async () => ({}) as never,
    });
    const byKubectl = { managedFields: [{ manager: "kubectl-create" }] };
    const LABEL = { labels: { "app.kubernetes.io/part-of": "mara" } };
    const planOf = (values: Record<string, string> = {}) => {
        const raw = fixture("mara-kubeconfig");
        return doctorPlan(validateConfig({ ...raw, values: { ...raw.values, ...values } }).config!);
    };
    const findings = async (objects: Record<string, Meta>, plan = planOf()) => Object.fromEntries((await checkConflicts(cluster(objects), plan)).map((f) => [f.id, f]));

    it("fails another team's namespace, says what really happens (nothing is taken over, on either path) and how to move the application", async () => {
        const f = await findings({ "/api/v1/namespaces/bos": { name: "bos", ...byKubectl } });
        expect(f.namespaces).toMatchObject({ verdict: "fail" });
        expect(f.namespaces!.detail).toBe(
            "Namespace bos exists and is not the platform's (applied by kubectl-create). The platform marks its namespaces with the label app.kubernetes.io/part-of=mara and this stack's annotation; the platform will not take it over: mara up stops here, and pulumi up run directly stops before creating anything (the program checks the same)",
        );
        expect(f.namespaces!.detail).not.toMatch(/creating it fails|destroy/);
        expect(f.namespaces!.fix).toBe("give Bank of Sirius another namespace: pulumi config set mara:siriusNamespace <name> (the Application's `namespace` argument)");
        expect(f["cluster-names"]).toMatchObject({ verdict: "pass" });
    });

    it("fails another stack's namespace by its mark, and passes this stack's own", async () => {
        const prod = await findings({ "/api/v1/namespaces/prometheus": { name: "prometheus", ...LABEL, annotations: { "mara.nginx.com/stack": "mara/prod" } } });
        expect(prod.namespaces!.detail).toMatch(/^Namespace prometheus exists and belongs to stack mara\/prod\./);
        expect(prod.namespaces!.fix).toBe("no setting moves it: deploy the platform to another cluster, or have the other object removed first");
        const mine = await findings({ "/api/v1/namespaces/prometheus": { name: "prometheus", ...LABEL, annotations: { "mara.nginx.com/stack": "mara/dev" } } });
        expect(mine.namespaces!.verdict).toBe("pass");
        // Pointed at a kubeconfig alone, the doctor knows no stack: any stack's mark is another stack's.
        const alone = (await checkConflicts(cluster({ "/api/v1/namespaces/prometheus": { name: "prometheus", annotations: { "mara.nginx.com/stack": "mara/dev" } } }), doctorPlan())).find((x) => x.id === "namespaces");
        expect(alone?.verdict).toBe("fail");
    });

    it("passes a stack upgrading in place: namespaces with only the platform's label, and the ClusterIssuer Pulumi applied beside them", async () => {
        const plan = planOf();
        const objects: Record<string, Meta> = Object.fromEntries(plan.namespaces.map((n) => [`/api/v1/namespaces/${n}`, { name: n, ...LABEL, managedFields: [{ manager: "pulumi-kubernetes-0a1b2c3d" }] }]));
        objects["/apis/cert-manager.io/v1/clusterissuers/selfsigned-issuer"] = { name: "selfsigned-issuer", managedFields: [{ manager: "pulumi-kubernetes-5e6f" }] };
        const f = await findings(objects, plan);
        expect([f.namespaces!.verdict, f["cluster-names"]!.verdict, f["ingress-class"]!.verdict]).toEqual(["pass", "pass", "pass"]);
        // The same ClusterIssuer with none of the platform's namespaces there is another Pulumi program's.
        const alone = await findings({ "/apis/cert-manager.io/v1/clusterissuers/selfsigned-issuer": { name: "selfsigned-issuer", managedFields: [{ manager: "pulumi-kubernetes-5e6f" }] } });
        expect(alone["cluster-names"]).toMatchObject({ verdict: "fail", detail: expect.stringMatching(/^ClusterIssuer selfsigned-issuer exists and is not the platform's \(applied by pulumi-kubernetes-5e6f\)\. /) });
    });

    it("checks the cluster-wide names of the add-ons the stack turns on, with the setting that moves each where one does", async () => {
        const plan = planOf({ "mara:nfsServer": "192.168.77.10", "mara:nfsPath": "/srv/nfs/mara", "mara:admissionPolicies": "warn" });
        expect(plan.owned.map((o) => `${o.kind} ${o.name}`)).toEqual(
            expect.arrayContaining(["ClusterRole mara-nfs-provisioner-runner", "StorageClass mara-nfs", "ValidatingAdmissionPolicy mara-no-privileged-containers", "IngressClass nginx"]),
        );
        const f = await findings(
            {
                "/apis/storage.k8s.io/v1/storageclasses/mara-nfs": { name: "mara-nfs", ...byKubectl },
                "/apis/rbac.authorization.k8s.io/v1/clusterroles/mara-nfs-provisioner-runner": { name: "mara-nfs-provisioner-runner", ...byKubectl },
                "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/mara-no-privileged-containers": { name: "mara-no-privileged-containers", annotations: { "meta.helm.sh/release-name": "guardrails", "meta.helm.sh/release-namespace": "policy" } },
            },
            plan,
        );
        expect(f["cluster-names"]!.verdict).toBe("fail");
        expect(f["cluster-names"]!.detail).toContain("StorageClass mara-nfs exists and is not the platform's (applied by kubectl-create)");
        expect(f["cluster-names"]!.detail).toContain("ValidatingAdmissionPolicy mara-no-privileged-containers exists and is not the platform's (Helm release guardrails in namespace policy)");
        expect(f["cluster-names"]!.fix).toBe(
            "give the NFS StorageClass another name: pulumi config set mara:nfsStorageClass <name> (NfsStorage's `storageClassName` argument); remove the other policy, or install none: pulumi config set mara:admissionPolicies none; for the others, no setting moves it: deploy the platform to another cluster, or have the other object removed first",
        );
    });
});

describe("exit codes", () => {
    const result = (verdicts: string[], reachable = true) => ({ server: "s", context: "c", reachable, findings: verdicts.map((verdict) => ({ id: verdict, group: "access" as const, title: "t", verdict: verdict as never, detail: "" })), seconds: 0 });
    it("0 with warnings, 6 with a failure, 7 when unreachable", () => {
        expect(doctorExitCode(result(["pass", "warn"]))).toBe(0);
        expect(doctorExitCode(result(["pass", "fail"]))).toBe(6);
        expect(doctorExitCode(result(["fail"], false))).toBe(7);
    });
});
