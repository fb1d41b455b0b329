/**
 * MetalLB and the NFS provisioner against a real Kubernetes 1.35 API server, with exactly what the program
 * declares: the program runs under mocks for an existing-cluster stack that asks for both, and its releases (the
 * vendored archives, the program's values) are installed by Helm 3 with `--wait`, its namespaces, pool,
 * advertisement and the NFS StorageClass applied as it registers them, then the ingress controller's release. The API
 * server's own validation (MetalLB's CRDs, with their CEL rules) accepts the custom resources, and the ingress
 * Service's address comes from the pool (the tier's load-balancer stand-in hands out the first MetalLB pool's
 * addresses, as MetalLB's controller would).
 *
 * The real engine's `pulumi up` of the same stack is the platform test's business; this test needs only Helm and
 * the API server, so it also runs where the Kubernetes provider plugin is not built.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { helmBinary } from "../../render/helm";
import { releasesOf, ReleaseSpec, typedObjectsOf } from "../../render/collect";
import { vendoredChart } from "../support/charts";
import { withClusterAddOns } from "../support/clusterAddOns";
import { fixture } from "../support/config";
import { runProgram } from "../support/program";
import { startCluster, TestCluster } from "./cluster";
import { ApiError, request, waitFor } from "./kubeApi";

let cluster: TestCluster;
let releases: ReleaseSpec[];
let objects: ReturnType<typeof typedObjectsOf>;

beforeAll(async () => {
    const [c, run] = await Promise.all([startCluster(), runProgram(withClusterAddOns(fixture("mara-kubeconfig", { secrets: { "mara:grafanaAdminPassword": "pw" } })))]);
    cluster = c;
    expect(run.error).toBeUndefined();
    releases = releasesOf(run.registrations);
    objects = typedObjectsOf(run.registrations);
});

afterAll(async () => {
    await cluster?.stop();
});

/** `helm install` of one of the program's releases from its vendored archive, waiting as Pulumi's Release does. */
function helmInstall(spec: ReleaseSpec): Promise<{ code: number; output: string }> {
    const values = path.join(cluster.dir, `${spec.release}-values.json`);
    fs.writeFileSync(values, JSON.stringify(spec.values));
    const args = ["install", spec.release, vendoredChart(spec.chart, spec.version)!, "--namespace", spec.namespace, "--values", values, "--kubeconfig", cluster.kubeconfig, "--wait", "--timeout", "5m", ...(spec.skipCrds ? ["--skip-crds"] : []),
        // nginx-ingress's values schema refers to Kubernetes definitions on the internet (see docs/testing.md); the render tier checks it offline.
        ...(spec.chart === "nginx-ingress" ? ["--skip-schema-validation"] : [])];
    return new Promise((resolve) => {
        execFile(helmBinary().path, args, { env: { ...process.env, HELM_CACHE_HOME: path.join(cluster.dir, "helm-cache"), HELM_CONFIG_HOME: path.join(cluster.dir, "helm-config") } }, (err, stdout, stderr) =>
            resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: `${stdout}\n${stderr}` }),
        );
    });
}

const release = (chart: string) => releases.find((r) => r.chart === chart)!;
const object = (kind: string, name?: string) => objects.find((o) => o.kind === kind && (name === undefined || (o.body.metadata as { name?: string }).name === name))!;

/** POSTs a typed object the program registers to its collection. */
async function apply(kind: string, name?: string): Promise<any> {
    const { apiVersion, body } = object(kind, name);
    const meta = body.metadata as { namespace?: string };
    const base = apiVersion.includes("/") ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const plural = `${kind.toLowerCase()}${kind.endsWith("s") ? "es" : "s"}`.replace(/classs$/, "classes");
    return request(cluster, "POST", `${base}${meta.namespace ? `/namespaces/${meta.namespace}` : ""}/${plural}`, body);
}

async function ensureNamespace(name: string): Promise<void> {
    const ns = objects.find((o) => o.kind === "Namespace" && (o.body.metadata as { name: string }).name === name)!;
    try {
        await request(cluster, "POST", "/api/v1/namespaces", ns.body);
    } catch (e) {
        if (!(e instanceof ApiError && e.status === 409)) throw e;
    }
}

