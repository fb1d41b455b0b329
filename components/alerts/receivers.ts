/**
 * Where Alertmanager sends the platform's alerts: the receivers a user configures, and how their credentials reach
 * Alertmanager. Each credential is a key of one Kubernetes Secret, mounted into the Alertmanager pods through
 * kube-prometheus-stack's `alertmanager.alertmanagerSpec.secrets` (the operator mounts each listed Secret at
 * `/etc/alertmanager/secrets/<name>/`), and the configuration names the file (`api_url_file`, `routing_key_file`,
 * `auth_password_file`, `credentials_file`): no credential is in the Helm values, the Pulumi state or a render.
 */
import * as pulumi from "@pulumi/pulumi";
import {
    DEFAULTS,
    EMAIL_ADDRESS_ALLOWED,
    emailAddressProblem,
    IMPLICIT_TLS_PORT,
    RECEIVER_URL_ALLOWED,
    receiverUrlCredentialProblem,
    receiverUrlProblem,
    REPEAT_INTERVAL_ALLOWED,
    repeatIntervalProblem,
    SLACK_CHANNEL_ALLOWED,
    slackChannelProblem,
    SMARTHOST_ALLOWED,
    smarthostProblem,
} from "../../contracts";

/** Slack, through an incoming webhook. */
export interface SlackReceiverArgs {
    /** The incoming webhook's URL (`https://hooks.slack.com/services/…`): a credential, kept secret. */
    webhookUrl: pulumi.Input<string>;
    /**
     * Channel to post to (`#name` or a channel ID). Default: the webhook's own channel (webhooks of Slack apps always
     * post there).
     */
    channel?: string;
}

/** PagerDuty, through an Events API v2 integration. */
export interface PagerDutyReceiverArgs {
    /** The integration's 32-character routing (integration) key: a credential, kept secret. */
    routingKey: pulumi.Input<string>;
}

/** Email, through an SMTP server. */
export interface EmailReceiverArgs {
    /** Recipients, each an address (`alerts@example.com`) or a named one (`Ops <ops@example.com>`); at least one. */
    to: string[];
    /** Sender address. */
    from: string;
    /** The SMTP server as `host:port` (port 465 speaks implicit TLS, as Alertmanager does there). */
    smarthost: string;
    /** User name to authenticate as. Default: no authentication. */
    username?: string;
    /** Password of `username`: a credential, kept secret. Needs `username`. */
    password?: pulumi.Input<string>;
    /**
     * Refuse to send unless the server offers STARTTLS (Alertmanager's `require_tls`); a password is never sent
     * without TLS. Default true.
     */
    requireTls?: boolean;
}

/** Any HTTP endpoint that takes Alertmanager's webhook payload (an incident tool, a chat bridge). */
export interface WebhookReceiverArgs {
    /** The https:// URL Alertmanager posts to; it is written in the configuration, so it must hold no credential. */
    url: string;
    /** Token sent as `Authorization: Bearer …`: a credential, kept secret. Default: none. */
    bearerToken?: pulumi.Input<string>;
}

/**
 * Alertmanager's receivers and the route tree's intervals (docs/alerts.md). Critical alerts go to PagerDuty, email,
 * Slack and the webhook, each that is configured; warnings to Slack and the webhook, or to email when neither is.
 */
export interface AlertingArgs {
    /** Slack receiver. Default: none. */
    slack?: SlackReceiverArgs;
    /** PagerDuty receiver. Default: none. */
    pagerDuty?: PagerDutyReceiverArgs;
    /** Email receiver. Default: none. */
    email?: EmailReceiverArgs;
    /** Generic webhook receiver. Default: none. */
    webhook?: WebhookReceiverArgs;
    /** How often a critical alert that keeps firing is sent again. Default `1h`. */
    criticalRepeatInterval?: string;
    /** How often a warning that keeps firing is sent again. Default `12h`. */
    warningRepeatInterval?: string;
}

/** The Secret that holds the receivers' credentials, in the monitoring namespace. */
export const RECEIVERS_SECRET = "alertmanager-receivers";

/** Where the Prometheus operator mounts a Secret listed in `alertmanagerSpec.secrets` (its Alertmanager StatefulSet). */
export const ALERTMANAGER_SECRETS_DIR = "/etc/alertmanager/secrets";

