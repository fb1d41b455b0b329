/**
 * The platform's alerting, checked by the real tools on exactly what the program registers: the program runs under
 * mocks for an existing-cluster stack with every receiver configured (its credentials stored encrypted); its
 * PrometheusRules go through `promtool check rules` and `promtool test rules` (test/alerting/rules.test.yaml: each
 * alert firing and not firing), and the Alertmanager configuration kube-prometheus-stack renders from its release
 * values (Helm 3, the vendored chart) through `amtool check-config` and `amtool config routes test`. promtool and amtool
 * are built from their Go modules at the releases the chart deploys (test/alerting/build.sh; `.ci/run` builds them).
 *
 * What only a running Alertmanager and the real services prove is in docs/alerts.md ("What the tests prove").
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { ALERT_RECEIVERS, alertmanagerConfig, AlertingArgs, ALERTMANAGER_SECRETS_DIR, RECEIVER_SECRET_KEYS, RECEIVERS_SECRET, runbookAnchor } from "../../components/alerts";
import { CERT_MANAGER_METRICS_LABELS, CERT_MANAGER_METRICS_SERVICE } from "../../components/certManager";
import { KIC_METRICS_LABELS, KIC_METRICS_SERVICE } from "../../components/ingressController";
import { prometheusValues } from "../../components/prometheus";
import program from "../../index";
import { validateConfig } from "../../config";
import { releasesOf } from "../../render/collect";
import { renderPlatform } from "../../render/render";
import { KubeObject, parseManifest, vendoredChart } from "../support/charts";
import { fixture } from "../support/config";
import { helmTemplate } from "../support/helm";
import { metricList, metricNames, METRICS } from "../support/metrics";
import { isWrappedSecret, ofType, plainStrings, Registration, unwrapSecrets } from "../support/mocks";
import { runProgram } from "../support/program";
import { TARGET_KUBE_VERSION } from "./kubernetesSchema";

const ROOT = path.join(__dirname, "..", "..");
const BIN = path.join(process.env.MARA_ALERTING_DIR ?? path.join(ROOT, ".cache", "alerting"), "bin");

/** A tool test/alerting/build.sh builds; a clear failure when it has not been built. */
function tool(name: "promtool" | "amtool"): string {
    const file = path.join(BIN, name);
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: build the alerting tests' tools with bash test/alerting/build.sh (needs Go and the Go module proxy)`);
    return file;
}

/** Runs a tool; its exit code and output. The timeout is a safety net, many times what a run takes. */
function run(file: string, args: string[], cwd: string): Promise<{ code: number; out: string }> {
    return new Promise((resolve) => {
        execFile(file, args, { cwd, timeout: 100_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
            const code = err ? (typeof (err as { code?: unknown }).code === "number" ? ((err as { code: number }).code) : 1) : 0;
            resolve({ code, out: `${stdout}${stderr}` });
        });
    });
}

const SLACK = "https://hooks.slack.com/services/T0MARKER1/B0MARKER2/SlackMarkerSecret3";
const ROUTING_KEY = "PagerDutyMarkerRoutingKey0000042";
const PASSWORD = "smtp-marker-password-5";
const TOKEN = "webhook-marker-token-6";
const MARKERS = [SLACK, ROUTING_KEY, PASSWORD, TOKEN];
const RECEIVER_KEYS: Record<string, string> = {
    "mara:alertSlackWebhookUrl": SLACK,
    "mara:alertSlackChannel": "#platform-alerts",
    "mara:alertPagerdutyRoutingKey": ROUTING_KEY,
    "mara:alertEmailTo": "oncall@example.com, Platform Team <platform@example.com>",
    "mara:alertEmailFrom": "Alertmanager <alertmanager@example.com>",
    "mara:alertEmailSmarthost": "smtp.example.com:587",
    "mara:alertEmailUsername": "alertmanager@example.com",
    "mara:alertEmailPassword": PASSWORD,
    "mara:alertWebhookUrl": "https://hooks.example.com/alertmanager",
    "mara:alertWebhookBearerToken": TOKEN,
};
const SECRET_KEYS = ["mara:alertSlackWebhookUrl", "mara:alertPagerdutyRoutingKey", "mara:alertEmailPassword", "mara:alertWebhookBearerToken"];

