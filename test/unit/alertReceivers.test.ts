/**
 * The forms of Alertmanager's receiver settings (contracts/alertReceivers.ts) at their boundaries: receiver URLs
 * (Alertmanager's `ParseURL` plus https only), SMTP smarthosts (`net.SplitHostPort` with a numeric port), email
 * addresses (a subset of Go's `net/mail`), Slack channels, PagerDuty routing keys (32 characters), bearer tokens
 * (RFC 6750), and durations as Prometheus's `model.ParseDuration` reads them, within the repeat interval's bounds.
 * Credentials are never quoted in a reason.
 */
import { describe, expect, it } from "vitest";
import {
    bearerTokenProblem,
    emailAddressProblem,
    pagerdutyRoutingKeyProblem,
    parsePrometheusDuration,
    receiverUrlCredentialProblem,
    receiverUrlProblem,
    repeatIntervalProblem,
    slackChannelProblem,
    smarthostProblem,
} from "../../contracts";

describe("receiver URLs", () => {
    it.each(["https://hooks.slack.com/services/T000/B000/XXXX", "https://10.0.0.1:8443/hook", "https://[2001:db8::1]/hook", "https://alerts.example.com"])("accepts %s", (url) => {
        expect(receiverUrlProblem(url)).toBeUndefined();
    });

    it.each([
        ["", "is empty"],
        ["http://hooks.example.com/x", "is a plain http:// URL, which would send the alerts and the receiver's credential in clear text; use https://"],
        ["ftp://hooks.example.com/x", 'uses the scheme "ftp:", and Alertmanager posts only to http(s) URLs'],
        ["hooks.example.com/x", "is not a URL"],
        ["https://hooks.example.com/x y", "contains white space or control characters"],
        ["https://hooks.example.com/x\n", "contains white space or control characters"],
        ["https://{{ .GroupLabels.team }}.example.com/", "holds a template ({{ ... }}), which Alertmanager would expand at each notification; give the URL itself"],
        ["https://bad_host.example.com/", 'has an invalid host "bad_host.example.com"'],
    ])("refuses %j: %s", (url, why) => {
        expect(receiverUrlProblem(url)).toBe(why);
    });

    it("finds a credential in user information or a credential-named query parameter, and nothing in a plain URL", () => {
        expect(receiverUrlCredentialProblem("https://user:pass@hooks.example.com/x")).toBe("holds user information (user:password@), a credential");
        expect(receiverUrlCredentialProblem("https://hooks.example.com/x?token=abcdef123")).toMatch(/^holds a credential in its query/);
        expect(receiverUrlCredentialProblem("https://hooks.example.com/x?team=platform")).toBeUndefined();
    });
});

describe("SMTP smarthosts", () => {
    it.each(["smtp.example.com:587", "smtp.example.com:465", "10.0.0.25:25", "[2001:db8::25]:25", "mail:1", "smtp.example.com:65535"])("accepts %s", (host) => {
        expect(smarthostProblem(host)).toBeUndefined();
    });

    it.each([
        ["smtp.example.com", "has no port (Alertmanager needs host:port, such as smtp.example.com:587)"],
        ["smtp.example.com:", "has no port (Alertmanager needs host:port, such as smtp.example.com:587)"],
        ["smtp.example.com:0", 'has an invalid port "0" (1 to 65535)'],
        ["smtp.example.com:65536", 'has an invalid port "65536" (1 to 65535)'],
        ["smtp.example.com:smtp", 'has an invalid port "smtp" (1 to 65535)'],
        ["2001:db8::25:25", "is an IPv6 address without brackets (write [2001:db8::1]:587)"],
        ["[nonsense]:25", 'has an invalid host "nonsense"'],
        ["smtp://smtp.example.com:587", "starts with a URL scheme (give host:port alone, such as smtp.example.com:587)"],
        ["smtp .example.com:587", "contains white space or control characters"],
        ["-smtp.example.com:587", 'has an invalid host "-smtp.example.com"'],
    ])("refuses %j: %s", (host, why) => {
        expect(smarthostProblem(host)).toBe(why);
    });
});

describe("email addresses", () => {
    it.each(["alerts@example.com", "Platform Alerts <alerts@example.com>", "a.b+tag@mail.example.com", "<alerts@example.com>", "root@localhost", `${"a".repeat(64)}@example.com`])("accepts %s", (a) => {
        expect(emailAddressProblem(a)).toBeUndefined();
    });

    it.each([
        ["", "is empty"],
        ["alerts", "has no local part and domain (local@domain)"],
        ["@example.com", "has no local part and domain (local@domain)"],
        [`${"a".repeat(65)}@example.com`, "has a local part of 65 characters (at most 64)"],
        ["a..b@example.com", "has a local part with characters an address cannot have unquoted, or a dot at its start, its end or twice"],
        ['"quoted"@example.com', "has a local part with characters an address cannot have unquoted, or a dot at its start, its end or twice"],
        ["{{ .GroupLabels.team }}@example.com", "contains white space"],
        ["{{team}}@example.com", "has a local part with characters an address cannot have unquoted, or a dot at its start, its end or twice"],
        ["alerts@exa_mple.com", 'has an invalid domain "exa_mple.com"'],
        ["alerts@", 'has an invalid domain ""'],
        ["Ops, Team <ops@example.com>", "has a display name with characters other than letters, digits, spaces and . ' _ -"],
        ["alerts@example.com\r\nBcc: x@example.com", "contains control characters"],
    ])("refuses %j: %s", (a, why) => {
        expect(emailAddressProblem(a)).toBe(why);
    });
});

