/**
 * What Alertmanager accepts, and what its integrations can use, for the settings of the receivers the platform
 * configures (Slack, PagerDuty, email, a generic webhook) and the intervals of its route tree: each rule names the
 * upstream code it follows (github.com/prometheus/alertmanager v0.34.0, the release kube-prometheus-stack's pinned
 * chart runs). Shared by the configuration (config/alerting.ts) and the Prometheus component, so `mara validate` and
 * a library user's component refuse the same values.
 *
 * The credentials reach Alertmanager as files (`api_url_file`, `routing_key_file`, `auth_password_file`,
 * `credentials_file`), which Alertmanager reads only when it sends a notification (notify/slack/slack.go `Notify`,
 * notify/pagerduty/pagerduty.go `notifyV2`, notify/email/email.go `getPassword`, prometheus/common config
 * `readCredentials`): a malformed one would fail silently at the first alert, so these checks are the only ones it
 * meets before then. Each file's content is trimmed of white space as it is read, as the checks here trim it.
 */
import { isIPv6 } from "net";
import { isHostname, isIpv4 } from "./names";
import { urlCredentials } from "./urlCredentials";

/** What {@link receiverUrlProblem} accepts, in the words messages use after "Allowed:". */
export const RECEIVER_URL_ALLOWED = "an https:// URL with a host name, such as https://alerts.example.com/hook";

/**
 * Why `value` is not a URL a receiver can post to, or undefined. Alertmanager's rule (config/common/url.go,
 * `ParseURL`): Go's `url.Parse` succeeds, the scheme is http or https and there is a host. On top of it, plain
 * http:// is refused: every URL here either is a credential (a Slack webhook URL) or carries alerts with a bearer
 * token beside them, and http:// sends both in clear text. Templates (`{{ ... }}`), which Alertmanager expands in a
 * webhook URL at send time, are refused too: no check could say before the first alert where such a URL goes.
 */
export function receiverUrlProblem(value: string): string | undefined {
    if (value === "") return "is empty";
    if (value.includes("{{")) return "holds a template ({{ ... }}), which Alertmanager would expand at each notification; give the URL itself";
    if (/[\s\u0000-\u001f\u007f]/.test(value)) return "contains white space or control characters";
    let url: URL;
    try {
        url = new URL(value);
    } catch {
        return "is not a URL";
    }
    if (url.protocol === "http:") return "is a plain http:// URL, which would send the alerts and the receiver's credential in clear text; use https://";
    if (url.protocol !== "https:") return `uses the scheme "${url.protocol}", and Alertmanager posts only to http(s) URLs`;
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    if (!isHostname(host) && !isIpv4(host) && !isIPv6(host)) return `has an invalid host "${url.hostname}"`;
    return undefined;
}

/** Why a URL that is written in plain text (not a secret) holds a credential, or undefined. */
export function receiverUrlCredentialProblem(value: string): string | undefined {
    if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(value)) return "holds user information (user:password@), a credential";
    if (urlCredentials(value).length > 0) return "holds a credential in its query (a parameter named token, key, secret, password, auth or signature)";
    return undefined;
}

/** What {@link smarthostProblem} accepts. */
export const SMARTHOST_ALLOWED = "host:port of an SMTP server, such as smtp.example.com:587 ([address]:port for IPv6; port 465 is implicit TLS)";

/**
 * Why `value` is not the `host:port` of an SMTP server, or undefined. Alertmanager's rule (config/config.go,
 * `HostPort.UnmarshalYAML`): Go's `net.SplitHostPort` splits it and the port is not empty; an IPv6 address is written
 * in brackets. The port must also be a number Alertmanager can dial (notify/email/email.go `Notify` dials
 * `net.JoinHostPort(host, port)`); Go would look a named port up in /etc/services, which a distroless image lacks.
 */
export function smarthostProblem(value: string): string | undefined {
    if (value === "") return "is empty";
    if (/[\s\u0000-\u001f\u007f]/.test(value)) return "contains white space or control characters";
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return "starts with a URL scheme (give host:port alone, such as smtp.example.com:587)";
    const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(value);
    const colon = value.lastIndexOf(":");
    const [host, port] = bracketed ? [bracketed[1]!, bracketed[2]] : colon < 0 ? [value, undefined] : [value.slice(0, colon), value.slice(colon + 1)];
    if (!bracketed && host.includes(":")) return "is an IPv6 address without brackets (write [2001:db8::1]:587)";
    if (port === undefined || port === "") return "has no port (Alertmanager needs host:port, such as smtp.example.com:587)";
    if (bracketed ? !isIPv6(host) : !isHostname(host) && !isIpv4(host)) return `has an invalid host "${host}"`;
    if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) return `has an invalid port "${port}" (1 to 65535)`;
    return undefined;
}

