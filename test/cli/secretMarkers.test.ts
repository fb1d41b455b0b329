/**
 * No message contains a secret. Every secret key (canonical and MARA names), misspelled secret keys, provider
 * credentials, a value stored encrypted under a key that is not secret, and an inline kubeconfig are set to marker
 * values; then every path that prints runs — `mara validate` and `mara plan` (text, JSON, Mermaid on standard
 * output) on valid and invalid stacks, `mara init` with secrets on the command line, `mara preview` through the
 * Automation API, the program's warnings and errors, alias conflicts, misspelled keys, YAML syntax errors and
 * warnings on the lines that hold secrets, every `--help` — and all output is searched for the markers and for
 * stack traces. A huge value is shortened in messages.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { stringify } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEYS, KeySpec } from "../../config";
import { KUBECONFIG_TEXT, stackFile } from "../support/config";
import { runProgram } from "../support/program";
import { runMara } from "./support/io";
import { makeStandin, Standin, useStandinPath } from "./support/standin";

/** A marker per secret, distinct and easy to find, with characters that need quoting in a shell and in JSON. */
const marker = (n: number | string) => `mk-${n}-Zq"9'$x`;

/** Every key the program treats as a secret, under each of its names. */
const SECRET_KEYS = (Object.values(KEYS) as KeySpec<unknown>[]).filter((s) => s.secret).flatMap((s) => [s.key, ...s.legacy.map((l) => l.key)]);
const MARKERS: string[] = [];
const mark = (key: string, value?: string) => {
    const m = value ?? marker(MARKERS.length);
    MARKERS.push(m);
    return [key, m] as const;
};

/** An inline kubeconfig whose server, token and certificate data are markers. */
const KUBE_TOKEN = "kube-token-marker-7f3a9c";
const KUBE_CA = "Q0EtTUFSS0VSLURBVEEtZm9yLXRoZS10ZXN0";
const KUBE_SERVER = "https://api.marker-cluster.internal:6443";
const INLINE_KUBECONFIG = KUBECONFIG_TEXT.replace("fixture-kubeconfig-token", KUBE_TOKEN).replace("LS0tLS1CRUdJTg==", KUBE_CA).replace("https://203.0.113.5:6443", KUBE_SERVER);
const ALL_MARKERS = () => [...MARKERS, KUBE_TOKEN, KUBE_CA, KUBE_SERVER, "api.marker-cluster"];

const outputs: { what: string; text: string }[] = [];
const record = (what: string, ...texts: string[]) => outputs.push({ what, text: texts.join("\n") });

let dir: string;
const write = (name: string, doc: unknown) => {
    const file = path.join(dir, `Pulumi.${name}.yaml`);
    fs.writeFileSync(file, typeof doc === "string" ? doc : stringify(doc));
    return file;
};

/** Markers in the form a secret's type checks, where it checks one (a URL, a key's length, a token's characters). */
const FORMED: Readonly<Record<string, (n: number) => string>> = {
    "mara:alertSlackWebhookUrl": (n) => `https://hooks.slack.com/services/mk${n}Zq9x`,
    "mara:alertPagerdutyRoutingKey": (n) => `mk${n}Zq9x`.padEnd(32, "Q"),
    "mara:alertWebhookBearerToken": (n) => `mk-${n}-Zq9x`,
};

/** The keys the email receiver needs beside its password (config/alerting.ts). */
const EMAIL_RECEIVER = { "mara:alertEmailTo": "oncall@example.com", "mara:alertEmailFrom": "am@example.com", "mara:alertEmailSmarthost": "smtp.example.com:587", "mara:alertEmailUsername": "am" };

/** Every secret key set in plain text to its marker (one per key name, so aliases never disagree by accident). */
const plainSecrets = (): Record<string, string> => {
    const values: Record<string, string> = {};
    // Canonical names in one stack; the MARA names are set in another below.
    for (const spec of (Object.values(KEYS) as KeySpec<unknown>[]).filter((s) => s.secret)) values[mark(spec.key, FORMED[spec.key]?.(MARKERS.length))[0]] = MARKERS.at(-1)!;
    return { ...values, ...EMAIL_RECEIVER };
};

beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-markers-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("secret markers never reach any output", () => {
    it("valid stacks: validate, plan (text, JSON, Mermaid on stdout) and the program, with every secret in plain text", async () => {
        const canonical = { "kubernetes:infra_type": "aws", "aws:region": "us-east-1", ...plainSecrets() };
        // MARA's names for the same secrets, in their own stack.
        const maraNames: Record<string, string> = { "kubernetes:infra_type": "LKE", "linode:region": "us-central", "linode:k8s_version": "1.35", "kic-helm:fqdn": "mara.example.net" };
        for (const key of SECRET_KEYS.filter((k) => !k.startsWith("mara:") && k !== "digitalocean:token")) maraNames[mark(key)[0]] = MARKERS.at(-1)!;
        for (const [name, config] of [["canonical", canonical], ["mara-names", maraNames]] as const) {
            const file = write(name, { config });
            const validate = await runMara(["validate", "-c", file]);
            expect(validate.code, validate.stderr).toBe(0);
            // The plain-text warnings name the keys, never the values.
            expect(validate.stderr).toContain("is stored in plain text in the stack file; encrypt it");
            record(`validate ${name}`, validate.stdout, validate.stderr);
            for (const args of [[], ["--json"], ["--mermaid", "-"]]) {
                const plan = await runMara(["plan", "-c", file, ...args]);
                expect(plan.code, plan.stderr).toBe(0);
                record(`plan ${name} ${args.join(" ")}`, plan.stdout, plan.stderr);
            }
            const run = await runProgram(stackFile(fs.readFileSync(file, "utf8")));
            expect(run.error).toBeUndefined();
            record(`program ${name}`, ...run.warnings);
        }
    }, 420_000);

    it("invalid stacks: alias conflicts, misspelled secret keys, bad secret values, secure: on a plain key, an inline kubeconfig", async () => {
        const [, grafana] = mark("mara:grafanaAdminPassword");
        const [, adminpass] = mark("prometheus:adminpass");
        const [, typo1] = mark("mara:grafanaAdminPasword");
        const [, typo2] = mark("prometheus:adminpas");
        const [, typo3] = mark("linode:tokn");
        const [, awsKey] = mark("aws:secretKey");
        const [, jwt] = mark("mara:nginxJwt");
        const [, profile] = mark("aws:profile");
        const config = {
            "kubernetes:infra_type": "kubeconfig",
            "kic-helm:fqdn": "mara.lab.example.org",
            // Conflicting aliases of a secret.
            "mara:grafanaAdminPassword": grafana,
            "prometheus:adminpass": adminpass,
            // Misspelled secret keys in the project, MARA's and a provider's namespace; a provider key we do not read.
            "mara:grafanaAdminPasword": typo1,
            "prometheus:adminpas": typo2,
            "linode:tokn": typo3,
            "aws:secretKey": awsKey,
            // A secret that parses badly (blank), and Plus without a JWT problem.
            "mara:siriusDemoPassword": "   ",
            "mara:nginxJwt": jwt,
            // A kubeconfig given inline, with a context it does not define.
            "kubernetes:kubeconfig": INLINE_KUBECONFIG,
            "kubernetes:context_name": "nowhere",
            // A plain key stored encrypted, decrypted by the CLI in the program run.
            "aws:profile": { secure: "AAABAGNpcGhlcnRleHQtb2YtcHJvZmlsZQ==" },
        };
        const file = write("invalid", { config });
        for (const cmd of ["validate", "plan"]) {
            const r = await runMara([cmd, "-c", file]);
            expect(r.code).toBe(1);
            expect(r.stderr).toContain("mara:grafanaAdminPassword: is set together with prometheus:adminpass, and the two disagree");
            expect(r.stderr).toContain("mara:grafanaAdminPasword: is not a setting this program knows");
            expect(r.stderr).toContain("is not a context of the inline kubeconfig");
            record(`${cmd} invalid`, r.stdout, r.stderr);
        }
        const raw = stackFile(fs.readFileSync(file, "utf8"), { secrets: { "aws:profile": profile } });
        const run = await runProgram(raw);
        expect(run.error).toBeDefined();
        record("program invalid", String((run.error as Error).message), String((run.error as Error).stack), ...run.warnings);
    }, 120_000);

    it("YAML syntax errors and warnings on the lines that hold secrets quote nothing of the file", async () => {
        const [, broken] = mark("mara:grafanaAdminPassword");
        const [, tagged] = mark("mara:siriusDemoPassword");
        const syntax = write("syntax", `config:\n  kubernetes:infra_type: aws\n  mara:grafanaAdminPassword: ${broken}: more\n`);
        const tag = write("tag", `config:\n  kubernetes:infra_type: aws\n  aws:region: us-east-1\n  mara:siriusDemoPassword: !secret ${JSON.stringify(tagged)}\n`);
        const warnings: string[] = [];
        const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
        process.on("warning", onWarning);
        try {
            for (const file of [syntax, tag]) {
                for (const cmd of ["validate", "plan"]) {
                    const r = await runMara([cmd, "-c", file]);
                    record(`${cmd} ${path.basename(file)}`, r.stdout, r.stderr);
                    if (file === syntax) expect(r.stderr).toMatch(/is not a readable stack file: line 3, column \d+: /);
                    else expect(r.stderr).toContain("warning: The stack file, line 4, column 28: Unresolved tag: !secret: the value is read as written.");
                }
            }
            await new Promise((resolve) => setTimeout(resolve, 50));
        } finally {
            process.off("warning", onWarning);
        }
        // No raw Node YAMLWarning reaches the user: the parser's warnings are ours to report.
        expect(warnings.filter((w) => /YAML/.test(w))).toEqual([]);
        record("process warnings", ...warnings);
    }, 120_000);

    it("mara init with secrets on the command line and a rejected answer", async () => {
        const s: Standin = makeStandin({ current: undefined, stacks: {} });
        const restore = useStandinPath(s);
        try {
            const [, registry] = mark("mara:registryPassword");
            const [, token] = mark("linode:token");
            const base = ["init", "--stack", "m", "--non-interactive", "--provider", "linode", "--set", `linode:token=${token}`, "--set", `mara:registryPassword=${registry}`];
            const env = { HOME: s.home, PATH: s.path, PULUMI_CONFIG_PASSPHRASE: "pass" };
            // Missing settings: every problem listed, nothing written.
            const missing = await runMara(base, { env, projectDir: s.projectDir });
            expect(missing.code).toBe(1);
            record("init missing", missing.stdout, missing.stderr);
            // A bad --set value next to the secrets, and a flag that is only a value.
            const bad = await runMara([...base, "--set", "linode:region=us_central", "--set", `=${token}`], { env, projectDir: s.projectDir });
            expect(bad.code).toBe(2);
            record("init bad flag", bad.stdout, bad.stderr);
            const ok = await runMara([...base, "--set", "mara:lkeRegion=us-central", "--set", "mara:lkeK8sVersion=1.35", "--set", "kic-helm:fqdn=mara.example.net", "--set", "mara:registryServer=ghcr.io", "--set", "mara:registryRepository=team/kic", "--set", "mara:registryUsername=robot", "--set", `mara:kubeconfig=${INLINE_KUBECONFIG}`], { env, projectDir: s.projectDir });
            expect(ok.code, ok.stderr).toBe(0);
            expect(ok.stdout).toContain("linode:token = [secret]");
            expect(ok.stdout).toContain("mara:kubeconfig = [secret]");
            record("init ok", ok.stdout, ok.stderr);
        } finally {
            restore();
            s.remove();
        }
    }, 120_000);

    it("mara preview through the Automation API, with secrets in the stack's configuration", async () => {
        const [, grafana] = mark("mara:grafanaAdminPassword");
        // A profile name is letters, digits and a few signs; this one is valid, and still a marker.
        const [, profile] = mark("aws:profile", "mk-profile-9Zq");
        const [, typo] = mark("mara:grafanaAdminPasword");
        const config = {
            "mara:infraType": { value: "aws", secret: false },
            "aws:region": { value: "us-east-1", secret: false },
            "aws:profile": { value: profile, secret: true },
            "mara:grafanaAdminPassword": { value: grafana, secret: true },
        };
        const s = makeStandin({ current: "dev", stacks: { dev: { config, outputs: {} }, typo: { config: { ...config, "mara:grafanaAdminPasword": { value: typo, secret: true } }, outputs: {} } } });
        s.addTool("aws", "exit 0");
        const restore = useStandinPath(s);
        try {
            const invalid = await runMara(["preview", "--stack", "typo"], { env: { HOME: s.home, PATH: s.path }, projectDir: s.projectDir });
            expect(invalid.code).toBe(1);
            expect(invalid.stderr).toContain("mara:grafanaAdminPasword: is not a setting this program knows");
            record("preview invalid", invalid.stdout, invalid.stderr);
            // A valid stack reaches the pre-flight checks, which name the profile's key, not its value.
            const valid = await runMara(["preview", "--stack", "dev"], { env: { HOME: s.home, PATH: s.path }, projectDir: s.projectDir });
            expect(valid.code, valid.stderr).toBe(0);
            expect(valid.stderr).toContain("AWS credentials: the profile in aws:profile (stored encrypted)");
            record("preview valid", valid.stdout, valid.stderr);
        } finally {
            restore();
            s.remove();
        }
    }, 120_000);

    it("every --help", async () => {
        for (const cmd of ["", "init", "plan", "validate", "list-providers", "outdated", "up", "preview", "destroy", "refresh", "kubeconfig", "verify"]) {
            const r = await runMara([...(cmd ? [cmd] : []), "--help"]);
            expect(r.code, cmd).toBe(0);
            record(`help ${cmd}`, r.stdout, r.stderr);
        }
    });

    it("a huge value is shortened in messages", async () => {
        const huge = "x".repeat(5000);
        const r = await runMara(["validate", "-c", write("huge", { config: { "kubernetes:infra_type": "aws", "aws:region": "us-east-1", "mara:clusterName": huge, "mara:siriusHostname": `${"y".repeat(300)}.example.com` } })]);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain("(5000 characters)");
        expect(r.stderr).not.toContain("x".repeat(101));
        expect(r.stderr).not.toContain("y".repeat(101));
        expect(r.stderr.length).toBeLessThan(3000);
    });

    it("no output holds a marker, any part of the inline kubeconfig, or a stack trace", () => {
        expect(outputs.length).toBeGreaterThan(30);
        const leaks = outputs.flatMap(({ what, text }) => ALL_MARKERS().filter((m) => text.includes(m) || text.includes(JSON.stringify(m).slice(1, -1))).map((m) => `${what}: ${m}`));
        expect(leaks).toEqual([]);
        // The command line prints messages, never stack traces (the program's error object carries one for Pulumi's log).
        expect(outputs.filter(({ what, text }) => !what.startsWith("program") && /\n\s+at .+:\d+:\d+/.test(text)).map((o) => o.what)).toEqual([]);
    });
});
