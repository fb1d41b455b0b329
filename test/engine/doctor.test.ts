/**
 * `mara doctor` against a real Kubernetes 1.35 API server: one cluster that passes, then the same cluster made to
 * fail each check in turn (a restricted ServiceAccount, a foreign cert-manager, no default StorageClass, nodes
 * already full, an expired token, an address nothing listens on, a MetalLB pool in the Service range or holding a
 * node's own address, another Argo CD where the platform installs its own), each undone before the next.
 */
import * as crypto from "crypto";
import * as fs from "fs";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as http from "http";
import * as net from "net";
import { stringify } from "yaml";
import { startOpen } from "../../cli/commands/open";
import { kubeClient, kubeConfigFrom } from "../../cli/doctor/kubeClient";
import { noTerminal, runMara } from "../cli/support/io";
import { kubeconfigText, startCluster, STORAGE_CLASS, TestCluster } from "./cluster";
import { getOrUndefined, mergePatch, request, waitFor } from "./kubeApi";

let cluster: TestCluster;
let dir: string;

beforeAll(async () => {
    cluster = await startCluster();
    dir = fs.mkdtempSync(path.join(cluster.dir, "doctor-"));
    // A LoadBalancer Service with an address: the evidence that the cluster hands them out (the stand-in does).
    await request(cluster, "POST", "/api/v1/namespaces/default/services", {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "probe" },
        spec: { type: "LoadBalancer", ports: [{ port: 80 }], selector: { app: "probe" } },
    });
    await waitFor("the probe Service's address", async () => {
        const s = await request(cluster, "GET", "/api/v1/namespaces/default/services/probe");
        return s.status?.loadBalancer?.ingress?.length ? true : undefined;
    });
});

afterAll(async () => {
    await cluster?.stop();
});

/** Writes a kubeconfig for `token` and returns its path. */
function kubeconfigFor(name: string, token: string, server = cluster.server): string {
    const file = path.join(dir, `${name}.yaml`);
    fs.writeFileSync(file, kubeconfigText({ server, ca: cluster.ca, token }, "mara-engine", name), { mode: 0o600 });
    return file;
}

interface Report {
    findings: { id: string; verdict: string; detail: string; fix?: string; items?: string[] }[];
    exitCode: number;
    cluster: { distribution: string | null };
}

async function doctor(kubeconfig: string): Promise<{ code: number; report: Report; text: string }> {
    const json = await runMara(["doctor", "--kubeconfig", kubeconfig, "--json"]);
    expect(json.stderr).toBe("");
    const report = JSON.parse(json.stdout) as Report;
    expect(report.exitCode).toBe(json.code);
    const text = await runMara(["doctor", "--kubeconfig", kubeconfig]);
    return { code: json.code, report, text: text.stdout };
}

const verdicts = (r: Report) => Object.fromEntries(r.findings.map((f) => [f.id, f.verdict]));
const finding = (r: Report, id: string) => r.findings.find((f) => f.id === id)!;

/** Another installation of an operator, as Helm would leave it: its namespace, its CRD owned by its release, its controller's Deployment. */
interface Foreign {
    readonly namespace: string;
    readonly release: string;
    readonly crd: { readonly group: string; readonly version: string; readonly kind: string; readonly plural: string };
    readonly deployment: string;
    readonly image: string;
}

async function install(x: Foreign): Promise<void> {
    await request(cluster, "POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: x.namespace } });
    await request(cluster, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", {
        apiVersion: "apiextensions.k8s.io/v1",
        kind: "CustomResourceDefinition",
        metadata: {
            name: `${x.crd.plural}.${x.crd.group}`,
            labels: { "app.kubernetes.io/managed-by": "Helm" },
            annotations: { "meta.helm.sh/release-name": x.release, "meta.helm.sh/release-namespace": x.namespace },
        },
        spec: {
            group: x.crd.group,
            names: { kind: x.crd.kind, plural: x.crd.plural, singular: x.crd.kind.toLowerCase(), listKind: `${x.crd.kind}List` },
            scope: "Namespaced",
            versions: [{ name: x.crd.version, served: true, storage: true, schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } }],
        },
    });
    const labels = { app: x.deployment };
    await request(cluster, "POST", `/apis/apps/v1/namespaces/${x.namespace}/deployments`, {
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name: x.deployment },
        spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: "controller", image: x.image }] } } },
    });
}

/**
 * Removes it, and waits until neither its Deployment nor its CRD is left. The Deployment goes first, on its own: the
 * namespace controller deletes a namespace's pods before anything else and waits for them, so with the namespace
 * alone the Deployment would linger for a while, and the checks after this one would still find the operator.
 */
