/**
 * The alerting keys as validation reads them (config/alerting.ts, config/alertValues.ts): each receiver's keys, the
 * keys that need each other, credentials that must be secret and never shown, the webhook URL that must hold none,
 * and what reaches the typed configuration. Exact messages, as `mara validate` prints them.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { validateConfig } from "../../config";
import { formatProblem } from "../../config/problems";
import { alertingArgsFromConfig } from "../../program/platformArgs";
import { aws, stackFile } from "../support/config";

const SLACK = "https://hooks.slack.com/services/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2";
const ROUTING_KEY = "r3FPuDvPagerDutyRoutingKey0042xy";
const PASSWORD = "smtp-password-marker-9f3e";
const TOKEN = "webhook-bearer-marker-7c1d";
const SECRETS = [SLACK, ROUTING_KEY, PASSWORD, TOKEN];

const email = { "mara:alertEmailTo": "oncall@example.com", "mara:alertEmailFrom": "Alertmanager <alertmanager@example.com>", "mara:alertEmailSmarthost": "smtp.example.com:587" };
const secretKeys = ["mara:alertSlackWebhookUrl", "mara:alertPagerdutyRoutingKey", "mara:alertEmailPassword", "mara:alertWebhookBearerToken"];

const validate = (values: Record<string, string>, secret: string[] = secretKeys) => validateConfig(aws(values, { secret }));
const lines = (r: ReturnType<typeof validate>) => r.problems.map(formatProblem);
const everything = (r: ReturnType<typeof validate>) => JSON.stringify([r.problems, r.warnings]);
const plain = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));

describe("the alerting keys", () => {
    it("take every receiver at once, each credential a secret Output, and map them onto the Prometheus component's arguments", async () => {
        const r = validate({
            "mara:alertSlackWebhookUrl": SLACK,
            "mara:alertSlackChannel": "#platform-alerts",
            "mara:alertPagerdutyRoutingKey": ROUTING_KEY,
            ...email,
            "mara:alertEmailUsername": "alertmanager@example.com",
            "mara:alertEmailPassword": PASSWORD,
            "mara:alertWebhookUrl": "https://hooks.example.com/alertmanager",
            "mara:alertWebhookBearerToken": TOKEN,
            "mara:alertCriticalRepeatInterval": "30m",
            "mara:alertRunbookUrl": "https://github.com/example/platform/blob/main/docs/alerts.md",
        });
        expect(r.problems).toEqual([]);
        expect(r.warnings).toEqual([]);
        const a = r.config!.alerting;
        expect(a).toMatchObject({
            slack: { channel: "#platform-alerts" },
            email: { to: ["oncall@example.com"], from: "Alertmanager <alertmanager@example.com>", smarthost: "smtp.example.com:587", requireTls: true, username: "alertmanager@example.com" },
            webhook: { url: "https://hooks.example.com/alertmanager" },
            criticalRepeatInterval: "30m",
            warningRepeatInterval: "12h",
            runbookUrl: "https://github.com/example/platform/blob/main/docs/alerts.md",
        });
        for (const [output, value] of [
            [a.slack!.webhookUrl, SLACK],
            [a.pagerDuty!.routingKey, ROUTING_KEY],
            [a.email!.password!, PASSWORD],
            [a.webhook!.bearerToken!, TOKEN],
        ] as const) {
            expect(pulumi.Output.isInstance(output)).toBe(true);
            expect(await pulumi.isSecret(output)).toBe(true);
            expect(await plain(output)).toBe(value);
        }
        const args = alertingArgsFromConfig(r.config!);
        expect(Object.keys(args).sort()).toEqual(["criticalRepeatInterval", "email", "pagerDuty", "slack", "warningRepeatInterval", "webhook"]);
        expect(args.email?.to).toEqual(["oncall@example.com"]);
    });

    it("configure no receiver when none is set, with the default intervals", () => {
        const r = validate({});
        expect(r.problems).toEqual([]);
        expect(r.config!.alerting).toEqual({ criticalRepeatInterval: "1h", warningRepeatInterval: "12h" });
    });

    it("refuse a malformed credential without showing it", () => {
        const r = validate({ "mara:alertSlackWebhookUrl": SLACK.replace("https:", "http:"), "mara:alertPagerdutyRoutingKey": `${ROUTING_KEY}z`, "mara:alertWebhookBearerToken": `${TOKEN} x`, "mara:alertWebhookUrl": "https://hooks.example.com/a" });
        expect(lines(r)).toEqual([
            "mara:alertSlackWebhookUrl: is a plain http:// URL, which would send the alerts and the receiver's credential in clear text; use https://. Allowed: an https:// URL with a host name: the incoming webhook's URL, https://hooks.slack.com/services/…. Fix: pulumi config set --secret mara:alertSlackWebhookUrl '<value>'",
            "mara:alertPagerdutyRoutingKey: is 33 characters long, and PagerDuty's routing keys have 32. Allowed: the 32-character integration key of a PagerDuty Events API v2 integration (letters and digits). Fix: pulumi config set --secret mara:alertPagerdutyRoutingKey '<value>'",
            "mara:alertWebhookBearerToken: contains white space or a line break. Allowed: a bearer token: letters, digits and - . _ ~ + /, optionally ending in = (RFC 6750). Fix: pulumi config set --secret mara:alertWebhookBearerToken '<value>'",
        ]);
        for (const s of SECRETS) expect(everything(r)).not.toContain(s.slice(-16));
    });

    it("warn, as for every secret, when a credential is stored in plain text, and never show it", () => {
        const r = validate({ "mara:alertPagerdutyRoutingKey": ROUTING_KEY, "mara:alertSlackWebhookUrl": SLACK }, []);
        expect(r.problems).toEqual([]);
        expect(r.warnings).toEqual([
            "mara:alertSlackWebhookUrl is stored in plain text in the stack file; encrypt it: pulumi config set --secret mara:alertSlackWebhookUrl '<value>'",
            "mara:alertPagerdutyRoutingKey is stored in plain text in the stack file; encrypt it: pulumi config set --secret mara:alertPagerdutyRoutingKey '<value>'",
        ]);
        for (const s of SECRETS) expect(everything(r)).not.toContain(s);
    });

    it("accept credentials stored encrypted, which a stack file read offline cannot show, and check them where Pulumi decrypts them", () => {
        const secure = "AAABAGNpcGhlcnRleHQtb2YtYS1zZWNyZXQ=";
        const file = (values: Record<string, string>) =>
            `config:\n  kubernetes:infra_type: aws\n  aws:region: us-east-1\n  mara:alertWebhookUrl: https://hooks.example.com/a\n` +
            ["mara:alertSlackWebhookUrl", "mara:alertPagerdutyRoutingKey", "mara:alertWebhookBearerToken"].map((k) => `  ${k}:\n    secure: ${secure}\n`).join("") +
            Object.entries(values).map(([k, v]) => `  ${k}: ${v}\n`).join("");
        expect(validateConfig(stackFile(file({}))).problems).toEqual([]);
        // Decrypted, as the Pulumi CLI hands them to the program, the same values meet their rules.
        const decrypted = stackFile(file({}), { secrets: { "mara:alertSlackWebhookUrl": "http://hooks.example.com/x", "mara:alertPagerdutyRoutingKey": "short", "mara:alertWebhookBearerToken": "a b" } });
        expect(validateConfig(decrypted).problems.map((p) => p.key)).toEqual(["mara:alertSlackWebhookUrl", "mara:alertPagerdutyRoutingKey", "mara:alertWebhookBearerToken"]);
    });

    it("need the email receiver's recipients, sender and server together", () => {
        expect(lines(validate({ "mara:alertEmailTo": "oncall@example.com" }))).toEqual([
            "mara:alertEmailFrom: is not set, and the email receiver needs it: mara:alertEmailTo is set. Allowed: an email address such as alerts@example.com, or with a name: \"Platform Alerts <alerts@example.com>\". Fix: pulumi config set mara:alertEmailFrom alertmanager@example.com, or remove the email keys (pulumi config rm <key>) to send no email",
            "mara:alertEmailSmarthost: is not set, and the email receiver needs it: mara:alertEmailTo is set. Allowed: host:port of an SMTP server, such as smtp.example.com:587 ([address]:port for IPv6; port 465 is implicit TLS). Fix: pulumi config set mara:alertEmailSmarthost smtp.example.com:587, or remove the email keys (pulumi config rm <key>) to send no email",
        ]);
        expect(lines(validate({ "mara:alertEmailSmarthost": "smtp.example.com:587" }))[0]).toMatch(/^mara:alertEmailTo: is not set, and the email receiver needs it: mara:alertEmailSmarthost is set\./);
    });

    it("take recipients as a YAML list or separated by commas, and name the entry that is wrong", () => {
        expect(validate({ ...email, "mara:alertEmailTo": '["a@example.com","Ops <ops@example.com>"]' }).config!.alerting.email!.to).toEqual(["a@example.com", "Ops <ops@example.com>"]);
        expect(validate({ ...email, "mara:alertEmailTo": "a@example.com, b@example.com" }).config!.alerting.email!.to).toEqual(["a@example.com", "b@example.com"]);
        expect(lines(validate({ ...email, "mara:alertEmailTo": "a@example.com, b@" }))).toEqual([
            'mara:alertEmailTo = "a@example.com, b@": has an entry "b@" that has an invalid domain "". Allowed: a list of email addresses (a YAML list, or separated by commas), each such as alerts@example.com or "Ops <ops@example.com>". Fix: pulumi config set mara:alertEmailTo oncall@example.com',
        ]);
        expect(lines(validate({ ...email, "mara:alertEmailTo": "[]" }))[0]).toMatch(/^mara:alertEmailTo = "\[\]": is empty\./);
    });

    it("refuse a password without a user name, and warn about a user name without a password", () => {
        expect(lines(validate({ ...email, "mara:alertEmailPassword": PASSWORD }))).toEqual([
            "mara:alertEmailPassword: is set without mara:alertEmailUsername: Alertmanager authenticates only with a user name, so the password would never be used. Allowed: a password together with mara:alertEmailUsername. Fix: pulumi config set mara:alertEmailUsername '<user>', or pulumi config rm mara:alertEmailPassword",
        ]);
        const r = validate({ ...email, "mara:alertEmailUsername": "alerts" });
        expect(r.problems).toEqual([]);
        expect(r.warnings).toEqual([
            "mara:alertEmailUsername is set without mara:alertEmailPassword: if the SMTP server offers authentication, Alertmanager tries it with no password, every mechanism fails and no alert email is sent. Set the password (pulumi config set --secret mara:alertEmailPassword <password>), or remove the user name (pulumi config rm mara:alertEmailUsername) for a server that takes mail without authentication.",
        ]);
    });

    it("never let a password go in clear text: TLS off is refused with one, except on the implicit-TLS port, and warned about without", () => {
        const auth = { ...email, "mara:alertEmailUsername": "alerts", "mara:alertEmailPassword": PASSWORD, "mara:alertEmailRequireTls": "false" };
        expect(lines(validate(auth))).toEqual([
            'mara:alertEmailRequireTls = "false": lets Alertmanager send mara:alertEmailPassword in clear text to smtp.example.com:587 when the server offers no STARTTLS. Allowed: true with a password, or port 465 (implicit TLS) in mara:alertEmailSmarthost. Fix: pulumi config rm mara:alertEmailRequireTls (true is the default)',
        ]);
        expect(validate({ ...auth, "mara:alertEmailSmarthost": "smtp.example.com:465" }).problems).toEqual([]);
        const r = validate({ ...email, "mara:alertEmailRequireTls": "false" });
        expect(r.problems).toEqual([]);
        expect(r.warnings).toEqual([
            "mara:alertEmailRequireTls is false: alert email to smtp.example.com:587 goes in clear text when the server offers no STARTTLS, and anyone on the way can read or change it. Remove the key to require TLS (the default).",
        ]);
        expect(validate({ ...auth, "mara:alertEmailRequireTls": "yes" }).problems.map((p) => p.problem)).toEqual([
            "is refused by the Pulumi CLI before the program starts, because Pulumi.yaml declares mara:alertEmailRequireTls as a boolean",
        ]);
    });

    it("refuse a credential in the webhook's URL, showing the URL without it and saying where the token goes", () => {
        const r = validate({ "mara:alertWebhookUrl": `https://bot:${TOKEN}@hooks.example.com/alertmanager` });
        expect(lines(r)).toEqual([
            'mara:alertWebhookUrl = "https://[secret]@hooks.example.com/alertmanager": holds user information (user:password@), a credential: the URL is written into Alertmanager\'s configuration, the Helm values, the Pulumi state and every render in plain text. Allowed: the endpoint\'s URL without a credential, and its token in the secret key mara:alertWebhookBearerToken (sent as Authorization: Bearer). Fix: pulumi config set mara:alertWebhookUrl \'<the URL without the credential>\' && pulumi config set --secret mara:alertWebhookBearerToken <token>',
        ]);
        expect(everything(r)).not.toContain(TOKEN);
        const query = validate({ "mara:alertWebhookUrl": `https://hooks.example.com/alertmanager?access_token=${TOKEN}` });
        expect(query.problems.map((p) => [p.value, p.problem.split(":")[0]])).toEqual([["https://hooks.example.com/alertmanager?access_token=[secret]", "holds a credential in its query (a parameter named token, key, secret, password, auth or signature)"]]);
        expect(everything(query)).not.toContain(TOKEN);
    });

    it("warn about keys that do nothing without another, and about warnings with nowhere to go", () => {
        expect(validate({ "mara:alertSlackChannel": "#ops", "mara:alertWebhookBearerToken": TOKEN }).warnings).toEqual([
            "mara:alertSlackChannel does nothing without mara:alertSlackWebhookUrl, which is not set. Set mara:alertSlackWebhookUrl, or remove it with pulumi config rm mara:alertSlackChannel.",
            "mara:alertWebhookBearerToken does nothing without mara:alertWebhookUrl, which is not set. Set mara:alertWebhookUrl, or remove it with pulumi config rm mara:alertWebhookBearerToken.",
        ]);
        expect(validate({ "mara:alertPagerdutyRoutingKey": ROUTING_KEY }).warnings).toEqual([
            "Only PagerDuty is configured (mara:alertPagerdutyRoutingKey): it receives critical alerts, and warnings go nowhere. Warnings go to Slack or a webhook (mara:alertSlackWebhookUrl, mara:alertWebhookUrl), or to email when neither is set (mara:alertEmailTo); docs/alerts.md.",
        ]);
        expect(validate({ "mara:alertPagerdutyRoutingKey": ROUTING_KEY, ...email }).warnings).toEqual([]);
    });

    it("bound the repeat intervals and check the runbook address", () => {
        expect(lines(validate({ "mara:alertCriticalRepeatInterval": "1m", "mara:alertWarningRepeatInterval": "1w", "mara:alertRunbookUrl": "https://wiki.example.com/alerts#top" }))).toEqual([
            'mara:alertCriticalRepeatInterval = "1m": is shorter than 5m, the group interval: Alertmanager repeats only when a group is flushed, so it would repeat every 5m all the same. Allowed: a duration from 5m to 120h in Prometheus\'s form, units from largest to smallest (1h, 90m, 1d12h). Fix: pulumi config set mara:alertCriticalRepeatInterval 1h',
            'mara:alertWarningRepeatInterval = "1w": is longer than 120h, the retention of Alertmanager\'s notification log: it forgets a notification after that and would repeat it all the same. Allowed: a duration from 5m to 120h in Prometheus\'s form, units from largest to smallest (1h, 90m, 1d12h). Fix: pulumi config set mara:alertWarningRepeatInterval 12h',
            'mara:alertRunbookUrl = "https://wiki.example.com/alerts#top": has a #fragment, and each alert adds its own anchor. Allowed: an http(s):// URL of docs/alerts.md where your team reads it, such as https://github.com/your-org/platform/blob/main/docs/alerts.md (no #fragment). Fix: pulumi config set mara:alertRunbookUrl https://github.com/your-org/platform/blob/main/docs/alerts.md',
        ]);
    });
});
