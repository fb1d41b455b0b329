/**
 * The whole platform on an existing cluster, deployed by the real Pulumi engine into a real API server: `mara up`,
 * then the engine's own proof of no permanent diff (`preview --expect-no-changes`, `refresh --expect-no-changes`),
 * an in-place update, and `mara destroy` leaving nothing of ours behind.
 *
 * The stack is the one a first run makes: `mara init` writes it through the real CLI. It asks for what a lab
 * cluster without a cloud needs: MetalLB for the ingress Service's address and the NFS provisioner for volumes
 * (the tier's stand-ins play MetalLB's controller and the provisioner's pod, see standins.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, TestCluster } from "./cluster";
import { getOrUndefined, mergePatch, request } from "./kubeApi";
import { mara, pulumiSandbox, PulumiSandbox, tail } from "./pulumiEnv";
import * as fs from "fs";
import { airGappedCharts, baseConfig, initStack, TierStack } from "./stack";
import { HOOK_RBAC, inventory, renderAndApply } from "./renderParity";
import { rawConfig } from "../support/config";

let cluster: TestCluster;
let sandbox: PulumiSandbox;
let stack: TierStack;
let charts: string;
let initOutput: string;
let settings: Record<string, string>;
const SLACK_WEBHOOK = "https://hooks.slack.com/services/T0ENGINE0/B0ENGINE0/EngineSlackMarker";
const PAGERDUTY_KEY = "EngineMarkerPagerDutyRoutingKey0";

beforeAll(async () => {
    cluster = await startCluster();
    sandbox = pulumiSandbox();
    charts = airGappedCharts();
    const { "mara:infraType": _infraType, ...base } = baseConfig(cluster, charts);
    settings = {
        ...base,
        "mara:metallbAddresses": '["192.168.77.240-192.168.77.250"]',
        "mara:nfsServer": "192.168.77.10",
        "mara:nfsPath": "/srv/nfs/mara",
        // Two of Alertmanager's receivers: mara init stores their credentials encrypted (docs/alerts.md).
        "mara:alertSlackWebhookUrl": SLACK_WEBHOOK,
        "mara:alertPagerdutyRoutingKey": PAGERDUTY_KEY,
    };
    ({ stack, output: initOutput } = await initStack(sandbox, `engine-${process.pid}`, settings));
});

afterAll(async () => {
    stack?.dispose();
    sandbox?.dispose();
    if (charts) fs.rmSync(charts, { recursive: true, force: true });
    await cluster?.stop();
});

/** Helm's release records (Secrets of type helm.sh/release.v1), newest revision per release. */
async function helmReleases(): Promise<Map<string, { namespace: string; status: string; version: number }>> {
    const list = await request<{ items: any[] }>(cluster, "GET", "/api/v1/secrets?labelSelector=owner%3Dhelm");
    const out = new Map<string, { namespace: string; status: string; version: number }>();
    for (const s of list.items) {
        const l = s.metadata.labels;
        const prev = out.get(l.name);
        if (!prev || Number(l.version) > prev.version) out.set(l.name, { namespace: s.metadata.namespace, status: l.status, version: Number(l.version) });
    }
    return out;
}

/** The first Deployment whose name contains `part`, in any namespace. */
async function findDeployment(part: string): Promise<any | undefined> {
    const list = await request<{ items: any[] }>(cluster, "GET", "/apis/apps/v1/deployments");
    return list.items.find((d) => d.metadata.name.includes(part));
}

/** UIDs of what must never be replaced: the platform's namespaces, every claim, every CRD. */
async function identities(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const [kind, path] of [
        ["Namespace", "/api/v1/namespaces"],
        ["PVC", "/api/v1/persistentvolumeclaims"],
        ["CRD", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"],
    ] as const) {
        for (const o of (await request<{ items: any[] }>(cluster, "GET", path)).items) {
            out[`${kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ""}${o.metadata.name}`] = o.metadata.uid;
        }
    }
    return out;
}