/** The port Alertmanager speaks implicit TLS on (notify/email/email.go `Notify`: `Smarthost.Port == "465"`). */
export const IMPLICIT_TLS_PORT = "465";

/** What {@link emailAddressProblem} accepts. */
export const EMAIL_ADDRESS_ALLOWED = 'an email address such as alerts@example.com, or with a name: "Platform Alerts <alerts@example.com>"';

/** RFC 5322 atext without `{` and `}`, which would start a template in Alertmanager's `from` and `to`. */
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+\-/=?^_`|~]+(\.[A-Za-z0-9!#$%&'*+\-/=?^_`|~]+)*$/;
/** A display name of plain words. */
const DISPLAY_NAME = /^[A-Za-z0-9][A-Za-z0-9 .'_-]*$/;

/**
 * Why `value` is not one email address Alertmanager can send from or to, or undefined. Alertmanager reads `from`
 * and `to` with Go's `net/mail.ParseAddressList` when it sends (notify/email/email.go `Notify`); this accepts a
 * subset of what that parser does: an address whose local part is RFC 5322 dot-atom text (without `{` and `}`, which
 * would start a template) and whose domain is a host name, optionally after a display name of plain words
 * (`Name <address>`). Quoted local parts and domain literals, which few mail servers accept, are refused.
 */
export function emailAddressProblem(value: string): string | undefined {
    if (value === "") return "is empty";
    if (/[\u0000-\u001f\u007f]/.test(value)) return "contains control characters";
    const named = /^(.*?)\s*<([^<>]*)>$/.exec(value);
    const address = named ? named[2]!.trim() : value;
    if (named && named[1] !== "" && !DISPLAY_NAME.test(named[1]!)) return "has a display name with characters other than letters, digits, spaces and . ' _ -";
    if (/\s/.test(address)) return "contains white space";
    const at = address.lastIndexOf("@");
    if (at <= 0) return "has no local part and domain (local@domain)";
    const [local, domain] = [address.slice(0, at), address.slice(at + 1)];
    if (local.length > 64) return `has a local part of ${local.length} characters (at most 64)`;
    if (!LOCAL_PART.test(local)) return "has a local part with characters an address cannot have unquoted, or a dot at its start, its end or twice";
    if (domain === "" || !isHostname(domain)) return `has an invalid domain "${domain}"`;
    return undefined;
}

/** What {@link slackChannelProblem} accepts. */
export const SLACK_CHANNEL_ALLOWED = "#channel-name (lower-case letters, digits, '-' and '_', at most 80) or a channel ID such as C0123456789";

/**
 * Why `value` is not a Slack channel, or undefined: `#` and a name as Slack allows it ("lowercase letters, numbers,
 * hyphens, and underscores, and must be 80 characters or less", Slack's help on channel names), or a channel ID. No
 * template: Alertmanager expands `channel` as one (notify/slack/slack.go `Notify`).
 */
export function slackChannelProblem(value: string): string | undefined {
    if (value === "") return "is empty";
    if (/^[CG][A-Z0-9]{8,}$/.test(value)) return undefined;
    if (!value.startsWith("#")) return `is neither #name nor a channel ID (did you mean #${value.replace(/^#*/, "").toLowerCase()}?)`;
    const name = value.slice(1);
    if (name.length === 0 || name.length > 80) return `has a name of ${name.length} characters (1 to 80)`;
    if (!/^[a-z0-9_-]+$/.test(name)) return "has characters Slack does not allow in a channel name (lower-case letters, digits, '-' and '_')";
    return undefined;
}

/** What {@link pagerdutyRoutingKeyProblem} accepts. */
export const PAGERDUTY_ROUTING_KEY_ALLOWED = "the 32-character integration key of a PagerDuty Events API v2 integration (letters and digits)";

/**
 * Why `value` is not a PagerDuty Events API v2 routing key, never quoting it: PagerDuty refuses any other length
 * ("Length of 'routing_key' is incorrect (should be 32 characters)", its Events API v2 reference, "Send an Alert
 * Event"); its keys are letters and digits, and Alertmanager would expand `{{` in one as a template
 * (notify/pagerduty/pagerduty.go `notifyV2`).
 */
export function pagerdutyRoutingKeyProblem(value: string): string | undefined {
    if (value === "") return "is empty";
    if (value.length !== 32) return `is ${value.length} characters long, and PagerDuty's routing keys have 32`;
    if (!/^[A-Za-z0-9]+$/.test(value)) return "has characters other than letters and digits";
    return undefined;
}

/** What {@link bearerTokenProblem} accepts. */
export const BEARER_TOKEN_ALLOWED = "a bearer token: letters, digits and - . _ ~ + /, optionally ending in = (RFC 6750)";

/**
 * Why `value` cannot be sent as a bearer token, never quoting it: RFC 6750 section 2.1's b64token, which is what an
 * `Authorization: Bearer` header may carry (Go's HTTP client refuses a header value with a line break, at send time).
 */
export function bearerTokenProblem(value: string): string | undefined {
    if (value === "") return "is empty";
    if (/\s/.test(value)) return "contains white space or a line break";
    if (/^bearer\s/i.test(value)) return "starts with the word Bearer, which Alertmanager adds itself";
    if (!/^[A-Za-z0-9\-._~+/]+=*$/.test(value)) return "has characters a bearer token cannot have";
    return undefined;
}

/** The bounds of a repeat interval, and why (see {@link repeatIntervalProblem}). */
export const REPEAT_INTERVAL_BOUNDS = { min: "5m", max: "120h" } as const;

/** What {@link repeatIntervalProblem} accepts. */
export const REPEAT_INTERVAL_ALLOWED = `a duration from ${REPEAT_INTERVAL_BOUNDS.min} to ${REPEAT_INTERVAL_BOUNDS.max} in Prometheus's form, units from largest to smallest (1h, 90m, 1d12h)`;

const UNITS: readonly (readonly [string, number])[] = [
    ["y", 365 * 24 * 3600_000],
    ["w", 7 * 24 * 3600_000],
    ["d", 24 * 3600_000],
    ["h", 3600_000],
    ["m", 60_000],
    ["s", 1000],
    ["ms", 1],
];

/**
 * A duration in milliseconds as Alertmanager reads one (github.com/prometheus/common model/time.go, `ParseDuration`):
 * numbers each followed by a unit of y, w, d, h, m, s or ms, the units from the largest to the smallest, each once;
 * or `0`. Undefined when the text is not one.
 */
export function parsePrometheusDuration(value: string): number | undefined {
    if (value === "0") return 0;
    const parts = [...value.matchAll(/(\d+)([a-z]+)/g)];
    if (parts.length === 0 || parts.map((p) => p[0]).join("") !== value) return undefined;
    let total = 0;
    let last = -1;
    for (const [, digits, unit] of parts) {
        const position = UNITS.findIndex(([u]) => u === unit);
        if (position <= last) return undefined;
        last = position;
        total += Number(digits) * UNITS[position]![1];
    }
    return Number.isSafeInteger(total) ? total : undefined;
}

/**
 * Why `value` cannot be a route's repeat interval, or undefined. Alertmanager refuses a malformed duration and zero
 * (config/config.go, `Route.UnmarshalYAML`: "repeat_interval cannot be zero"). The bounds are what it can honour:
 * it repeats a notification only when the group is flushed, every group_interval (5m here; dispatch/dispatch.go), so
 * less repeats every 5m all the same; and it forgets what it sent after its notification log's retention
 * (kube-prometheus-stack's `alertmanagerSpec.retention`, 120h), so more repeats after 120h all the same.
 */
export function repeatIntervalProblem(value: string): string | undefined {
    if (value === "") return "is empty";
    const ms = parsePrometheusDuration(value);
    if (ms === undefined) return "is not a duration Alertmanager reads (a number and a unit, units from largest to smallest: 30m, 4h, 1d12h)";
    if (ms < parsePrometheusDuration(REPEAT_INTERVAL_BOUNDS.min)!) return `is shorter than ${REPEAT_INTERVAL_BOUNDS.min}, the group interval: Alertmanager repeats only when a group is flushed, so it would repeat every ${REPEAT_INTERVAL_BOUNDS.min} all the same`;
    if (ms > parsePrometheusDuration(REPEAT_INTERVAL_BOUNDS.max)!) return `is longer than ${REPEAT_INTERVAL_BOUNDS.max}, the retention of Alertmanager's notification log: it forgets a notification after that and would repeat it all the same`;
    return undefined;
}