describe("MetalLB and the NFS provisioner on a real API server", () => {
    it("MetalLB installs, and its pool and layer 2 advertisement are accepted", async () => {
        const spec = release("metallb");
        await ensureNamespace(spec.namespace);
        const ns = await request(cluster, "GET", `/api/v1/namespaces/${spec.namespace}`);
        expect(ns.metadata.labels["pod-security.kubernetes.io/enforce"]).toBe("privileged");
        const installed = await helmInstall(spec);
        expect(installed.code, installed.output).toBe(0);
        const pool = await apply("IPAddressPool");
        expect(pool.spec.addresses).toEqual(["192.168.1.240-192.168.1.250", "10.20.30.0/28"]);
        const l2 = await apply("L2Advertisement");
        expect(l2.spec.ipAddressPools).toEqual(["mara"]);
        // The API server checks MetalLB's CRD schema: a pool with a malformed field is refused.
        await expect(request(cluster, "POST", `/apis/metallb.io/v1beta1/namespaces/${spec.namespace}/ipaddresspools`, { apiVersion: "metallb.io/v1beta1", kind: "IPAddressPool", metadata: { name: "bad" }, spec: { addresses: "not-a-list" } })).rejects.toThrow(/422/);
    });

    it("the NFS provisioner's release installs from its chart, its pod becomes available under its RBAC, and the platform's StorageClass names it", async () => {
        const spec = release("nfs-subdir-external-provisioner");
        await ensureNamespace(spec.namespace);
        const installed = await helmInstall(spec);
        expect(installed.code, installed.output).toBe(0);
        const ns = spec.namespace;
        const available = await waitFor("the provisioner's Deployment to be available", async () => {
            const d = await request(cluster, "GET", `/apis/apps/v1/namespaces/${ns}/deployments/mara-nfs-provisioner`);
            return d.status?.availableReplicas === 1 ? d : undefined;
        });
        const env = available.spec.template.spec.containers[0].env as { name: string; value?: string }[];
        // The ServiceAccount may do what a provisioner does, asked of the API server's own authorizer.
        const sa = `system:serviceaccount:${ns}:mara-nfs-provisioner`;
        const may = async (verb: string, resource: string, group = "", namespace?: string) =>
            (await request(cluster, "POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", { apiVersion: "authorization.k8s.io/v1", kind: "SubjectAccessReview", spec: { user: sa, groups: ["system:serviceaccounts"], resourceAttributes: { verb, resource, group, namespace } } })).status.allowed as boolean;
        expect(await may("create", "persistentvolumes")).toBe(true);
        expect(await may("update", "persistentvolumeclaims", "", "sirius")).toBe(true);
        expect(await may("watch", "storageclasses", "storage.k8s.io")).toBe(true);
        expect(await may("update", "endpoints", "", ns)).toBe(true);
        expect(await may("get", "secrets", "", ns), "no Secrets").toBe(false);
        expect(await may("update", "endpoints", "", "kube-system"), "leader election only in its namespace").toBe(false);
        // The chart makes no StorageClass of its own; the component's is the only one naming the provisioner.
        const classes = await request<{ items: { metadata: { name: string }; provisioner: string }[] }>(cluster, "GET", "/apis/storage.k8s.io/v1/storageclasses");
        expect(classes.items.filter((c) => c.provisioner === "cluster.local/mara-nfs")).toEqual([]);
        const sc = await apply("StorageClass", "mara-nfs");
        expect(env.find((e) => e.name === "PROVISIONER_NAME")?.value).toBe(sc.provisioner);
        expect(env.find((e) => e.name === "NFS_SERVER")?.value).toBe("192.168.1.10");
        expect(env.find((e) => e.name === "NFS_PATH")?.value).toBe("/srv/nfs/mara");
        expect(available.spec.template.spec.volumes).toEqual([{ name: "nfs-subdir-external-provisioner-root", nfs: { server: "192.168.1.10", path: "/srv/nfs/mara" } }]);
        expect(sc.parameters).toEqual({ archiveOnDelete: "true" });
    });

    it("the ingress controller's LoadBalancer Service gets its address from the pool", async () => {
        const spec = release("nginx-ingress");
        await ensureNamespace(spec.namespace);
        const installed = await helmInstall(spec);
        expect(installed.code, installed.output).toBe(0);
        // The program creates the load balancer Service itself, after the release (components/ingressController/component.ts).
        const lb = objects.find((o) => o.kind === "Service" && (o.body.spec as { type?: string }).type === "LoadBalancer")!;
        await request(cluster, "POST", `/api/v1/namespaces/${spec.namespace}/services`, lb.body);
        const services = () => request(cluster, "GET", `/api/v1/namespaces/${spec.namespace}/services`);
        const ip = await waitFor("the ingress Service's address", async () => {
            const lb = (await services()).items.find((s: any) => s.spec.type === "LoadBalancer");
            return lb?.status?.loadBalancer?.ingress?.[0]?.ip as string | undefined;
        }).catch(async (e) => {
            throw new Error(`${(e as Error).message}\nstand-in errors: ${cluster.standIns.errors.join("; ")}\nservices: ${JSON.stringify((await services()).items.map((s: any) => [s.metadata.name, s.spec.type, s.spec.loadBalancerClass, s.status]))}`);
        });
        expect(ip).toBe("192.168.1.240");
    });
});
