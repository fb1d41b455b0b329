/**
 * The rules of the alerting keys that span several keys (docs/alerts.md), and the receivers they make:
 *
 * - the email receiver needs its recipients, sender and SMTP server together; a password needs its user name
 *   (Alertmanager authenticates only with a user name, and with one but no password every mechanism fails:
 *   notify/email/email.go `auth`); a password is never sent in clear text (`require_tls` off on a
 *   port other than 465, where Alertmanager would send it to a server that offers no STARTTLS);
 * - the webhook's URL is written in plain text (Helm values, the state, the render), so a credential in it is refused,
 *   as everywhere a URL is written (config/gitops.ts): the token goes in its own secret key;
 * - a key that does nothing without another (a Slack channel without the webhook, a bearer token without a URL), and
 *   receivers that leave one severity with nowhere to go, are named in a warning; so is a user name without a
 *   password, which fails only where the server offers authentication.
 */
import { IMPLICIT_TLS_PORT, receiverUrlCredentialProblem } from "../contracts/alertReceivers";
import { KEYS, KeyId } from "./keys";
import type { Lookup } from "./lookup";
import type { MaraConfig } from "./model";
import { configSetCommand } from "./problems";
import { Findings, secretOutput } from "./resolve";

/** The keys of the email receiver. */
const EMAIL_KEYS = ["alertEmailTo", "alertEmailFrom", "alertEmailSmarthost", "alertEmailUsername", "alertEmailPassword"] as const satisfies readonly KeyId[];
/** The keys an email receiver cannot do without. */
const EMAIL_REQUIRED = ["alertEmailTo", "alertEmailFrom", "alertEmailSmarthost"] as const satisfies readonly KeyId[];

/** Checks the alerting keys together; see the module comment. */
export function checkAlertingSettings(k: Lookup, findings: Findings): void {
    const set = (id: KeyId) => k.r(id).source !== undefined;
    checkEmail(k, set, findings);
    checkWebhookUrl(k, findings);
    for (const [id, needs] of [
        ["alertSlackChannel", "alertSlackWebhookUrl"],
        ["alertWebhookBearerToken", "alertWebhookUrl"],
        ["alertEmailRequireTls", "alertEmailTo"],
    ] as const) {
        // A value that did not parse has its own problem; a warning about it would contradict that.
        if (set(id) && k.r(id).value !== undefined && !set(needs)) {
            findings.warn(`${k.keyOf(id)} does nothing without ${KEYS[needs].key}, which is not set. Set ${KEYS[needs].key}, or remove it with pulumi config rm ${k.keyOf(id)}.`);
        }
    }
    const pager = k.r("alertPagerdutyRoutingKey").value !== undefined;
    const chat = set("alertSlackWebhookUrl") || set("alertWebhookUrl");
    const email = set("alertEmailTo");
    if (pager && !chat && !email) {
        findings.warn(
            `Only PagerDuty is configured (${k.keyOf("alertPagerdutyRoutingKey")}): it receives critical alerts, and warnings go nowhere. Warnings go to Slack or a webhook (${KEYS.alertSlackWebhookUrl.key}, ${KEYS.alertWebhookUrl.key}), or to email when neither is set (${KEYS.alertEmailTo.key}); docs/alerts.md.`,
        );
    }
}

