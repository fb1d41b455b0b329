/**
 * Alerting as the Prometheus component builds it under mocks: the receivers' credentials in one Secret whose data is
 * secret, mounted into Alertmanager and named by file in its configuration (never a value in the Helm values or any
 * plain input); the release waits for the Secret; cert-manager scraped with its own namespace labels kept; the alert
 * rules as PrometheusRules after the release that installs their CRD; and the plain settings a library user passes
 * refused with the rules `mara validate` applies. The route tree itself is checked by amtool (test/render/alerting.test.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { AlertingArgs, alertingProblems, alertmanagerConfig, certificateRules, ingressRules, Prometheus, RECEIVERS_SECRET, ruleGroupSpec } from "../../components";
import { k8sProviderRef, testProvider, validateKubernetesObjects } from "../support/k8s";
import { find, installMocks, isWrappedSecret, ofType, plainStrings, Registration, settle, unwrapSecrets } from "../support/mocks";

const RELEASE = "kubernetes:helm.sh/v3:Release";
const SECRET = "kubernetes:core/v1:Secret";
const RULE = "kubernetes:monitoring.coreos.com/v1:PrometheusRule";
const SERVICE_MONITOR = "kubernetes:monitoring.coreos.com/v1:ServiceMonitor";

const CREDENTIALS = { slack: "https://hooks.slack.com/services/T1/B2/component-marker-1", key: "ComponentMarkerRoutingKey0000002", password: "component-marker-3", token: "component-marker-4" };
const ALERTING: AlertingArgs = {
    slack: { webhookUrl: CREDENTIALS.slack, channel: "#ops" },
    pagerDuty: { routingKey: pulumi.secret(CREDENTIALS.key) },
    email: { to: ["oncall@example.com"], from: "am@example.com", smarthost: "smtp.example.com:587", username: "am", password: CREDENTIALS.password },
    webhook: { url: "https://hooks.example.com/am", bearerToken: CREDENTIALS.token },
    criticalRepeatInterval: "30m",
};

describe("Prometheus with alerting", () => {
    let regs: Registration[];
    let provider: string;
    const groups = [ingressRules({ namespace: "nginx-ingress", job: "kic-nginx-ingress-prometheus-service" }), certificateRules({ namespace: "cert-manager", job: "certmgr-cert-manager" })];

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        const k8s = testProvider();
        new Prometheus(
            "prometheus",
            {
                grafanaAdminPassword: "grafana-secret-pw",
                alerting: ALERTING,
                alertRules: groups,
                alertRunbookUrl: "https://wiki.example.com/alerts.md",
                certManagerMetrics: { namespace: "cert-manager", selector: { "app.kubernetes.io/name": "cert-manager" }, port: "http-metrics", honorLabels: true },
            },
            { providers: [k8s] },
        );
        await settle();
        provider = await k8sProviderRef(k8s);
    }, 180_000);

    it("keeps every credential in the alertmanager-receivers Secret, its data secret", () => {
        const secret = find(regs, SECRET, "prometheus-alertmanager-receivers");
        expect(secret.inputs!.metadata).toEqual({ name: RECEIVERS_SECRET, namespace: "prometheus" });
        expect(isWrappedSecret(secret.inputs!.stringData)).toBe(true);
        expect(unwrapSecrets(secret.inputs!.stringData)).toEqual({
            "slack-webhook-url": CREDENTIALS.slack,
            "pagerduty-routing-key": CREDENTIALS.key,
            "email-password": CREDENTIALS.password,
            "webhook-bearer-token": CREDENTIALS.token,
        });
    });

    it("gives kube-prometheus-stack the configuration with file paths, mounts the Secret, and waits for it", () => {
        const release = find(regs, RELEASE, "prometheus-release");
        const values = release.inputs!.values as { alertmanager: { config: unknown; alertmanagerSpec: { secrets: string[] } } };
        expect(values.alertmanager.config).toEqual(alertmanagerConfig(ALERTING));
        expect(values.alertmanager.alertmanagerSpec.secrets).toEqual([RECEIVERS_SECRET]);
        expect(release.dependencies).toContain(find(regs, SECRET, "prometheus-alertmanager-receivers").urn);
    });

    it("puts no credential into any plain input", () => {
        for (const r of regs.filter((x) => x.inputs)) {
            for (const s of plainStrings(r.inputs)) for (const c of Object.values(CREDENTIALS)) expect(s, `${r.type} ${r.name}`).not.toContain(c);
        }
    });

    it("creates one PrometheusRule per group after the release, with the runbooks at the address given", () => {
        const rules = ofType(regs, RULE);
        expect(rules.map((r) => r.name).sort()).toEqual(["prometheus-alerts-certificates", "prometheus-alerts-ingress"]);
        const ingress = find(regs, RULE, "prometheus-alerts-ingress");
        expect(ingress.inputs).toMatchObject({ metadata: { name: "mara-ingress", namespace: "prometheus", labels: { "app.kubernetes.io/component": "alerts" } } });
        expect((ingress.inputs!.spec as { groups: unknown[] }).groups).toEqual([ruleGroupSpec(groups[0]!, "https://wiki.example.com/alerts.md")]);
        expect(JSON.stringify(ingress.inputs)).toContain('"runbook_url":"https://wiki.example.com/alerts.md#nginxingresscontrollerdown"');
        for (const r of rules) expect(r.dependencies).toContain(find(regs, RELEASE, "prometheus-release").urn);
    });

    it("scrapes cert-manager keeping the Certificates' own namespace labels", () => {
        const monitor = find(regs, SERVICE_MONITOR, "prometheus-cert-manager");
        expect(monitor.inputs!.spec).toEqual({
            namespaceSelector: { matchNames: ["cert-manager"] },
            selector: { matchLabels: { "app.kubernetes.io/name": "cert-manager" } },
            endpoints: [{ port: "http-metrics", interval: "15s", scheme: "http", honorLabels: true }],
        });
    });

    it("puts everything on the cluster's provider and passes schema validation", () => {
        for (const r of regs.filter((x) => x.type.startsWith("kubernetes:") && !x.type.endsWith(":CustomResourceDefinitionPatch"))) expect(r.provider, r.name).toBe(provider);
        const { checked, errors } = validateKubernetesObjects(regs);
        expect(errors).toEqual([]);
        expect(checked).toContain("Secret/prometheus-alertmanager-receivers");
    });
});

describe("Prometheus without receivers", () => {
    it("creates no receivers' Secret and mounts nothing, and still routes with the platform's tree", async () => {
        const { registrations } = await installMocks();
        new Prometheus("prometheus", { grafanaAdminPassword: "grafana-secret-pw" }, { providers: [testProvider()] });
        await settle();
        expect(ofType(registrations, SECRET).map((r) => r.name)).toEqual(["prometheus-grafana-admin"]);
        const values = find(registrations, RELEASE, "prometheus-release").inputs!.values as { alertmanager: { config: unknown; alertmanagerSpec: Record<string, unknown> } };
        expect(values.alertmanager.config).toEqual(alertmanagerConfig());
        expect(values.alertmanager.alertmanagerSpec.secrets).toBeUndefined();
    }, 120_000);
});

describe("a library user's alerting settings", () => {
    it("are refused with the rules mara validate applies, naming the argument", () => {
        expect(
            alertingProblems({
                slack: { webhookUrl: "x", channel: "Ops" },
                email: { to: [], from: "am@", smarthost: "smtp.example.com", password: "p", requireTls: false },
                webhook: { url: "https://user:pw@hooks.example.com/" },
                warningRepeatInterval: "1m",
            }),
        ).toEqual([
            'slack.channel "Ops" is neither #name nor a channel ID (did you mean #ops?). Allowed: #channel-name (lower-case letters, digits, \'-\' and \'_\', at most 80) or a channel ID such as C0123456789.',
            'email.to is empty. Allowed: an email address such as alerts@example.com, or with a name: "Platform Alerts <alerts@example.com>", at least one.',
            'email.from "am@" has an invalid domain "". Allowed: an email address such as alerts@example.com, or with a name: "Platform Alerts <alerts@example.com>".',
            'email.smarthost "smtp.example.com" has no port (Alertmanager needs host:port, such as smtp.example.com:587). Allowed: host:port of an SMTP server, such as smtp.example.com:587 ([address]:port for IPv6; port 465 is implicit TLS).',
            "email.password is set without email.username, and Alertmanager authenticates only with a user name.",
            "email.requireTls is false with a password: Alertmanager would send the password in clear text to a server that offers no STARTTLS. Set requireTls true, or use port 465 (implicit TLS).",
            'webhook.url "https://user:pw@hooks.example.com/" holds user information (user:password@), a credential. Allowed: an https:// URL with a host name, such as https://alerts.example.com/hook, without a credential (a token goes in bearerToken).',
            'warningRepeatInterval "1m" is shorter than 5m, the group interval: Alertmanager repeats only when a group is flushed, so it would repeat every 5m all the same. Allowed: a duration from 5m to 120h in Prometheus\'s form, units from largest to smallest (1h, 90m, 1d12h).',
        ]);
        expect(alertingProblems(ALERTING)).toEqual([]);
    });

    // The component is registered before its constructor refuses the arguments: the test waits for that
    // registration on mocks of its own, so it never reaches another test's mocks as an unhandled rejection.
    it("stop the component before it creates anything", async () => {
        const { registrations } = await installMocks();
        expect(() => new Prometheus("p", { grafanaAdminPassword: "pw-pw-pw-pw", alerting: { email: { to: ["a@example.com"], from: "b@example.com", smarthost: "smtp.example.com" } } })).toThrow(
            'Prometheus: email.smarthost "smtp.example.com" has no port',
        );
        await settle();
        expect(registrations.map((r) => r.type)).toEqual(["mara:observability:Prometheus"]);
    });
});
