/**
 * The Alertmanager configuration the platform gives kube-prometheus-stack (`alertmanager.config`): three receivers and
 * a route tree by severity and component (docs/alerts.md, "Route tree"). It names each credential's file, never its
 * value, so it may sit in the Helm values, the Pulumi state and a render. Every field is set, none left to the chart's
 * default configuration: Helm merges the chart's default map under this one key by key, and only lists replace.
 *
 * The fields follow Alertmanager v0.34.0's configuration (config/config.go, `Route`, `InhibitRule`, `Receiver`;
 * config/notifiers.go `SlackConfig`, `EmailConfig`; notify/pagerduty/config.go, notify/webhook/config.go) and are
 * checked by `amtool check-config` in the tests, on what the program registers.
 */
import { DEFAULTS, parsePrometheusDuration } from "../../contracts";
import { AlertingArgs, RECEIVER_SECRET_KEYS, receiverSecretFile } from "./receivers";

/** The receivers of the route tree. `null` has no integration: what goes there is dropped. */
export const ALERT_RECEIVERS = { critical: "critical", warning: "warning", none: "null" } as const;

/** Labels an alert is grouped by: one notification per alert, component and namespace. */
export const ALERT_GROUP_BY = ["alertname", "component", "namespace"] as const;

/** The shortest repeat interval of certificate warnings: an expiry weeks away needs no twice-daily reminder. */
export const CERTIFICATE_WARNING_REPEAT = "24h";

/** A Slack message: each alert's summary, its runbook and where it fires. Alertmanager's template language. */
const SLACK_TEXT =
    '{{ range .Alerts }}*{{ .Labels.alertname }}* ({{ .Labels.severity }}, {{ .Labels.component }}): {{ .Annotations.summary }}' +
    '{{ if .Annotations.runbook_url }} <{{ .Annotations.runbook_url }}|runbook>{{ end }}\n{{ end }}';

/** The `alertmanager.config` value of kube-prometheus-stack for these receivers and intervals. */
export function alertmanagerConfig(a: AlertingArgs = {}): Record<string, unknown> {
    const defaults = DEFAULTS.prometheus.alerting;
    const critical = a.criticalRepeatInterval ?? defaults.criticalRepeatInterval;
    const warning = a.warningRepeatInterval ?? defaults.warningRepeatInterval;
    const longer = (x: string, y: string) => (parsePrometheusDuration(x)! >= parsePrometheusDuration(y)! ? x : y);
    const chat = [...slackConfigs(a), ...webhookConfigs(a)];
    return {
        global: { resolve_timeout: "5m" },
        route: {
            receiver: ALERT_RECEIVERS.warning,
            group_by: [...ALERT_GROUP_BY],
            group_wait: "30s",
            group_interval: "5m",
            repeat_interval: warning,
            routes: [
                // kube-prometheus-stack's always-firing heartbeat and its inhibitor of info alerts: never sent.
                { receiver: ALERT_RECEIVERS.none, matchers: ['alertname =~ "Watchdog|InfoInhibitor"'] },
                { receiver: ALERT_RECEIVERS.none, matchers: ['severity =~ "info|none"'] },
                { receiver: ALERT_RECEIVERS.critical, matchers: ['severity = "critical"'], group_wait: "10s", repeat_interval: critical },
                { receiver: ALERT_RECEIVERS.warning, matchers: ['component = "certificates"'], repeat_interval: longer(warning, CERTIFICATE_WARNING_REPEAT) },
            ],
        },
        inhibit_rules: [
            // kube-prometheus-stack's own: a critical alert silences the warning and info of the same name and namespace,
            // a warning the info, and InfoInhibitor every info alert of its namespace.
            { source_matchers: ['severity = "critical"'], target_matchers: ['severity =~ "warning|info"'], equal: ["namespace", "alertname"] },
            { source_matchers: ['severity = "warning"'], target_matchers: ['severity = "info"'], equal: ["namespace", "alertname"] },
            { source_matchers: ['alertname = "InfoInhibitor"'], target_matchers: ['severity = "info"'], equal: ["namespace"] },
            { target_matchers: ['alertname = "InfoInhibitor"'] },
            // The platform's: a component that is down says so once; its warnings (errors, latency, pods) wait.
            { source_matchers: ['severity = "critical"', 'component =~ ".+"'], target_matchers: ['severity = "warning"', 'component =~ ".+"'], equal: ["namespace", "component"] },
        ],
        receivers: [
            { name: ALERT_RECEIVERS.none },
            { name: ALERT_RECEIVERS.critical, ...integrations([...pagerDutyConfigs(a), ...emailConfigs(a), ...chat]) },
            // Warnings go to chat; to email only when there is no chat to go to.
            { name: ALERT_RECEIVERS.warning, ...integrations(chat.length > 0 ? chat : emailConfigs(a)) },
        ],
        templates: ["/etc/alertmanager/config/*.tmpl"],
    };
}

type Integration = readonly [string, Record<string, unknown>];

/** A receiver's integrations, grouped under Alertmanager's `<kind>_configs` keys. */
function integrations(list: readonly Integration[]): Record<string, Record<string, unknown>[]> {
    const out: Record<string, Record<string, unknown>[]> = {};
    for (const [kind, config] of list) (out[kind] ??= []).push(config);
    return out;
}

function slackConfigs(a: AlertingArgs): Integration[] {
    if (!a.slack) return [];
    return [
        [
            "slack_configs",
            {
                api_url_file: receiverSecretFile(RECEIVER_SECRET_KEYS.slackWebhookUrl),
                ...(a.slack.channel ? { channel: a.slack.channel } : {}),
                send_resolved: true,
                title: '{{ template "slack.default.title" . }}',
                text: SLACK_TEXT,
            },
        ],
    ];
}

function pagerDutyConfigs(a: AlertingArgs): Integration[] {
    if (!a.pagerDuty) return [];
    return [["pagerduty_configs", { routing_key_file: receiverSecretFile(RECEIVER_SECRET_KEYS.pagerDutyRoutingKey), severity: "critical", send_resolved: true }]];
}

function emailConfigs(a: AlertingArgs): Integration[] {
    const e = a.email;
    if (!e) return [];
    return [
        [
            "email_configs",
            {
                to: e.to.join(", "),
                from: e.from,
                smarthost: e.smarthost,
                require_tls: e.requireTls ?? DEFAULTS.prometheus.alerting.emailRequireTls,
                ...(e.username !== undefined ? { auth_username: e.username } : {}),
                ...(e.password !== undefined ? { auth_password_file: receiverSecretFile(RECEIVER_SECRET_KEYS.emailPassword) } : {}),
                send_resolved: true,
            },
        ],
    ];
}

function webhookConfigs(a: AlertingArgs): Integration[] {
    const w = a.webhook;
    if (!w) return [];
    return [
        [
            "webhook_configs",
            {
                url: w.url,
                send_resolved: true,
                ...(w.bearerToken !== undefined
                    ? { http_config: { authorization: { type: "Bearer", credentials_file: receiverSecretFile(RECEIVER_SECRET_KEYS.webhookBearerToken) } } }
                    : {}),
            },
        ],
    ];
}