describe("Slack channels", () => {
    it.each(["#a", `#${"a".repeat(80)}`, "#platform-alerts_2", "C0123456789", "G01234567"])("accepts %s", (c) => {
        expect(slackChannelProblem(c)).toBeUndefined();
    });

    it.each([
        [`#${"a".repeat(81)}`, "has a name of 81 characters (1 to 80)"],
        ["#", "has a name of 0 characters (1 to 80)"],
        ["#Platform", "has characters Slack does not allow in a channel name (lower-case letters, digits, '-' and '_')"],
        ["#{{ .GroupLabels.team }}", "has characters Slack does not allow in a channel name (lower-case letters, digits, '-' and '_')"],
        ["Platform-Alerts", "is neither #name nor a channel ID (did you mean #platform-alerts?)"],
    ])("refuses %j: %s", (c, why) => {
        expect(slackChannelProblem(c)).toBe(why);
    });
});

describe("PagerDuty routing keys", () => {
    it("takes 32 letters and digits, and refuses one fewer or more without quoting the key", () => {
        const key = "r3FPuDvNOTEDyQYCc7trBkymIFcy2NkE";
        expect(pagerdutyRoutingKeyProblem(key)).toBeUndefined();
        expect(pagerdutyRoutingKeyProblem(key.slice(1))).toBe("is 31 characters long, and PagerDuty's routing keys have 32");
        expect(pagerdutyRoutingKeyProblem(`${key}x`)).toBe("is 33 characters long, and PagerDuty's routing keys have 32");
        expect(pagerdutyRoutingKeyProblem(`${key.slice(2)}{{`)).toBe("has characters other than letters and digits");
        for (const bad of [key.slice(1), `${key}x`, `${key.slice(2)}{{`]) expect(pagerdutyRoutingKeyProblem(bad)).not.toContain(key.slice(2, 12));
    });
});

describe("bearer tokens", () => {
    it.each(["abc", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_-~+/", "dG9rZW4="])("accepts %s", (t) => {
        expect(bearerTokenProblem(t)).toBeUndefined();
    });

    it.each([
        ["", "is empty"],
        ["two words", "contains white space or a line break"],
        ["tok\nen", "contains white space or a line break"],
        ["Bearer\tabc", "contains white space or a line break"],
        ["tok=en", "has characters a bearer token cannot have"],
        ["tök", "has characters a bearer token cannot have"],
    ])("refuses %j: %s", (t, why) => {
        expect(bearerTokenProblem(t)).toBe(why);
    });
});

describe("durations, as Prometheus's model.ParseDuration reads them", () => {
    it.each([
        ["0", 0],
        ["5m", 300_000],
        ["1h", 3_600_000],
        ["90m", 5_400_000],
        ["1d12h", 129_600_000],
        ["1w", 604_800_000],
        ["1h30m15s500ms", 5_415_500],
    ])("reads %s", (text, ms) => {
        expect(parsePrometheusDuration(text)).toBe(ms);
    });

    it.each(["", "1", "h", "1.5h", "30m1h", "1h1h", "1H", "-5m", " 5m", "5m ", "1hour", "1h30"])("refuses %j", (text) => {
        expect(parsePrometheusDuration(text)).toBeUndefined();
    });

    it("bounds a repeat interval by the group interval and the notification log's retention", () => {
        expect(repeatIntervalProblem("5m")).toBeUndefined();
        expect(repeatIntervalProblem("120h")).toBeUndefined();
        expect(repeatIntervalProblem("5d")).toBeUndefined();
        expect(repeatIntervalProblem("4m59s")).toMatch(/^is shorter than 5m, the group interval/);
        expect(repeatIntervalProblem("0")).toMatch(/^is shorter than 5m/);
        expect(repeatIntervalProblem("120h1ms")).toMatch(/^is longer than 120h, the retention of Alertmanager's notification log/);
        expect(repeatIntervalProblem("1w")).toMatch(/^is longer than 120h/);
        expect(repeatIntervalProblem("12")).toBe("is not a duration Alertmanager reads (a number and a unit, units from largest to smallest: 30m, 4h, 1d12h)");
    });
});
