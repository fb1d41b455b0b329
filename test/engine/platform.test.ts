/**
 * The whole platform on an existing cluster, deployed by the real Pulumi engine into a real API server: `mara up`,
 * then the engine's own proof of no permanent diff (`preview --expect-no-changes`, `refresh --expect-no-changes`),
 * an in-place update, and `mara destroy` leaving nothing of ours behind.
 *
 * The stack is the one a first run makes: `mara init` writes it through the real CLI. It asks for what a lab
 * cluster without a cloud needs: MetalLB for the ingress Service's address and the NFS provisioner for volumes
 * (the tier's stand-ins play MetalLB's controller and the provisioner's pod, see standins.ts).
 */
import { execFile } from "child_process";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEYS, KeySpec } from "../../config";
import { ENGINE_BIN, startCluster, TestCluster } from "./cluster";
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

/**
 * Every secret key this stack can take, set to a marker before the first `up`, so the state can be searched for each.
 * Left out: other providers' keys (digitalocean:, linode:), mara:registryPassword (it needs a registry's server,
 * repository and user, which would pull the images from it), the repository's SSH key (it excludes the password),
 * and the keys the program warns this stack does not use (the Harbor VM's passwords; the NGINX Plus JWT without Plus).
 * The characters need escaping in JSON, YAML and a shell.
 */
const UNTAKEN: string[] = [KEYS.registryPassword.key, KEYS.gitopsRepoSshPrivateKey.key, KEYS.harborAdminPassword.key, KEYS.harborDbPassword.key, KEYS.harborSudoPassword.key, KEYS.nginxJwt.key];
/** Markers in the form a credential's key checks, where it checks one: Alertmanager's receivers (docs/alerts.md). */
const FORMED: Readonly<Record<string, (i: number) => string>> = {
    [KEYS.alertSlackWebhookUrl.key]: (i) => `https://hooks.slack.com/services/mk${i}Zq9x/EngineSlackMarker`,
    [KEYS.alertPagerdutyRoutingKey.key]: (i) => `mk${i}Zq9xEngineMarker`.padEnd(32, "Q"),
    [KEYS.alertWebhookBearerToken.key]: (i) => `mk-${i}-Zq9x~engine.token`,
};
const SECRET_MARKERS = new Map<string, string>(
    (Object.values(KEYS) as KeySpec<unknown>[])
        .filter((s) => s.secret && s.key.startsWith("mara:") && !UNTAKEN.includes(s.key))
        .map((s, i) => [s.key, FORMED[s.key]?.(i) ?? `mk-${s.key.split(":")[1]}-${i}-Zq"9'$x\\`]),
);
/** The receivers' credentials among the markers: the render of the same stack takes them too, for the same Secret. */
const RECEIVER_CREDENTIALS = Object.fromEntries([...SECRET_MARKERS].filter(([k]) => k.startsWith("mara:alert")));

