/**
 * `mara render` against `pulumi up`: the render of a stack applied with the real kubectl (`apply --server-side`,
 * wave by wave in the order Argo CD's first sync takes, render/sync/) to a fresh test cluster, and what the
 * objects of the two clusters have in common, compared object by object. The differences the comparison allows
 * are the documented ones (docs/gitops.md, "What differs from pulumi up"):
 * - Helm's release records (Secrets of type `helm.sh/release.v1`) exist only where Helm installed;
 * - Helm hooks: `pulumi up` runs them and Helm deletes them by their delete policy; a render carries them as Argo CD
 *   hooks, which a sync (not this apply of the Sync phase) runs;
 * - the Secrets a render leaves to the secret store: here created beforehand with stand-in values, under the same
 *   names, so that what mounts them can be applied;
 * - the ServiceAccount, Roles and bindings of the charts' hook Jobs ({@link HOOK_RBAC}): Helm deletes them when
 *   their hook succeeds, a render keeps them as ordinary objects (docs/gitops.md, "Helm hooks").
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import program from "../../index";
import { validateConfig, RawConfig } from "../../config";
import { renderPlatform } from "../../render/render";
import { applicationWaves, asOneSync } from "../../render/sync/check";
import { argoOrder } from "../../render/sync/replay";
import { syncObjectsOf } from "../../render/sync/objects";
import { ENGINE_BIN, TestCluster } from "./cluster";
import { ApiEndpoint, request } from "./kubeApi";

/** `kubectl <args>` against a test cluster. */
function kubectl(cluster: TestCluster, args: readonly string[]): Promise<{ code: number; out: string }> {
    return new Promise((resolve) => {
        execFile(path.join(ENGINE_BIN, "kubectl"), ["--kubeconfig", cluster.kubeconfig, ...args], { maxBuffer: 64 * 1024 * 1024, timeout: 300_000 }, (err, stdout, stderr) =>
            resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
        );
    });
}

/**
 * Renders `raw` as `mara render` does (Secrets left out) and applies it to `cluster` wave by wave.
 *
 * @returns the kubectl errors of each wave (empty when everything was accepted).
 */