async function uninstall(x: Foreign): Promise<void> {
    const deployment = `/apis/apps/v1/namespaces/${x.namespace}/deployments/${x.deployment}`;
    const crd = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${x.crd.plural}.${x.crd.group}`;
    await request(cluster, "DELETE", deployment);
    await request(cluster, "DELETE", `/api/v1/namespaces/${x.namespace}`);
    await request(cluster, "DELETE", crd);
    await waitFor(`${x.namespace}/${x.deployment} and its CRD to be gone`, async () => (!(await getOrUndefined(cluster, deployment)) && !(await getOrUndefined(cluster, crd)) ? true : undefined));
}

describe("mara doctor against a real API server", () => {
    // Within its own bound (DOCTOR_BOUND_MS): a check the bound cut short would fail. How long it takes is not
    // asserted, as no duration can be on a busy machine.
    it("passes a cluster with room, a default StorageClass, load balancers and an administrator's credentials", async () => {
        const { code, report, text } = await doctor(cluster.kubeconfig);
        expect(code, text).toBe(0);
        expect(verdicts(report)).toMatchObject({
            reachable: "pass",
            credentials: "pass",
            version: "pass",
            "container-logs": "pass",
            storage: "pass",
            "load-balancer": "pass",
            "conflict-cert-manager": "pass",
            "conflict-prometheus-operator": "pass",
            "conflict-eck": "pass",
            "conflict-nginx-ingress": "pass",
            "ingress-class": "pass",
            namespaces: "pass",
            permissions: "pass",
            capacity: "pass",
        });
        expect(finding(report, "storage").detail).toContain(STORAGE_CLASS);
        // kwok nodes carry no distribution's marks.
        expect(finding(report, "distribution").verdict).toBe("warn");
        expect(text).toMatch(/\d+ passed, 1 warning, 0 failed/);
    });

    it("lists the missing permissions of a restricted ServiceAccount, and warns that its short-lived token is about to expire", async () => {
        await request(cluster, "POST", "/api/v1/namespaces/default/serviceaccounts", { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "restricted" } });
        // It may read everything, and create nothing.
        await request(cluster, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", {
            apiVersion: "rbac.authorization.k8s.io/v1",
            kind: "ClusterRole",
            metadata: { name: "doctor-read-only" },
            rules: [{ apiGroups: ["*"], resources: ["*"], verbs: ["get", "list"] }],
        });
        await request(cluster, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", {
            apiVersion: "rbac.authorization.k8s.io/v1",
            kind: "ClusterRoleBinding",
            metadata: { name: "doctor-read-only" },
            roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "doctor-read-only" },
            subjects: [{ kind: "ServiceAccount", name: "restricted", namespace: "default" }],
        });
        const token = await request(cluster, "POST", "/api/v1/namespaces/default/serviceaccounts/restricted/token", {
            apiVersion: "authentication.k8s.io/v1",
            kind: "TokenRequest",
            spec: { expirationSeconds: 900 },
        });
        const { code, report, text } = await doctor(kubeconfigFor("restricted", token.status.token));
        expect(code, text).toBe(6);
        const p = finding(report, "permissions");
        expect(p.verdict).toBe("fail");
        expect(p.items).toEqual(expect.arrayContaining(["create, patch, delete namespaces (cluster-scoped)", "create, patch customresourcedefinitions.apiextensions.k8s.io (cluster-scoped)", "create, patch, delete deployments.apps in namespace nginx-ingress"]));
        expect(p.fix).toContain("kubectl auth can-i");
        const c = finding(report, "credentials");
        expect(c.verdict).toBe("warn");
        expect(c.detail).toMatch(/as system:serviceaccount:default:restricted; the bearer token expires in 1[45] minutes/);
        // Reading works, so the other checks still run.
        expect(verdicts(report)).toMatchObject({ storage: "pass", capacity: "pass", "conflict-cert-manager": "pass" });
    });

    it("finds a foreign cert-manager: its controller running and its CRD owned by another Helm release", async () => {
        const theirs: Foreign = {
            namespace: "their-certs",
            release: "cert-manager",
            crd: { group: "cert-manager.io", version: "v1", kind: "Certificate", plural: "certificates" },
            deployment: "cert-manager",
            image: "quay.io/jetstack/cert-manager-controller:v1.14.4",
        };
        await install(theirs);
        try {
            const { code, report, text } = await doctor(cluster.kubeconfig);
            expect(code, text).toBe(6);
            const c = finding(report, "conflict-cert-manager");
            expect(c.verdict).toBe("fail");
            expect(c.detail).toContain("it already runs as their-certs/cert-manager");
            expect(c.detail).toContain("CRD certificates.cert-manager.io belongs to Helm release cert-manager in namespace their-certs");
            expect(c.fix).toContain("helm -n their-certs uninstall");
            expect(verdicts(report)).toMatchObject({ "conflict-eck": "pass", permissions: "pass" });
        } finally {
            await uninstall(theirs);
        }
    });

    it("fails a cluster without a default StorageClass, naming the classes it has", async () => {
        const sc = `/apis/storage.k8s.io/v1/storageclasses/${STORAGE_CLASS}`;
        await mergePatch(cluster, sc, { metadata: { annotations: { "storageclass.kubernetes.io/is-default-class": "false" } } });
        try {
            const { code, report, text } = await doctor(cluster.kubeconfig);
            expect(code, text).toBe(6);
            const s = finding(report, "storage");
            expect(s.verdict).toBe("fail");
            expect(s.detail).toContain(`the cluster has ${STORAGE_CLASS}, none marked default`);
            expect(s.fix).toBe(`pulumi config set mara:storageClass ${STORAGE_CLASS}`);
        } finally {
            await mergePatch(cluster, sc, { metadata: { annotations: { "storageclass.kubernetes.io/is-default-class": "true" } } });
        }
    });

    it("fails a cluster whose nodes are already full, naming the platform's largest consumers", async () => {
        await request(cluster, "POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "hog" } });
        await request(cluster, "POST", "/apis/apps/v1/namespaces/hog/deployments", {
            apiVersion: "apps/v1",
            kind: "Deployment",
            metadata: { name: "hog" },
            spec: {
                replicas: cluster.nodes.length,
                selector: { matchLabels: { app: "hog" } },
                template: {
                    metadata: { labels: { app: "hog" } },
                    spec: {
                        containers: [{ name: "hog", image: "registry.example/hog:1", resources: { requests: { cpu: "15", memory: "62Gi" } } }],
                        tolerations: [{ operator: "Exists" }],
                    },
                },
            },
        });
        await waitFor("the hog pods to be scheduled", async () => {
            const pods = await request(cluster, "GET", "/api/v1/namespaces/hog/pods");
            return pods.items.filter((p: any) => p.spec.nodeName).length === cluster.nodes.length ? true : undefined;
        });
        try {
            const { code, report, text } = await doctor(cluster.kubeconfig);
            expect(code, text).toBe(6);
            const c = finding(report, "capacity");
            expect(c.verdict).toBe("fail");
            expect(c.detail).toMatch(/3 schedulable nodes have 3 CPU and 6\.0 GiB free: memory short by/);
            expect(c.items?.[0]).toMatch(/^Elasticsearch data node: 0\.25 CPU, 2\.0 GiB$|^Kibana: 0\.25 CPU, 2\.0 GiB$/);
            expect(c.fix).toContain("mara:logstoreIngestReplicas");
        } finally {
            await request(cluster, "DELETE", "/api/v1/namespaces/hog");
            // The tests after this one need the room back.
            await waitFor("the hog pods to be gone", async () => ((await request(cluster, "GET", "/api/v1/namespaces/hog/pods")).items.length === 0 ? true : undefined), 120_000);
        }
    });

    it("reports an expired token as refused credentials, with its expiry, and checks nothing else (exit 7)", async () => {
        // A ServiceAccount token signed with the cluster's own key, valid in every respect but its expiry.
        const now = Math.floor(Date.now() / 1000);
        const sa = await request(cluster, "GET", "/api/v1/namespaces/default/serviceaccounts/default");
        const issuer = "https://kubernetes.default.svc.cluster.local";
        const claims = {
            iss: issuer,
            aud: [issuer],
            sub: "system:serviceaccount:default:default",
            iat: now - 7200,
            nbf: now - 7200,
            exp: now - 3600,
            "kubernetes.io": { namespace: "default", serviceaccount: { name: "default", uid: sa.metadata.uid } },
        };
        const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
        const unsigned = `${b64({ alg: "RS256", typ: "JWT" })}.${b64(claims)}`;
        const signature = crypto.sign("RSA-SHA256", Buffer.from(unsigned), fs.readFileSync(path.join(cluster.dir, "sa.key"), "utf8")).toString("base64url");
        const { code, report, text } = await doctor(kubeconfigFor("expired", `${unsigned}.${signature}`));
        expect(code, text).toBe(7);
        const c = finding(report, "credentials");
        expect(c.verdict).toBe("fail");
        expect(c.detail).toContain("401 Unauthorized");
        expect(c.detail).toContain(`expired at ${new Date((now - 3600) * 1000).toISOString()}`);
        expect(report.findings.filter((f) => f.verdict === "skip").map((f) => f.id)).toEqual(["distribution", "conflicts", "permissions", "capacity"]);
    });

    it("reports an API server that does not answer (exit 7)", async () => {
        const { code, report } = await doctor(kubeconfigFor("nowhere", cluster.token, "https://127.0.0.1:9"));
        expect(code).toBe(7);
        expect(finding(report, "reachable").verdict).toBe("fail");
        expect(finding(report, "reachable").detail).toContain("127.0.0.1:9");
        expect(finding(report, "reachable").fix).toContain("get --raw /version");
    });

    it("checks MetalLB's pool against the cluster's own ranges: a pool inside the Service range fails", async () => {
        const file = path.join(dir, "Pulumi.lab.yaml");
        const config = (addresses: string[]) =>
            stringify({ config: { "mara:infraType": "kubeconfig", "mara:kubeconfig": cluster.kubeconfig, "mara:fqdn": "mara.lab.test", "mara:metallbAddresses": addresses } });
        fs.writeFileSync(file, config(["10.96.0.240/28"]));
        const clash = await runMara(["doctor", "--config-file", file, "--json"]);
        const report = JSON.parse(clash.stdout) as Report;
        expect(clash.code, clash.stderr).toBe(6);
        expect(finding(report, "metallb-addresses")).toMatchObject({ verdict: "fail", detail: "mara:metallbAddresses (10.96.0.240/28) overlaps the Service range 10.96.0.0/16" });
        // The platform would install MetalLB: its permissions are asked about too, and the load balancer check trusts the pool.
        expect(verdicts(report)).toMatchObject({ "load-balancer": "pass", permissions: "pass", "conflict-metallb": "pass" });
        fs.writeFileSync(file, config(["192.168.77.240-192.168.77.250"]));
        const free = await runMara(["doctor", "--config-file", file, "--json"]);
        expect(free.code, free.stdout).toBe(0);
        expect(finding(JSON.parse(free.stdout) as Report, "metallb-addresses")).toMatchObject({ verdict: "pass", detail: `no overlap with the Service range 10.96.0.0/16; it holds no node address (${cluster.nodes.length} checked) and not the API server's address` });
    });

    it("fails a MetalLB pool that holds a node's own address, as the node reports it, naming the key, the node and the address", async () => {
        // One node reports an address inside the test's pool (the tier's nodes publish theirs elsewhere, cluster.ts).
        const name = cluster.nodes[0]!;
        const statusPath = `/api/v1/nodes/${name}/status`;
        const before = (await request<{ status?: { addresses?: unknown[] } }>(cluster, "GET", `/api/v1/nodes/${name}`)).status?.addresses ?? [];
        await mergePatch(cluster, statusPath, { status: { addresses: [{ type: "InternalIP", address: "192.168.77.21" }, { type: "Hostname", address: name }] } });
        try {
            const file = path.join(dir, "Pulumi.pool-node.yaml");
            const config = (addresses: string[]) => stringify({ config: { "mara:infraType": "kubeconfig", "mara:kubeconfig": cluster.kubeconfig, "mara:fqdn": "mara.lab.test", "mara:metallbAddresses": addresses } });
            fs.writeFileSync(file, config(["192.168.77.16-192.168.77.31"]));
            const clash = await runMara(["doctor", "--config-file", file, "--json"]);
            expect(clash.code, clash.stderr).toBe(6);
            const f = finding(JSON.parse(clash.stdout) as Report, "metallb-addresses");
            expect(f).toMatchObject({ verdict: "fail", detail: `mara:metallbAddresses (192.168.77.16-192.168.77.31) holds node ${name}'s InternalIP 192.168.77.21` });
            expect(f.fix).toContain("cutting off the node");
            // One address past the node's: free.
            fs.writeFileSync(file, config(["192.168.77.22-192.168.77.31"]));
            const free = await runMara(["doctor", "--config-file", file, "--json"]);
            expect(free.code, free.stdout).toBe(0);
            expect(finding(JSON.parse(free.stdout) as Report, "metallb-addresses").detail).toBe(`no overlap with the Service range 10.96.0.0/16; it holds no node address (${cluster.nodes.length} checked) and not the API server's address`);
        } finally {
            await mergePatch(cluster, statusPath, { status: { addresses: before } });
        }
    });

    it("where the platform installs Argo CD (mara:delivery gitops), finds another one: its components running and its CRD another Helm release's", async () => {
        const file = path.join(dir, "Pulumi.gitops.yaml");
        const base = { "mara:infraType": "kubeconfig", "mara:kubeconfig": cluster.kubeconfig, "mara:fqdn": "mara.lab.test" };
        const gitops = { ...base, "mara:delivery": "gitops", "mara:gitopsRepoUrl": "https://git.example.com/platform-config.git", "mara:gitopsPath": "deploy/lab" };
        const theirs: Foreign = {
            namespace: "gitops",
            release: "argo-cd",
            crd: { group: "argoproj.io", version: "v1alpha1", kind: "Application", plural: "applications" },
            deployment: "argocd-server",
            image: "quay.io/argoproj/argocd:v3.1.5",
        };
        await install(theirs);
        try {
            fs.writeFileSync(file, stringify({ config: gitops }));
            const clash = await runMara(["doctor", "--config-file", file, "--json"]);
            expect(clash.code, clash.stdout + clash.stderr).toBe(6);
            const c = finding(JSON.parse(clash.stdout) as Report, "conflict-argo-cd");
            expect(c.verdict).toBe("fail");
            expect(c.detail).toContain("it already runs as gitops/argocd-server");
            expect(c.detail).toContain("CRD applications.argoproj.io belongs to Helm release argo-cd in namespace gitops");
            expect(c.fix).toContain("helm -n gitops uninstall");
            expect(c.fix).toContain("pulumi config set mara:gitopsArgoCd external");
            // A cluster may run an Argo CD of its own where the platform installs none.
            fs.writeFileSync(file, stringify({ config: base }));
            const plain = await runMara(["doctor", "--config-file", file, "--json"]);
            expect(plain.code, plain.stdout + plain.stderr).toBe(0);
            expect((JSON.parse(plain.stdout) as Report).findings.map((x) => x.id)).not.toContain("conflict-argo-cd");
        } finally {
            await uninstall(theirs);
        }
    });

    it("mara open finds Grafana's ready pod through the real API server and carries a local connection to it", async () => {
        await request(cluster, "POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "prometheus" } });
        const labels = { "app.kubernetes.io/name": "grafana", "app.kubernetes.io/instance": "prometheus" };
        await request(cluster, "POST", "/apis/apps/v1/namespaces/prometheus/deployments", {
            apiVersion: "apps/v1",
            kind: "Deployment",
            metadata: { name: "prometheus-grafana" },
            spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: "grafana", image: "docker.io/grafana/grafana:13.2.0", ports: [{ name: "grafana", containerPort: 3000 }] }] } } },
        });
        await request(cluster, "POST", "/api/v1/namespaces/prometheus/services", {
            apiVersion: "v1",
            kind: "Service",
            metadata: { name: "prometheus-grafana" },
            spec: { selector: labels, ports: [{ name: "http-web", port: 80, targetPort: "grafana" }] },
        });
        const pod = await waitFor("Grafana's pod to be ready", async () => {
            const pods = await request(cluster, "GET", "/api/v1/namespaces/prometheus/pods");
            const ready = pods.items.find((p: any) => p.status?.conditions?.some((c: any) => c.type === "Ready" && c.status === "True"));
            return ready?.metadata.name as string | undefined;
        });
        // kwok's pods run no process: a local server stands in for the container behind the port-forward.
        const upstream = http.createServer((req, res) => res.end(`stand-in for ${req.url}`));
        await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
        const carried: string[] = [];
        let out = "";
        const io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true }, prompter: noTerminal, env: {}, cwd: dir, projectDir: dir, colour: false };
        const listener = await startOpen("grafana", "bos", kubeClient(kubeConfigFrom(fs.readFileSync(cluster.kubeconfig, "utf8"))), async (t, socket) => {
            carried.push(`${t.namespace}/${t.pod}:${t.containerPort}`);
            const c = net.connect((upstream.address() as net.AddressInfo).port, "127.0.0.1");
            socket.pipe(c).pipe(socket);
        }, 0, io);
        try {
            expect(out).toBe(`Grafana: http://127.0.0.1:${listener.port}/\n`);
            expect(await (await fetch(`http://127.0.0.1:${listener.port}/d/nginx`)).text()).toBe("stand-in for /d/nginx");
            expect(carried).toEqual([`prometheus/${pod}:3000`]);
        } finally {
            await listener.close();
            await new Promise<void>((r) => upstream.close(() => r()));
            await request(cluster, "DELETE", "/api/v1/namespaces/prometheus");
        }
    });
});