/** The keys of {@link RECEIVERS_SECRET}, one per credential. */
export const RECEIVER_SECRET_KEYS = {
    slackWebhookUrl: "slack-webhook-url",
    pagerDutyRoutingKey: "pagerduty-routing-key",
    emailPassword: "email-password",
    webhookBearerToken: "webhook-bearer-token",
} as const;

/** A credential's key in the Secret. */
export type ReceiverSecretKey = (typeof RECEIVER_SECRET_KEYS)[keyof typeof RECEIVER_SECRET_KEYS];

/** The file Alertmanager reads a credential from. */
export const receiverSecretFile = (key: ReceiverSecretKey) => `${ALERTMANAGER_SECRETS_DIR}/${RECEIVERS_SECRET}/${key}`;

/** The Secret's data: each credential that is configured, under its key. Empty when there is none. */
export function receiverSecretData(a: AlertingArgs): Partial<Record<ReceiverSecretKey, pulumi.Input<string>>> {
    const k = RECEIVER_SECRET_KEYS;
    return {
        ...(a.slack ? { [k.slackWebhookUrl]: a.slack.webhookUrl } : {}),
        ...(a.pagerDuty ? { [k.pagerDutyRoutingKey]: a.pagerDuty.routingKey } : {}),
        ...(a.email?.password !== undefined ? { [k.emailPassword]: a.email.password } : {}),
        ...(a.webhook?.bearerToken !== undefined ? { [k.webhookBearerToken]: a.webhook.bearerToken } : {}),
    };
}

/** Whether any receiver is configured. */
export const hasReceivers = (a: AlertingArgs | undefined): a is AlertingArgs => a !== undefined && !!(a.slack || a.pagerDuty || a.email || a.webhook);

/**
 * Why the plain settings of `a` would not work, one message each (the credentials are Outputs, checked by the
 * configuration before they get here): the same rules `mara validate` applies (contracts/alertReceivers.ts).
 */
export function alertingProblems(a: AlertingArgs): string[] {
    const out: string[] = [];
    const check = (arg: string, value: string | undefined, problem: (v: string) => string | undefined, allowed: string) => {
        const why = value === undefined ? undefined : problem(value);
        if (why) out.push(`${arg} "${value}" ${why}. Allowed: ${allowed}.`);
    };
    check("slack.channel", a.slack?.channel, slackChannelProblem, SLACK_CHANNEL_ALLOWED);
    if (a.email) {
        if (a.email.to.length === 0) out.push(`email.to is empty. Allowed: ${EMAIL_ADDRESS_ALLOWED}, at least one.`);
        a.email.to.forEach((to, i) => check(`email.to[${i}]`, to, emailAddressProblem, EMAIL_ADDRESS_ALLOWED));
        check("email.from", a.email.from, emailAddressProblem, EMAIL_ADDRESS_ALLOWED);
        check("email.smarthost", a.email.smarthost, smarthostProblem, SMARTHOST_ALLOWED);
        if (a.email.password !== undefined && a.email.username === undefined) out.push("email.password is set without email.username, and Alertmanager authenticates only with a user name.");
        const tls = a.email.requireTls ?? DEFAULTS.prometheus.alerting.emailRequireTls;
        if (a.email.password !== undefined && !tls && !a.email.smarthost.endsWith(`:${IMPLICIT_TLS_PORT}`)) {
            out.push(`email.requireTls is false with a password: Alertmanager would send the password in clear text to a server that offers no STARTTLS. Set requireTls true, or use port ${IMPLICIT_TLS_PORT} (implicit TLS).`);
        }
    }
    if (a.webhook) {
        check("webhook.url", a.webhook.url, (v) => receiverUrlProblem(v) ?? receiverUrlCredentialProblem(v), `${RECEIVER_URL_ALLOWED}, without a credential (a token goes in bearerToken)`);
    }
    check("criticalRepeatInterval", a.criticalRepeatInterval, repeatIntervalProblem, REPEAT_INTERVAL_ALLOWED);
    check("warningRepeatInterval", a.warningRepeatInterval, repeatIntervalProblem, REPEAT_INTERVAL_ALLOWED);
    return out;
}