function checkEmail(k: Lookup, set: (id: KeyId) => boolean, findings: Findings): void {
    const given = EMAIL_KEYS.filter(set);
    if (given.length === 0) return;
    for (const id of EMAIL_REQUIRED.filter((id) => !set(id))) {
        findings.problem({
            key: KEYS[id].key,
            problem: `is not set, and the email receiver needs it: ${given.map((g) => k.keyOf(g)).join(", ")} ${given.length === 1 ? "is" : "are"} set`,
            allowed: KEYS[id].type.allowed,
            fix: `${configSetCommand(KEYS[id].key, KEYS[id].example ?? "<value>")}, or remove the email keys (pulumi config rm <key>) to send no email`,
        });
    }
    const user = set("alertEmailUsername");
    const password = set("alertEmailPassword");
    if (user && !password && k.r("alertEmailUsername").value !== undefined) {
        // A warning, not a problem: only a server that offers authentication makes Alertmanager try it.
        findings.warn(
            `${k.keyOf("alertEmailUsername")} is set without ${KEYS.alertEmailPassword.key}: if the SMTP server offers authentication, Alertmanager tries it with no password, every mechanism fails and no alert email is sent. ` +
                `Set the password (pulumi config set --secret ${KEYS.alertEmailPassword.key} <password>), or remove the user name (pulumi config rm ${k.keyOf("alertEmailUsername")}) for a server that takes mail without authentication.`,
        );
    }
    if (password && !user) {
        findings.problem({
            key: k.keyOf("alertEmailPassword"),
            problem: `is set without ${KEYS.alertEmailUsername.key}: Alertmanager authenticates only with a user name, so the password would never be used`,
            allowed: `a password together with ${KEYS.alertEmailUsername.key}`,
            fix: `${configSetCommand(KEYS.alertEmailUsername.key, "<user>")}, or pulumi config rm ${k.keyOf("alertEmailPassword")}`,
        });
    }
    const host = k.v("alertEmailSmarthost");
    if (host === undefined || k.d("alertEmailRequireTls") || host.endsWith(`:${IMPLICIT_TLS_PORT}`)) return;
    if (password) {
        findings.problem({
            key: k.keyOf("alertEmailRequireTls"),
            value: "false",
            problem: `lets Alertmanager send ${KEYS.alertEmailPassword.key} in clear text to ${host} when the server offers no STARTTLS`,
            allowed: `true with a password, or port ${IMPLICIT_TLS_PORT} (implicit TLS) in ${KEYS.alertEmailSmarthost.key}`,
            fix: `pulumi config rm ${k.keyOf("alertEmailRequireTls")} (true is the default)`,
        });
    } else {
        findings.warn(
            `${k.keyOf("alertEmailRequireTls")} is false: alert email to ${host} goes in clear text when the server offers no STARTTLS, and anyone on the way can read or change it. Remove the key to require TLS (the default).`,
        );
    }
}

/** A credential in the webhook's URL is refused: the URL is written into the configuration in plain text. */
function checkWebhookUrl(k: Lookup, findings: Findings): void {
    const resolved = k.r("alertWebhookUrl");
    const url = resolved.raw?.trim();
    const credential = url === undefined ? undefined : receiverUrlCredentialProblem(url);
    if (!url || !credential) return;
    findings.problem({
        key: resolved.source ?? KEYS.alertWebhookUrl.key,
        value: url,
        problem: `${credential}: the URL is written into Alertmanager's configuration, the Helm values, the Pulumi state and every render in plain text`,
        allowed: "the endpoint's URL without a credential, and its token in the secret key mara:alertWebhookBearerToken (sent as Authorization: Bearer)",
        fix: `${configSetCommand(KEYS.alertWebhookUrl.key, "<the URL without the credential>")} && pulumi config set --secret ${KEYS.alertWebhookBearerToken.key} <token>`,
    });
}

/** The receivers and intervals of the alerting keys (validation has passed). */
export function alertingOf(k: Pick<Lookup, "r" | "v" | "d">): MaraConfig["alerting"] {
    const slackUrl = secretOutput(k.r("alertSlackWebhookUrl"));
    const routingKey = secretOutput(k.r("alertPagerdutyRoutingKey"));
    const to = k.v("alertEmailTo");
    const webhook = k.v("alertWebhookUrl");
    return {
        ...(slackUrl ? { slack: { webhookUrl: slackUrl, ...(k.v("alertSlackChannel") !== undefined ? { channel: k.v("alertSlackChannel")! } : {}) } } : {}),
        ...(routingKey ? { pagerDuty: { routingKey } } : {}),
        ...(to
            ? {
                  email: {
                      to,
                      from: k.v("alertEmailFrom")!,
                      smarthost: k.v("alertEmailSmarthost")!,
                      requireTls: k.d("alertEmailRequireTls"),
                      ...(k.v("alertEmailUsername") !== undefined ? { username: k.v("alertEmailUsername")! } : {}),
                      ...(k.r("alertEmailPassword").value !== undefined ? { password: secretOutput(k.r("alertEmailPassword"))! } : {}),
                  },
              }
            : {}),
        ...(webhook
            ? { webhook: { url: webhook, ...(k.r("alertWebhookBearerToken").value !== undefined ? { bearerToken: secretOutput(k.r("alertWebhookBearerToken"))! } : {}) } }
            : {}),
        criticalRepeatInterval: k.d("alertCriticalRepeatInterval"),
        warningRepeatInterval: k.d("alertWarningRepeatInterval"),
        ...(k.v("alertRunbookUrl") !== undefined ? { runbookUrl: k.v("alertRunbookUrl")! } : {}),
    };
}