export async function renderAndApply(raw: RawConfig, cluster: TestCluster): Promise<string[]> {
    const rendered = await renderPlatform({ raw, config: validateConfig(raw).config!, program, secrets: { mode: "omit" } });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-render-parity-"));
    const errors: string[] = [];
    try {
        const bySecret = new Map<string, string[]>();
        for (const s of rendered.secrets) bySecret.set(`${s.namespace}/${s.secret}`, [...(bySecret.get(`${s.namespace}/${s.secret}`) ?? []), s.key]);
        for (const [ref, keys] of bySecret) {
            const [namespace, name] = ref.split("/") as [string, string];
            await kubectl(cluster, ["create", "namespace", namespace]);
            const r = await kubectl(cluster, ["create", "secret", "generic", "-n", namespace, name, ...keys.map((k) => `--from-literal=${k}=stand-in`)]);
            if (r.code !== 0) errors.push(`secret ${ref}: ${r.out}`);
        }
        const objects = asOneSync(syncObjectsOf(rendered.files), applicationWaves(rendered.files)).filter((o) => o.phases.includes("Sync"));
        for (const wave of [...new Set(objects.map((o) => o.wave))].sort((a, b) => a - b)) {
            const inWave = objects.filter((o) => o.wave === wave).sort(argoOrder);
            const folder = fs.mkdtempSync(path.join(dir, `wave${wave}-`));
            inWave.forEach((o, i) => fs.writeFileSync(path.join(folder, `${String(i).padStart(4, "0")}.yaml`), rendered.files.get(o.file)!));
            const r = await kubectl(cluster, ["apply", "--server-side", "--field-manager", "mara-render", "-f", folder]);
            if (r.code !== 0) errors.push(`wave ${wave}: ${r.out.split("\n").filter((l) => /error|Error|invalid/.test(l)).slice(0, 10).join("\n")}`);
            for (const crd of inWave.filter((o) => o.object.kind === "CustomResourceDefinition")) {
                await kubectl(cluster, ["wait", "--for", "condition=Established", "--timeout", "60s", `crd/${crd.ref.name}`]);
            }
        }
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
    return errors;
}

/**
 * What only a render has: the RBAC of the charts' hook Jobs (cert-manager's start-up check, kube-prometheus-stack's
 * admission-certificate Jobs), Helm hooks with `hook-succeeded` that a render turns into ordinary objects. Named one
 * by one, so a chart that adds one shows here.
 */
export const HOOK_RBAC: readonly string[] = [
    "ClusterRole prometheus-kube-prometheus-admission",
    "ClusterRoleBinding prometheus-kube-prometheus-admission",
    "Role cert-manager/certmgr-cert-manager-startupapicheck:create-cert",
    "Role prometheus/prometheus-kube-prometheus-admission",
    "RoleBinding cert-manager/certmgr-cert-manager-startupapicheck:create-cert",
    "RoleBinding prometheus/prometheus-kube-prometheus-admission",
    "ServiceAccount cert-manager/certmgr-cert-manager-startupapicheck",
    "ServiceAccount prometheus/prometheus-kube-prometheus-admission",
];

/** Collections compared: what the program and its charts create (not what controllers make from them). */
const COLLECTIONS: readonly { kind: string; path: string }[] = [
    { kind: "Namespace", path: "/api/v1/namespaces" },
    { kind: "ServiceAccount", path: "/api/v1/serviceaccounts" },
    { kind: "ConfigMap", path: "/api/v1/configmaps" },
    { kind: "Secret", path: "/api/v1/secrets" },
    { kind: "Service", path: "/api/v1/services" },
    { kind: "Deployment", path: "/apis/apps/v1/deployments" },
    { kind: "StatefulSet", path: "/apis/apps/v1/statefulsets" },
    { kind: "DaemonSet", path: "/apis/apps/v1/daemonsets" },
    { kind: "Role", path: "/apis/rbac.authorization.k8s.io/v1/roles" },
    { kind: "RoleBinding", path: "/apis/rbac.authorization.k8s.io/v1/rolebindings" },
    { kind: "ClusterRole", path: "/apis/rbac.authorization.k8s.io/v1/clusterroles" },
    { kind: "ClusterRoleBinding", path: "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings" },
    { kind: "CustomResourceDefinition", path: "/apis/apiextensions.k8s.io/v1/customresourcedefinitions" },
    { kind: "Ingress", path: "/apis/networking.k8s.io/v1/ingresses" },
    { kind: "IngressClass", path: "/apis/networking.k8s.io/v1/ingressclasses" },
    { kind: "NetworkPolicy", path: "/apis/networking.k8s.io/v1/networkpolicies" },
    { kind: "StorageClass", path: "/apis/storage.k8s.io/v1/storageclasses" },
    { kind: "ValidatingWebhookConfiguration", path: "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations" },
    { kind: "MutatingWebhookConfiguration", path: "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations" },
    { kind: "ServiceMonitor", path: "/apis/monitoring.coreos.com/v1/servicemonitors" },
    { kind: "IPAddressPool", path: "/apis/metallb.io/v1beta1/ipaddresspools" },
    { kind: "L2Advertisement", path: "/apis/metallb.io/v1beta1/l2advertisements" },
];

/** What is compared of an object beyond its identity: the fields both deliveries must agree on. */
function essentials(kind: string, o: any): unknown {
    const pod = o.spec?.template?.spec;
    switch (kind) {
        case "Deployment":
        case "StatefulSet":
        case "DaemonSet":
            return { replicas: o.spec.replicas, images: [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])].map((c: any) => `${c.name}=${c.image}`), serviceAccount: pod?.serviceAccountName };
        case "Service":
            return { type: o.spec.type, ports: (o.spec.ports ?? []).map((p: any) => `${p.name ?? ""}:${p.port}/${p.protocol}->${p.targetPort}`).sort() };
        case "ConfigMap":
            return Object.keys(o.data ?? {}).sort();
        case "Ingress":
            return { class: o.spec.ingressClassName, rules: o.spec.rules };
        case "ClusterRole":
        case "Role":
            return o.rules;
        case "IPAddressPool":
        case "L2Advertisement":
        case "StorageClass":
            return o.spec ?? { provisioner: o.provisioner, parameters: o.parameters, reclaimPolicy: o.reclaimPolicy };
        default:
            return undefined;
    }
}

/** The system's own objects, there before anything was deployed or made by its controllers in every namespace. */
function systems(kind: string, o: any): boolean {
    const ns = o.metadata.namespace ?? o.metadata.name;
    if (["kube-system", "kube-public", "kube-node-lease", "default"].includes(ns) && (kind === "Namespace" || o.metadata.namespace)) return true;
    if (kind === "ServiceAccount" && o.metadata.name === "default") return true;
    if (kind === "ConfigMap" && o.metadata.name === "kube-root-ca.crt") return true;
    if ((kind === "ClusterRole" || kind === "ClusterRoleBinding") && (o.metadata.name.startsWith("system:") || ["admin", "edit", "view", "cluster-admin"].includes(o.metadata.name))) return true;
    if (kind === "StorageClass" && o.metadata.name === "standard") return true;
    return false;
}

/** Every object of the compared kinds in a cluster, keyed `Kind namespace/name`, with its essentials. */
export async function inventory(ep: ApiEndpoint): Promise<Map<string, unknown>> {
    const out = new Map<string, unknown>();
    for (const c of COLLECTIONS) {
        let items: any[];
        try {
            items = (await request<{ items: any[] }>(ep, "GET", c.path)).items;
        } catch {
            continue; // a CRD neither delivery installed
        }
        for (const o of items) {
            if (systems(c.kind, o)) continue;
            // Helm's release records: bookkeeping of the installer, not part of the platform.
            if (c.kind === "Secret" && o.type === "helm.sh/release.v1") continue;
            out.set(`${c.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ""}${o.metadata.name}`, essentials(c.kind, o));
        }
    }
    return out;
}
