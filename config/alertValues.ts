/**
 * The value types of the alerting keys (config/keys.ts, group Alerts): each one's rule is Alertmanager's, or what
 * the integration behind it accepts, in contracts/alertReceivers.ts (which names the upstream code). A credential's
 * reason never quotes any part of it. The rules that span keys (an email receiver's keys need each other, a
 * credential in the webhook's URL) are in config/alerting.ts.
 */
import {
    BEARER_TOKEN_ALLOWED,
    bearerTokenProblem,
    EMAIL_ADDRESS_ALLOWED,
    emailAddressProblem,
    PAGERDUTY_ROUTING_KEY_ALLOWED,
    pagerdutyRoutingKeyProblem,
    RECEIVER_URL_ALLOWED,
    receiverUrlProblem,
    REPEAT_INTERVAL_ALLOWED,
    repeatIntervalProblem,
    SLACK_CHANNEL_ALLOWED,
    slackChannelProblem,
    SMARTHOST_ALLOWED,
    smarthostProblem,
} from "../contracts/alertReceivers";
import { urlProblem } from "../contracts/names";
import { list, ParseResult, ValueType } from "./valueTypes";

const ok = <T>(value: T): ParseResult<T> => ({ ok: true, value });
const fail = <T>(reason: string): ParseResult<T> => ({ ok: false, reason });

/** A text type from a rule that says why a value is wrong. */
function ruled(allowed: string, problem: (v: string) => string | undefined): ValueType<string> {
    return {
        pulumiType: "string",
        allowed,
        parse(raw) {
            const value = raw.trim();
            if (/^[[{]/.test(value)) {
                try {
                    const parsed: unknown = JSON.parse(value);
                    if (parsed !== null && typeof parsed === "object") return fail(`is ${Array.isArray(parsed) ? "a list" : "a mapping"} (YAML or JSON), where one piece of text belongs`);
                } catch {
                    // Not JSON: the rule judges it as text.
                }
            }
            const why = problem(value);
            return why ? fail(why) : ok(value);
        },
        render: (v) => v,
    };
}

/** The reason of a credential's rule, with any quoted part of the value taken out. */
const unquoted = (problem: (v: string) => string | undefined) => (v: string) => problem(v)?.replace(/ "[^"]*"/g, "");

/** A Slack incoming webhook's URL: a credential (the URL is all it takes to post), so its reasons quote nothing. */
export const slackWebhookUrl = () => ruled(`${RECEIVER_URL_ALLOWED.replace(/, such as .*$/, "")}: the incoming webhook's URL, https://hooks.slack.com/services/…`, unquoted(receiverUrlProblem));

/** A Slack channel. */
export const slackChannel = () => ruled(SLACK_CHANNEL_ALLOWED, slackChannelProblem);

/** A PagerDuty Events API v2 routing key (a credential). */
export const pagerdutyRoutingKey = () => ruled(PAGERDUTY_ROUTING_KEY_ALLOWED, pagerdutyRoutingKeyProblem);

/** One email address. */
export const emailAddress = () => ruled(EMAIL_ADDRESS_ALLOWED, emailAddressProblem);

/** Email addresses: a YAML list, or one string of addresses separated by commas. */
export const emailAddresses = () => {
    const t = list(emailAddress());
    return {
        ...t,
        allowed: `a list of email addresses (a YAML list, or separated by commas), each such as alerts@example.com or "Ops <ops@example.com>"`,
        parse(raw: string): ParseResult<string[]> {
            const parsed = t.parse(raw);
            if (parsed.ok && parsed.value.length === 0) return fail("is empty");
            return parsed;
        },
    } satisfies ValueType<string[]>;
};

/** An SMTP server as host:port. */
export const smarthost = () => ruled(SMARTHOST_ALLOWED, smarthostProblem);

/** A webhook receiver's URL (plain text: a credential in it is refused by config/alerting.ts). */
export const webhookUrl = () => ruled(RECEIVER_URL_ALLOWED, receiverUrlProblem);

/** A bearer token (a credential). */
export const bearerToken = () => ruled(BEARER_TOKEN_ALLOWED, bearerTokenProblem);

/** An SMTP user name: Alertmanager sends it as it is (notify/email/email.go `auth`); no white space or line break. */
export const smtpUsername = () =>
    ruled("a user name without white space or control characters", (v) => (/[\s\u0000-\u001f\u007f]/.test(v) ? "contains white space or control characters" : v === "" ? "is empty" : undefined));

/** A route's repeat interval. */
export const repeatInterval = () => ruled(REPEAT_INTERVAL_ALLOWED, repeatIntervalProblem);

/**
 * Where docs/alerts.md is read: an http(s) URL without a fragment (each alert adds its own anchor), and without a
 * credential, since it is written into every alert rule.
 */
export const runbookUrl = () =>
    ruled("an http(s):// URL of docs/alerts.md where your team reads it, such as https://github.com/your-org/platform/blob/main/docs/alerts.md (no #fragment)", (v) => {
        const why = urlProblem(v, ["https", "http"]);
        if (why) return why;
        if (v.includes("#")) return "has a #fragment, and each alert adds its own anchor";
        if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(v)) return "holds user information (user:password@), which would be written into every alert";
        return undefined;
    });