const PROMETHEUS_RULE = "kubernetes:monitoring.coreos.com/v1:PrometheusRule";
const ALERTMANAGER_CONFIG_SECRET = "alertmanager-prometheus-kube-prometheus-alertmanager";

type RuleGroup = { name: string; rules: { alert: string; expr: string; for: string; labels: Record<string, string>; annotations: Record<string, string> }[] };

let dir: string;
let regs: Registration[];
let rendered: KubeObject[];
let groups: RuleGroup[];

/** kube-prometheus-stack rendered by Helm from the release the program registered. */
async function renderPrometheus(values: Record<string, unknown>, release: { release: string; namespace: string; chart: string; version: string }): Promise<KubeObject[]> {
    const out = await helmTemplate({ release: release.release, namespace: release.namespace, chartPath: vendoredChart(release.chart, release.version)!, values, kubeVersion: TARGET_KUBE_VERSION, includeCrds: false });
    if (!out.ok) throw new Error(out.error);
    return parseManifest(out.manifest);
}

/** The alertmanager.yaml of the configuration Secret the chart renders. */
function renderedConfig(objects: KubeObject[]): string {
    const secret = objects.find((o) => o.kind === "Secret" && o.metadata?.name === ALERTMANAGER_CONFIG_SECRET) as (KubeObject & { data: Record<string, string> }) | undefined;
    if (!secret) throw new Error(`the chart rendered no Secret ${ALERTMANAGER_CONFIG_SECRET}`);
    return Buffer.from(secret.data["alertmanager.yaml"]!, "base64").toString("utf8");
}

/** amtool's verdict on where an alert with `labels` goes. */
async function routeOf(configFile: string, labels: string[]): Promise<string> {
    const r = await run(tool("amtool"), ["config", "routes", "test", `--config.file=${configFile}`, ...labels], dir);
    expect(r.code, r.out).toBe(0);
    return r.out.trim();
}

beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-alerting-"));
    const raw = fixture("mara-kubeconfig");
    const result = await runProgram({ ...raw, values: { ...raw.values, ...RECEIVER_KEYS }, secretKeys: new Set([...raw.secretKeys, ...SECRET_KEYS]) });
    expect(result.error).toBeUndefined();
    regs = result.registrations;
    groups = ofType(regs, PROMETHEUS_RULE).flatMap((r) => ((unwrapSecrets(r.inputs) as { spec: { groups: RuleGroup[] } }).spec.groups));
    fs.writeFileSync(path.join(dir, "rules.yaml"), stringify({ groups }, { lineWidth: 0 }));
    fs.copyFileSync(path.join(ROOT, "test", "alerting", "rules.test.yaml"), path.join(dir, "rules.test.yaml"));
    const release = releasesOf(regs).find((r) => r.chart === "kube-prometheus-stack")!;
    rendered = await renderPrometheus(release.values, release);
    fs.writeFileSync(path.join(dir, "alertmanager.yaml"), renderedConfig(rendered));
}, 240_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the alert rules the program registers", () => {
    it("are one PrometheusRule per component, beside Prometheus or the application, each a group of its own", () => {
        const rules = ofType(regs, PROMETHEUS_RULE).map((r) => unwrapSecrets(r.inputs) as { metadata: { name: string; namespace: string } });
        expect(rules.map((r) => `${r.metadata.namespace}/${r.metadata.name}`).sort()).toEqual(["bos/mara-application", "bos/mara-database", "prometheus/mara-certificates", "prometheus/mara-ingress", "prometheus/mara-logstore"]);
        expect(groups.map((g) => g.name).sort()).toEqual(["mara.application", "mara.certificates", "mara.database", "mara.ingress", "mara.logstore"]);
    });

    // Each tool run takes a second or two of CPU; the timeouts leave room for a loaded machine (docs/testing.md).
    it("pass promtool check rules", async () => {
        const r = await run(tool("promtool"), ["check", "rules", "rules.yaml"], dir);
        expect(r.code, r.out).toBe(0);
        const count = groups.reduce((n, g) => n + g.rules.length, 0);
        expect(r.out).toContain(`SUCCESS: ${count} rules found`);
    }, 120_000);

    it("pass promtool test rules: each alert fires on the series that should fire it, and stays quiet on the others", async () => {
        const r = await run(tool("promtool"), ["test", "rules", "rules.test.yaml"], dir);
        expect(r.code, r.out).toBe(0);
        expect(r.out).toContain("SUCCESS");
    }, 120_000);

    it("each have a unit test where they fire and one where they do not, at each severity", () => {
        const tests = parse(fs.readFileSync(path.join(dir, "rules.test.yaml"), "utf8")) as { tests: { alert_rule_test?: { alertname: string; exp_alerts?: { exp_labels?: Record<string, string> }[] }[] }[] };
        const cases = tests.tests.flatMap((t) => t.alert_rule_test ?? []);
        for (const g of groups) {
            for (const rule of g.rules) {
                const own = cases.filter((c) => c.alertname === rule.alert);
                expect(own.some((c) => (c.exp_alerts ?? []).length === 0), `${rule.alert} never tested quiet`).toBe(true);
                expect(own.some((c) => (c.exp_alerts ?? []).some((a) => a.exp_labels?.severity === rule.labels.severity)), `${rule.alert} (${rule.labels.severity}) never tested firing`).toBe(true);
            }
        }
    });

    it("read only metrics an exporter the platform scrapes serves (test/fixtures/metrics/)", () => {
        const served = new Set(fs.readdirSync(METRICS).flatMap((f) => [...metricList(f).values()].flatMap((s) => [...s])));
        const read = [...new Set(groups.flatMap((g) => g.rules.flatMap((r) => metricNames(r.expr))))];
        expect(read.length).toBeGreaterThan(10);
        expect(read.filter((m) => !served.has(m))).toEqual([]);
    });

    it("select the controller's and cert-manager's targets by the names their charts give the metrics Services (Prometheus's job label)", async () => {
        const cases = [
            ["nginx-ingress", KIC_METRICS_LABELS, KIC_METRICS_SERVICE, "prometheus"],
            ["cert-manager", CERT_MANAGER_METRICS_LABELS, CERT_MANAGER_METRICS_SERVICE, "http-metrics"],
        ] as const;
        for (const [chart, labels, service, port] of cases) {
            const release = releasesOf(regs).find((r) => r.chart === chart)!;
            // nginx-ingress's values schema refers to definitions on the internet: Helm cannot fetch them offline (docs/testing.md).
            const out = await helmTemplate({ release: release.release, namespace: release.namespace, chartPath: vendoredChart(release.chart, release.version)!, values: release.values, kubeVersion: TARGET_KUBE_VERSION, includeCrds: false, skipSchemaValidation: chart === "nginx-ingress" });
            if (!out.ok) throw new Error(out.error);
            const selected = parseManifest(out.manifest).filter((o) => o.kind === "Service" && Object.entries(labels).every(([k, v]) => o.metadata?.labels?.[k] === v)) as (KubeObject & { spec: { ports: { name: string }[] } })[];
            expect(selected.map((o) => o.metadata!.name), chart).toEqual([service]);
            expect(selected[0]!.spec.ports.map((p) => p.name), chart).toContain(port);
        }
        const rules = JSON.stringify(groups);
        for (const service of [KIC_METRICS_SERVICE, CERT_MANAGER_METRICS_SERVICE]) expect(rules).toContain(`job=\\"${service}\\"`);
    }, 120_000);

    it("carry a severity, a component, a summary, a description and a runbook that docs/alerts.md has a section for", () => {
        const doc = fs.readFileSync(path.join(ROOT, "docs", "alerts.md"), "utf8");
        const anchors = new Set([...doc.matchAll(/^### (\w+)$/gm)].map((m) => runbookAnchor(m[1]!)));
        for (const g of groups) {
            for (const rule of g.rules) {
                expect(["critical", "warning"], rule.alert).toContain(rule.labels.severity);
                expect(rule.labels.component, rule.alert).toBe(g.name.replace(/^mara\./, ""));
                expect(rule.annotations.summary.length, rule.alert).toBeGreaterThan(10);
                expect(rule.annotations.description.length, rule.alert).toBeGreaterThan(20);
                expect(rule.annotations.runbook_url, rule.alert).toBe(`docs/alerts.md#${runbookAnchor(rule.alert)}`);
                expect(anchors.has(runbookAnchor(rule.alert)), `docs/alerts.md has no "### ${rule.alert}"`).toBe(true);
            }
        }
    });
});

describe("the Alertmanager configuration kube-prometheus-stack renders", () => {
    it("passes amtool check-config, with the three receivers", async () => {
        const r = await run(tool("amtool"), ["check-config", "alertmanager.yaml"], dir);
        expect(r.code, r.out).toBe(0);
        expect(r.out).toContain("SUCCESS");
        expect(r.out).toMatch(/ - 3 receivers/);
    }, 120_000);

    it("routes by severity: critical to the paging receiver, warnings and alerts without a severity to chat, info and the heartbeat nowhere", async () => {
        const file = path.join(dir, "alertmanager.yaml");
        expect(await routeOf(file, ["severity=critical", "component=ingress"])).toBe(ALERT_RECEIVERS.critical);
        expect(await routeOf(file, ["severity=critical", "component=certificates"])).toBe(ALERT_RECEIVERS.critical);
        expect(await routeOf(file, ["severity=warning", "component=database"])).toBe(ALERT_RECEIVERS.warning);
        expect(await routeOf(file, ["severity=warning", "component=certificates"])).toBe(ALERT_RECEIVERS.warning);
        expect(await routeOf(file, ["alertname=KubeNodeNotReady"])).toBe(ALERT_RECEIVERS.warning);
        expect(await routeOf(file, ["severity=info", "alertname=KubeQuotaAlmostFull"])).toBe(ALERT_RECEIVERS.none);
        expect(await routeOf(file, ["alertname=Watchdog", "severity=none"])).toBe(ALERT_RECEIVERS.none);
        expect(await routeOf(file, ["alertname=InfoInhibitor", "severity=critical"])).toBe(ALERT_RECEIVERS.none);
    }, 120_000);

    it("sends critical alerts to PagerDuty, email, Slack and the webhook, and warnings to Slack and the webhook", () => {
        const config = parse(fs.readFileSync(path.join(dir, "alertmanager.yaml"), "utf8")) as { receivers: Record<string, unknown>[] };
        const kinds = (name: string) => Object.keys(config.receivers.find((r) => r.name === name)!).filter((k) => k.endsWith("_configs")).sort();
        expect(kinds(ALERT_RECEIVERS.critical)).toEqual(["email_configs", "pagerduty_configs", "slack_configs", "webhook_configs"]);
        expect(kinds(ALERT_RECEIVERS.warning)).toEqual(["slack_configs", "webhook_configs"]);
        expect(kinds(ALERT_RECEIVERS.none)).toEqual([]);
    });

    it("formats a Slack message Alertmanager can render: the alert, its severity and component, its summary and runbook", async () => {
        const config = parse(fs.readFileSync(path.join(dir, "alertmanager.yaml"), "utf8")) as { receivers: { name: string; slack_configs?: { title: string; text: string }[] }[] };
        const slack = config.receivers.find((r) => r.name === ALERT_RECEIVERS.critical)!.slack_configs![0]!;
        // Alertmanager's template data (github.com/prometheus/alertmanager template.Data), for one firing alert.
        const alert = { status: "firing", labels: { alertname: "NginxIngressControllerDown", severity: "critical", component: "ingress" }, annotations: { summary: "No NGINX Ingress Controller answers Prometheus", runbook_url: "docs/alerts.md#nginxingresscontrollerdown" }, startsAt: "2026-11-20T10:00:00Z", endsAt: "0001-01-01T00:00:00Z", generatorURL: "", fingerprint: "1" };
        const data = path.join(dir, "data.json");
        fs.writeFileSync(data, JSON.stringify({ receiver: "critical", status: "firing", alerts: [alert], groupLabels: { alertname: "NginxIngressControllerDown" }, commonLabels: alert.labels, commonAnnotations: alert.annotations, externalURL: "http://alertmanager:9093" }));
        fs.writeFileSync(path.join(dir, "none.tmpl"), "");
        const render = (text: string) => run(tool("amtool"), ["template", "render", `--template.glob=${path.join(dir, "*.tmpl")}`, `--template.data=${data}`, `--template.text=${text}`], dir);
        const text = await render(slack.text);
        expect(text.code, text.out).toBe(0);
        expect(text.out.trim()).toBe("*NginxIngressControllerDown* (critical, ingress): No NGINX Ingress Controller answers Prometheus <docs/alerts.md#nginxingresscontrollerdown|runbook>");
        const title = await render(slack.title);
        expect(title.code, title.out).toBe(0);
        expect(title.out).toContain("[FIRING:1] NginxIngressControllerDown");
        // A broken template is refused: the check can fail.
        expect((await render("{{ range .Alerts }")).code).not.toBe(0);
    }, 120_000);

    it("names each credential's file in the mounted Secret, and holds none of them", () => {
        const text = fs.readFileSync(path.join(dir, "alertmanager.yaml"), "utf8");
        const files = [...text.matchAll(/_file: (\S+)/g)].map((m) => m[1]!);
        const keys = Object.values(RECEIVER_SECRET_KEYS);
        expect(files.sort()).toEqual(
            [...keys, RECEIVER_SECRET_KEYS.slackWebhookUrl, RECEIVER_SECRET_KEYS.webhookBearerToken].map((k) => `${ALERTMANAGER_SECRETS_DIR}/${RECEIVERS_SECRET}/${k}`).sort(),
        );
        // The Secret the program creates holds those keys, each a secret.
        const secret = ofType(regs, "kubernetes:core/v1:Secret").find((r) => (unwrapSecrets(r.inputs) as KubeObject).metadata?.name === RECEIVERS_SECRET)!;
        // Its data is sent as a secret: Pulumi encrypts it in the state.
        expect(isWrappedSecret(secret.inputs!.stringData)).toBe(true);
        const data = unwrapSecrets(secret.inputs!.stringData) as Record<string, string>;
        expect(Object.keys(data).sort()).toEqual([...keys].sort());
        expect(data).toEqual({ [RECEIVER_SECRET_KEYS.slackWebhookUrl]: SLACK, [RECEIVER_SECRET_KEYS.pagerDutyRoutingKey]: ROUTING_KEY, [RECEIVER_SECRET_KEYS.emailPassword]: PASSWORD, [RECEIVER_SECRET_KEYS.webhookBearerToken]: TOKEN });
        // The operator mounts every Secret the Alertmanager resource lists at /etc/alertmanager/secrets/<name>/.
        const am = rendered.find((o) => o.kind === "Alertmanager") as KubeObject & { spec: { secrets?: string[] } };
        expect(am.spec.secrets).toEqual([RECEIVERS_SECRET]);
        for (const m of MARKERS) expect(text).not.toContain(m);
    });

    it("puts no credential into the Helm values, any registration's plain inputs, or anything Helm renders", () => {
        const plain = regs.flatMap((r) => plainStrings(r.inputs));
        const everything = [JSON.stringify(plain), JSON.stringify(rendered)];
        for (const m of MARKERS) for (const text of everything) expect(text).not.toContain(m);
    });
});

describe("every combination of receivers, through amtool", () => {
    const slack = { webhookUrl: "unused" };
    const email = { to: ["oncall@example.com"], from: "am@example.com", smarthost: "smtp.example.com:587" };
    const webhook = { url: "https://hooks.example.com/alertmanager" };
    const cases: [string, AlertingArgs, { critical: string[]; warning: string[] }][] = [
        ["none", {}, { critical: [], warning: [] }],
        ["PagerDuty alone", { pagerDuty: { routingKey: "unused" } }, { critical: ["pagerduty_configs"], warning: [] }],
        ["email alone", { email }, { critical: ["email_configs"], warning: ["email_configs"] }],
        ["Slack and email", { slack, email }, { critical: ["email_configs", "slack_configs"], warning: ["slack_configs"] }],
        ["a webhook without a token, longer intervals", { webhook, criticalRepeatInterval: "4h", warningRepeatInterval: "5d" }, { critical: ["webhook_configs"], warning: ["webhook_configs"] }],
        ["email without TLS on the implicit-TLS port", { email: { ...email, smarthost: "smtp.example.com:465", username: "am", password: "unused", requireTls: false } }, { critical: ["email_configs"], warning: ["email_configs"] }],
    ];

    it.each(cases)("%s: amtool accepts the configuration Helm renders, with the receivers it should have", async (name, alerting, want) => {
        const release = releasesOf(regs).find((r) => r.chart === "kube-prometheus-stack")!;
        const values = { ...release.values, alertmanager: (prometheusValues({ grafanaAdminSecret: "grafana-admin", storageSize: "10Gi", dashboardStorageSize: "5Gi", alertmanagerConfig: alertmanagerConfig(alerting) }) as { alertmanager: unknown }).alertmanager };
        const file = path.join(dir, `alertmanager-${name.replace(/\W+/g, "-")}.yaml`);
        fs.writeFileSync(file, renderedConfig(await renderPrometheus(values, release)));
        const r = await run(tool("amtool"), ["check-config", file], dir);
        expect(r.code, r.out).toBe(0);
        const config = parse(fs.readFileSync(file, "utf8")) as { receivers: Record<string, unknown>[]; route: { repeat_interval: string; routes: { repeat_interval?: string }[] } };
        const kinds = (n: string) => Object.keys(config.receivers.find((x) => x.name === n)!).filter((k) => k.endsWith("_configs")).sort();
        expect({ critical: kinds(ALERT_RECEIVERS.critical), warning: kinds(ALERT_RECEIVERS.warning) }).toEqual(want);
        expect(await routeOf(file, ["severity=critical", "component=application"])).toBe(ALERT_RECEIVERS.critical);
        expect(config.route.repeat_interval).toBe(alerting.warningRepeatInterval ?? "12h");
    }, 120_000);
});

describe("mara render with the receivers configured", () => {
    it("writes the receivers' Secret as an ExternalSecret with its four keys, and no credential into any file", async () => {
        const raw = fixture("mara-kubeconfig");
        const withReceivers = { ...raw, values: { ...raw.values, ...RECEIVER_KEYS }, secretKeys: new Set([...raw.secretKeys, ...SECRET_KEYS]) };
        const config = validateConfig(withReceivers).config!;
        const result = await renderPlatform({
            raw: withReceivers,
            config,
            program,
            secrets: { mode: "external", store: "mara", storeKind: "ClusterSecretStore", provider: "vault", remoteKeyPrefix: "mara/" },
        });
        for (const [file, text] of result.files) for (const m of MARKERS) expect(text, file).not.toContain(m);
        const external = [...result.files.values()]
            .flatMap((text) => text.split(/^---$/m).map((doc) => parse(doc) as KubeObject & { spec?: { data?: { secretKey: string }[] } }))
            .find((o) => o?.kind === "ExternalSecret" && o.metadata?.name === RECEIVERS_SECRET);
        expect(external?.metadata?.namespace).toBe("prometheus");
        expect(external!.spec!.data!.map((d) => d.secretKey).sort()).toEqual(Object.values(RECEIVER_SECRET_KEYS).sort());
        expect(result.secrets.filter((e) => e.secret === RECEIVERS_SECRET).map((e) => `${e.remoteKey} ${e.key}`).sort()).toEqual(
            Object.values(RECEIVER_SECRET_KEYS).map((k) => `mara/prometheus/${RECEIVERS_SECRET} ${k}`).sort(),
        );
        // The chart's configuration Secret holds no credential, but the render treats it as every Secret with data.
        expect(result.secrets.filter((e) => e.secret === ALERTMANAGER_CONFIG_SECRET).map((e) => e.key)).toEqual(["alertmanager.yaml"]);
    }, 240_000);
});