const PLATFORM_NAMESPACES = async () =>
    (await request<{ items: any[] }>(cluster, "GET", "/api/v1/namespaces?labelSelector=app.kubernetes.io%2Fpart-of%3Dmara")).items.map((n) => n.metadata.name as string).sort();

describe("the platform on an existing cluster, by the real engine", () => {
    it("mara init wrote the stack a first run deploys", () => {
        const file = fs.readFileSync(stack.file, "utf8");
        expect(file, initOutput).toContain("mara:infraType: kubeconfig");
        expect(file).toContain("mara:nfsServer: 192.168.77.10");
    });

    it("mara up --yes deploys everything: every Helm release deployed, the typed objects present, the outputs as documented", async () => {
        const up = await mara(["up", "--yes", "--stack", stack.name], sandbox.env);
        expect(up.code, tail(up, 80)).toBe(0);
        // mara up ran mara doctor first; MetalLB was installed before the ingress controller, whose Service got its address from the pool.
        expect(up.stderr).toContain("mara doctor (skip with --skip-doctor):");
        const lb = await request<{ status: { loadBalancer: { ingress?: { ip: string }[] } } }>(cluster, "GET", "/api/v1/namespaces/nginx-ingress/services/kic-nginx-ingress-controller");
        expect(lb.status.loadBalancer.ingress?.[0]?.ip, "the ingress Service's address comes from MetalLB's pool").toBe("192.168.77.240");
        expect(await getOrUndefined(cluster, "/apis/metallb.io/v1beta1/namespaces/metallb-system/l2advertisements/mara")).toBeDefined();

        const releases = await helmReleases();
        expect([...releases.keys()].sort(), tail(up)).toEqual(["accountsdbmon", "certmgr", "eck-operator", "fluent-bit", "kic", "ledgerdbmon", "mara-nfs-provisioner", "metallb", "opentelemetry-operator", "prometheus", "statsd"]);
        for (const [name, r] of releases) expect(`${name}: ${r.status}`).toBe(`${name}: deployed`);

        expect(await PLATFORM_NAMESPACES()).toEqual(expect.arrayContaining(["bos", "cert-manager", "logagent", "logstore", "nginx-ingress", "prometheus"]));
        const ingressClass = await getOrUndefined(cluster, "/apis/networking.k8s.io/v1/ingressclasses/nginx");
        expect(ingressClass?.spec.controller).toBe("nginx.org/ingress-controller");
        const ingresses = (await request<{ items: any[] }>(cluster, "GET", "/apis/networking.k8s.io/v1/namespaces/bos/ingresses")).items;
        expect(ingresses.map((i) => [i.spec.ingressClassName, i.spec.rules?.[0]?.host])).toEqual([["nginx", "mara.engine.test"]]);
        const controller = (await request<{ items: any[] }>(cluster, "GET", "/api/v1/namespaces/nginx-ingress/services")).items.find((x) => x.spec.type === "LoadBalancer");
        const address = controller?.status?.loadBalancer?.ingress?.[0]?.ip;
        expect(address, "the controller's Service has a load-balancer address").toBe("192.168.77.240");

        // Every claim of the platform is on the NFS class and bound to a volume on the export.
        const claims = (await request<{ items: any[] }>(cluster, "GET", "/api/v1/persistentvolumeclaims")).items;
        expect(claims.length).toBeGreaterThan(0);
        for (const c of claims) {
            const where = `${c.metadata.namespace}/${c.metadata.name}`;
            expect(`${where}: ${c.spec.storageClassName} ${c.status.phase}`).toBe(`${where}: mara-nfs Bound`);
            const pv = await request<any>(cluster, "GET", `/api/v1/persistentvolumes/${c.spec.volumeName}`);
            expect(pv.spec.nfs?.server, where).toBe("192.168.77.10");
        }

        const outputs = await stack.pulumi(["stack", "output", "--json", "--show-secrets"]);
        expect(outputs.code, tail(outputs)).toBe(0);
        const out = JSON.parse(outputs.stdout);
        expect(out).toMatchObject({
            infra_type: "kubeconfig",
            cluster_name: "engine",
            application_url: "https://mara.engine.test",
            lb_ingress_hostname: "mara.engine.test",
            lb_ingress_ip: address,
            ingress_class: "nginx",
            ingress_controller_status: "deployed",
            cert_manager_status: "deployed",
        });
    });

    it("Alertmanager's receivers: the credentials in the Secret it mounts and nowhere else, the configuration naming their files, the alert rules accepted", async () => {
        const secret = await request<{ data: Record<string, string> }>(cluster, "GET", "/api/v1/namespaces/prometheus/secrets/alertmanager-receivers");
        const decoded = Object.fromEntries(Object.entries(secret.data).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]));
        expect(decoded).toEqual({ "slack-webhook-url": SLACK_WEBHOOK, "pagerduty-routing-key": PAGERDUTY_KEY });
        // The Prometheus operator mounts the Secrets the Alertmanager resource lists; Helm rendered it from the values.
        const am = await request<{ spec: { secrets?: string[] } }>(cluster, "GET", "/apis/monitoring.coreos.com/v1/namespaces/prometheus/alertmanagers/prometheus-kube-prometheus-alertmanager");
        expect(am.spec.secrets).toEqual(["alertmanager-receivers"]);
        const config = await request<{ data: Record<string, string> }>(cluster, "GET", "/api/v1/namespaces/prometheus/secrets/alertmanager-prometheus-kube-prometheus-alertmanager");
        const yaml = Buffer.from(config.data["alertmanager.yaml"]!, "base64").toString("utf8");
        expect(yaml).toContain("api_url_file: /etc/alertmanager/secrets/alertmanager-receivers/slack-webhook-url");
        expect(yaml).toContain("routing_key_file: /etc/alertmanager/secrets/alertmanager-receivers/pagerduty-routing-key");
        for (const credential of [SLACK_WEBHOOK, PAGERDUTY_KEY]) expect(yaml).not.toContain(credential);
        // The API server took every PrometheusRule through the operator's CRD.
        const rules = (await request<{ items: any[] }>(cluster, "GET", "/apis/monitoring.coreos.com/v1/prometheusrules")).items.map((r) => `${r.metadata.namespace}/${r.metadata.name}`);
        expect(rules).toEqual(expect.arrayContaining(["bos/mara-application", "bos/mara-database", "prometheus/mara-certificates", "prometheus/mara-ingress", "prometheus/mara-logstore"]));
        // The state holds them encrypted, and the stack file too.
        const state = await stack.pulumi(["stack", "export"]);
        expect(state.code, tail(state)).toBe(0);
        for (const credential of [SLACK_WEBHOOK, PAGERDUTY_KEY]) {
            expect(state.stdout).not.toContain(credential);
            expect(fs.readFileSync(stack.file, "utf8")).not.toContain(credential);
        }
    });

    it("pulumi preview --expect-no-changes right after: no permanent diff", async () => {
        const r = await stack.pulumi(["preview", "--expect-no-changes", "--diff"]);
        // What changed, first: a resource's whole inputs can push it out of the output's tail.
        const changed = r.stdout.split("\n").filter((l) => /^\s*[~+-]{1,2}\s|\[diff:/.test(l));
        expect(r.code, `${changed.slice(0, 60).join("\n")}\n${tail(r, 60)}`).toBe(0);
    });

    it("pulumi refresh --expect-no-changes: the cluster holds what the state says", async () => {
        const r = await stack.pulumi(["refresh", "--expect-no-changes", "--yes"]);
        expect(r.code, tail(r, 120)).toBe(0);
    });

    it("mara render of the same stack applies server-side to a fresh cluster, and holds the objects pulumi up created", async () => {
        const fresh = await startCluster();
        try {
            const errors = await renderAndApply(rawConfig({ "mara:infraType": "kubeconfig", ...settings }), fresh);
            expect(errors).toEqual([]);
            const [up, rendered] = await Promise.all([inventory(cluster), inventory(fresh)]);
            const onlyUp = [...up.keys()].filter((k) => !rendered.has(k)).sort();
            const onlyRender = [...rendered.keys()].filter((k) => !up.has(k) && !HOOK_RBAC.includes(k)).sort();
            expect(HOOK_RBAC.filter((k) => !rendered.has(k) || up.has(k)), "the hooks' RBAC: in the render, not left by Helm").toEqual([]);
            expect({ onlyUp, onlyRender }).toEqual({ onlyUp: [], onlyRender: [] });
            const differing = [...up]
                .filter(([k, v]) => rendered.has(k) && JSON.stringify(v) !== JSON.stringify(rendered.get(k)))
                .map(([k, v]) => `${k}: up ${JSON.stringify(v)}, render ${JSON.stringify(rendered.get(k))}`);
            expect(differing).toEqual([]);
            expect(up.size, "the comparison covers the platform").toBeGreaterThan(100);
        } finally {
            await fresh.stop();
        }
    });

    it("a config change updates in place: replicas, a chart value and a rotated password; namespaces, claims and CRDs keep their identity", async () => {
        const before = await identities();
        const ledgerPodTemplate = async () => (await findDeployment("ledger-db"))?.spec.template.metadata.annotations?.["secrets.mara/revision"];
        const revisionBefore = await ledgerPodTemplate();
        // Grafana reads its admin password only when it creates its database: its init container sets it on every
        // start (components/grafanaAdmin.ts), and the Secret's revision in the pod template makes the change start it.
        const grafanaBefore = await findDeployment("grafana");
        expect(grafanaBefore?.spec.strategy?.type).toBe("Recreate");
        expect(grafanaBefore?.spec.template.spec.initContainers.map((c: { name: string }) => c.name)).toContain("admin-password");
        await stack.set("mara:ingressReplicas", "2");
        await stack.set("mara:siriusLedgerPassword", "rotated-ledger-password-1", true);
        await stack.set("mara:grafanaAdminPassword", "rotated-grafana-password-1", true);
        const up = await stack.pulumi(["up", "--yes", "--skip-preview"]);
        expect(up.code, tail(up, 120)).toBe(0);
        expect(up.stdout, "nothing may be replaced").not.toMatch(/replaced|\+-/);

        const controller = await findDeployment("nginx-ingress");
        expect(controller?.spec.replicas).toBe(2);
        expect(await identities()).toEqual(before);
        if (revisionBefore !== undefined) expect(await ledgerPodTemplate(), "the ledger database's pods roll when its password changes").not.toBe(revisionBefore);
        const grafanaAfter = await findDeployment("grafana");
        const grafanaRevision = (d: any) => d?.spec.template.metadata.annotations?.["secrets.mara/revision"];
        expect(grafanaRevision(grafanaBefore)).toMatch(/^grafana-admin=\d+$/);
        expect(grafanaRevision(grafanaAfter), "Grafana's pod template changes when its admin password does").not.toBe(grafanaRevision(grafanaBefore));
        expect(grafanaAfter?.metadata.generation).toBeGreaterThan(grafanaBefore?.metadata.generation);
        expect(JSON.stringify(grafanaAfter)).not.toContain("rotated-grafana-password-1");

        const again = await stack.pulumi(["preview", "--expect-no-changes"]);
        expect(again.code, tail(again, 80)).toBe(0);
    });

    it("a stack from before the ownership marks upgrades in place: the guard, new to its state, takes its label-only objects as its own, and the update marks them", async () => {
        const STACK = "mara.nginx.com/stack";
        const before = await identities();
        // What an earlier version left on the cluster: no stack annotation anywhere, no label on the ClusterIssuers.
        const labelled = encodeURIComponent("app.kubernetes.io/part-of=mara");
        const marked: string[] = [];
        for (const base of ["/api/v1/namespaces", "/apis/rbac.authorization.k8s.io/v1/clusterroles", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", "/apis/storage.k8s.io/v1/storageclasses", "/apis/cert-manager.io/v1/clusterissuers"]) {
            for (const o of (await request<{ items: any[] }>(cluster, "GET", `${base}?labelSelector=${labelled}`)).items) {
                // A chart's objects (the NFS provisioner's ClusterRole) carry the platform's label but are the release's,
                // judged by Helm's marks: the stack's mark is only on the program's own.
                if (o.metadata.annotations?.["meta.helm.sh/release-name"] !== undefined) continue;
                const path = `${base}/${encodeURIComponent(o.metadata.name)}`;
                const issuer = base.endsWith("clusterissuers");
                await mergePatch(cluster, path, { metadata: { annotations: { [STACK]: null }, ...(issuer ? { labels: { "app.kubernetes.io/part-of": null } } : {}) } });
                marked.push(path);
            }
        }
        expect(marked.some((p) => p.endsWith("/clusterissuers/selfsigned-issuer"))).toBe(true);
        // And in its state: the same inputs without the marks, and no guard.
        const exported = await stack.pulumi(["stack", "export"]);
        expect(exported.code, tail(exported)).toBe(0);
        const state = JSON.parse(exported.stdout);
        const guard = state.deployment.resources.find((r: any) => r.type === "pulumi-nodejs:dynamic:Resource" && r.urn.endsWith("::platform-ownership")).urn;
        const strip = (v: any, issuer: boolean): any => {
            if (Array.isArray(v)) return v.filter((x) => x !== guard).map((x) => strip(x, issuer));
            if (!v || typeof v !== "object") return v;
            return Object.fromEntries(Object.entries(v).filter(([k]) => k !== STACK && !(issuer && k === "app.kubernetes.io/part-of")).map(([k, x]) => [k, strip(x, issuer)]));
        };
        state.deployment.resources = state.deployment.resources.filter((r: any) => r.urn !== guard).map((r: any) => strip(r, r.type === "kubernetes:cert-manager.io/v1:ClusterIssuer"));
        const file = `${stack.sandbox.dir}/earlier-state.json`;
        fs.writeFileSync(file, JSON.stringify(state));
        const imported = await stack.pulumi(["stack", "import", "--file", file]);
        expect(imported.code, tail(imported)).toBe(0);

        const up = await stack.pulumi(["up", "--yes", "--skip-preview"]);
        expect(up.code, tail(up, 120)).toBe(0);
        expect(up.stdout, "nothing may be replaced").not.toMatch(/replaced|\+-/);
        expect(await identities()).toEqual(before);
        for (const path of marked) expect((await request(cluster, "GET", path)).metadata.annotations?.[STACK], path).toBe(`mara/${stack.name}`);
        const again = await stack.pulumi(["preview", "--expect-no-changes"]);
        expect(again.code, tail(again, 80)).toBe(0);
    });

    it("mara destroy --yes leaves nothing of ours; a second destroy is a no-op", async () => {
        const r = await mara(["destroy", "--yes", "--stack", stack.name], sandbox.env);
        expect(r.code, tail(r, 80)).toBe(0);
        expect(await PLATFORM_NAMESPACES()).toEqual([]);
        expect((await helmReleases()).size).toBe(0);
        expect(await getOrUndefined(cluster, "/apis/networking.k8s.io/v1/ingressclasses/nginx")).toBeUndefined();
        expect(await getOrUndefined(cluster, "/apis/storage.k8s.io/v1/storageclasses/mara-nfs")).toBeUndefined();
        expect(await getOrUndefined(cluster, "/apis/rbac.authorization.k8s.io/v1/clusterroles/mara-nfs-provisioner-runner")).toBeUndefined();
        // The provisioner outlived the claims, so it could delete their volumes (reclaim policy Delete).
        const volumes = (await request<{ items: any[] }>(cluster, "GET", "/api/v1/persistentvolumes")).items;
        expect(volumes.map((v) => `${v.metadata.name} ${v.spec.persistentVolumeReclaimPolicy} ${v.status?.phase}`)).toEqual([]);
        const again = await mara(["destroy", "--yes", "--stack", stack.name], sandbox.env);
        expect(again.code, tail(again)).toBe(0);
    });
});