/** `kubectl <args>` against the test cluster: its exit code, and stdout and stderr apart (warnings go to stderr). */
function kubectl(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
        execFile(path.join(ENGINE_BIN, "kubectl"), ["--kubeconfig", cluster.kubeconfig, ...args], { maxBuffer: 16 * 1024 * 1024, timeout: 120_000 }, (err, stdout, stderr) =>
            resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
    });
}

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
        // Alertmanager's receivers (docs/alerts.md): their credentials are among the markers set below.
        "mara:alertEmailTo": "oncall@engine.test",
        "mara:alertEmailFrom": "alertmanager@engine.test",
        "mara:alertEmailSmarthost": "smtp.engine.test:587",
        "mara:alertEmailUsername": "alertmanager",
        "mara:alertWebhookUrl": "https://hooks.engine.test/alertmanager",
    };
    ({ stack, output: initOutput } = await initStack(sandbox, `engine-${process.pid}`, settings));
    for (const [key, marker] of SECRET_MARKERS) await stack.set(key, marker, true);
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

    it("Alertmanager's receivers: the credentials in the Secret it mounts, the configuration naming their files, the alert rules accepted", async () => {
        const secret = await request<{ data: Record<string, string> }>(cluster, "GET", "/api/v1/namespaces/prometheus/secrets/alertmanager-receivers");
        const decoded = Object.fromEntries(Object.entries(secret.data).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]));
        expect(decoded).toEqual({
            "slack-webhook-url": SECRET_MARKERS.get(KEYS.alertSlackWebhookUrl.key),
            "pagerduty-routing-key": SECRET_MARKERS.get(KEYS.alertPagerdutyRoutingKey.key),
            "email-password": SECRET_MARKERS.get(KEYS.alertEmailPassword.key),
            "webhook-bearer-token": SECRET_MARKERS.get(KEYS.alertWebhookBearerToken.key),
        });
        // The Prometheus operator mounts the Secrets the Alertmanager resource lists; Helm rendered it from the values.
        const am = await request<{ spec: { secrets?: string[] } }>(cluster, "GET", "/apis/monitoring.coreos.com/v1/namespaces/prometheus/alertmanagers/prometheus-kube-prometheus-alertmanager");
        expect(am.spec.secrets).toEqual(["alertmanager-receivers"]);
        const config = await request<{ data: Record<string, string> }>(cluster, "GET", "/api/v1/namespaces/prometheus/secrets/alertmanager-prometheus-kube-prometheus-alertmanager");
        const yaml = Buffer.from(config.data["alertmanager.yaml"]!, "base64").toString("utf8");
        for (const [field, key] of [["api_url_file", "slack-webhook-url"], ["routing_key_file", "pagerduty-routing-key"], ["auth_password_file", "email-password"], ["credentials_file", "webhook-bearer-token"]]) {
            expect(yaml).toContain(`${field}: /etc/alertmanager/secrets/alertmanager-receivers/${key}`);
        }
        for (const credential of Object.values(RECEIVER_CREDENTIALS)) {
            expect(yaml).not.toContain(credential);
            expect(fs.readFileSync(stack.file, "utf8")).not.toContain(credential);
        }
        // The API server took every PrometheusRule through the operator's CRD.
        const rules = (await request<{ items: any[] }>(cluster, "GET", "/apis/monitoring.coreos.com/v1/prometheusrules")).items.map((r) => `${r.metadata.namespace}/${r.metadata.name}`);
        expect(rules).toEqual(expect.arrayContaining(["bos/mara-application", "bos/mara-database", "prometheus/mara-certificates", "prometheus/mara-ingress", "prometheus/mara-logstore"]));
    });

    it("pulumi stack export (secrets not shown) holds no secret key's value, no kubeconfig credential and no generated password in any form: only ciphertext", async () => {
        const exported = await stack.pulumi(["stack", "export"]);
        expect(exported.code, tail(exported)).toBe(0);
        const state = exported.stdout;
        // The generated passwords (components/secrets.ts: 24 letters and digits) and keys as the cluster holds them, in
        // the platform's own Secrets; the log agent's password is always generated, so there is at least one.
        const generated = new Set<string>();
        for (const ns of await PLATFORM_NAMESPACES()) {
            for (const secret of (await request<{ items: any[] }>(cluster, "GET", `/api/v1/namespaces/${ns}/secrets`)).items) {
                if (secret.type === "helm.sh/release.v1") continue;
                for (const v of Object.values<string>(secret.data ?? {})) {
                    const text = Buffer.from(v, "base64").toString("utf8");
                    if (/^[A-Za-z0-9]{24}$/.test(text)) generated.add(text);
                    // A generated private key (Bank of Sirius's JWT signing key): the key, and a line of its body
                    // alone, in case the state holds it in another PEM layout.
                    if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) generated.add(text).add(text.split("\n")[1]!);
                }
            }
        }
        expect(generated.size, "the cluster holds the generated passwords").toBeGreaterThan(0);
        const credentials = [...SECRET_MARKERS.values(), ...generated, cluster.token];
        const forms = (v: string) => [v, JSON.stringify(v).slice(1, -1), JSON.stringify(JSON.stringify(v)).slice(1, -1), Buffer.from(v).toString("base64"), encodeURIComponent(v)];
        const found = credentials.flatMap((c) => forms(c).filter((f) => state.includes(f)).map((f) => `${c === cluster.token ? "the kubeconfig's token" : c} as ${f}`));
        expect(found).toEqual([]);
        // What is secret is there as ciphertext (the passphrase provider's), not left out.
        expect(state).toContain('"ciphertext"');
        const outputs = await stack.pulumi(["stack", "output", "--json"]);
        expect(outputs.code, tail(outputs)).toBe(0);
        expect(credentials.flatMap(forms).filter((f) => outputs.stdout.includes(f))).toEqual([]);
    });

    it("each platform namespace carries Pod Security labels, and the API server's PodSecurity admission finds no pod below its enforce level; each below restricted has a pod that needs it", async () => {
        const namespaces = (await request<{ items: any[] }>(cluster, "GET", "/api/v1/namespaces?labelSelector=app.kubernetes.io%2Fpart-of%3Dmara")).items;
        expect(namespaces.length).toBeGreaterThan(5);
        const ORDER = ["privileged", "baseline", "restricted"];
        // Pods the render holds none of: the OpenTelemetry operator starts the collector's, which set no
        // securityContext (baseline). No operator runs here, so the stricter level has nothing to warn about.
        const operatorMade = new Set(["observability"]);
        const problems: string[] = [];
        for (const ns of namespaces) {
            const name = ns.metadata.name as string;
            const labels = ns.metadata.labels ?? {};
            const level = labels["pod-security.kubernetes.io/enforce"];
            expect(ORDER, `${name}: enforce label`).toContain(level);
            expect({ warn: labels["pod-security.kubernetes.io/warn"], audit: labels["pod-security.kubernetes.io/audit"] }, name).toEqual({ warn: "restricted", audit: "restricted" });
            const pods = (await request<{ items: any[] }>(cluster, "GET", `/api/v1/namespaces/${name}/pods`)).items;
            // The admission evaluates the namespace's pods only when the enforce level or version changes
            // (k8s.io/pod-security-admission admission/admission.go ValidateNamespace, EvaluatePodsInNamespace): pin the
            // version to the server's, at the labelled level, as a server-side dry run.
            const at = async (l: string) => kubectl(["label", "--dry-run=server", "--overwrite", "namespace", name, `pod-security.kubernetes.io/enforce=${l}`, "pod-security.kubernetes.io/enforce-version=v1.35"]);
            const same = await at(level);
            expect(same.code, same.stderr).toBe(0);
            if (/Warning:/.test(same.stderr)) problems.push(`${name} (${pods.length} pods) at ${level}: ${same.stderr.trim()}`);
            const stricter = ORDER[ORDER.indexOf(level) + 1];
            if (stricter !== undefined && !operatorMade.has(name)) {
                const up = await at(stricter);
                expect(up.code, up.stderr).toBe(0);
                if (!up.stderr.includes(`existing pods in namespace "${name}" violate the new PodSecurity enforce level "${stricter}:v1.35"`)) problems.push(`${name} (${pods.length} pods): labelled ${level}, but every pod meets ${stricter}`);
            }
        }
        expect(problems).toEqual([]);
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
            const errors = await renderAndApply(rawConfig({ "mara:infraType": "kubeconfig", ...settings, ...RECEIVER_CREDENTIALS }), fresh);
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
        // start (components/prometheus/grafanaAdmin.ts), and the Secret's revision in the pod template makes the change start it.
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
