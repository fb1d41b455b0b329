/**
 * `mara init` against a stand-in `pulumi` (see support/standin.ts: the real Pulumi CLI cannot be
 * installed on these machines, so the Automation API talks to a recording script placed first on PATH).
 * Prompts are answered by an injected prompter; no terminal is driven.
 */
import { AWS_REGIONS, AWS_REGIONS_SOURCE } from "../../config/regions.generated";
import * as fs from "fs";
import * as path from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseStackFile } from "../../config";
import { runMara, scriptedPrompter } from "./support/io";
import { makeStandin, Standin, useStandinPath } from "./support/standin";

let s: Standin;
let restore: () => void;
beforeEach(() => {
    s = makeStandin();
    restore = useStandinPath(s);
});
afterEach(() => {
    restore();
    s.remove();
});

const env = (extra: Record<string, string> = {}) => ({ HOME: s.home, PATH: s.path, ...extra });
const run = (argv: string[], answers?: (string | boolean)[], extra: Record<string, string> = {}) =>
    runMara(["init", ...argv], { prompter: answers ? scriptedPrompter(answers) : undefined, env: env(extra), projectDir: s.projectDir, cwd: s.projectDir });
const stackFile = (stack: string) => parseStackFile(fs.readFileSync(path.join(s.projectDir, `Pulumi.${stack}.yaml`), "utf8"), { stack });
const configSetCalls = () => s.calls().filter((c) => c.args[0] === "config" && c.args[1] === "set-all");

describe("first run, interactive", () => {
    it("asks for the infra type, the provider's keys and (optionally) the passwords, and writes them with setAllConfig", async () => {
        const prompter = scriptedPrompter(["aws", "eu-west-1", "my-profile", true, "grafana-pw", "accounts-pw", "ledger-pw", "demo-pw"]);
        const r = await runMara(["init", "--stack", "dev"], { prompter, env: env(), projectDir: s.projectDir, cwd: s.projectDir });
        expect(r.stderr).toContain("first-run setup");
        expect(r.code, r.stderr).toBe(0);

        expect(prompter.asked.map((q) => q.kind)).toEqual(["select", "input", "input", "confirm", "password", "password", "password", "password"]);
        expect(prompter.asked[0]!.choices).toEqual(["aws", "digitalocean", "linode", "kubeconfig"]);
        expect(prompter.asked[1]).toMatchObject({ message: expect.stringContaining("aws:region"), default: "us-east-1" });
        expect(prompter.asked[2]!.message).toContain("optional");

        const [call] = configSetCalls();
        expect(call!.args).toEqual(expect.arrayContaining(["--stack", "dev", "--plaintext", "mara:infraType=aws", "--plaintext", "aws:region=eu-west-1", "--plaintext", "aws:profile=my-profile"]));
        expect(call!.args).toEqual(expect.arrayContaining(["--secret", "mara:grafanaAdminPassword=grafana-pw", "--secret", "mara:siriusDemoPassword=demo-pw"]));
        const file = stackFile("dev");
        expect([...file.secretKeys].sort()).toEqual(["mara:grafanaAdminPassword", "mara:siriusAccountsPassword", "mara:siriusDemoPassword", "mara:siriusLedgerPassword"]);
        expect(file.values["aws:region"]).toBe("eu-west-1");
        expect(r.stdout).toContain("mara:grafanaAdminPassword = [secret]");
        expect(r.stdout).not.toContain("grafana-pw");
        expect(r.stdout).toContain("npx mara plan --stack dev --mermaid plan.mmd");
        expect(s.state().stacks.dev).toBeDefined();
    });

    it("asks for the stack name when none is given", async () => {
        const prompter = scriptedPrompter(["bad name!", "staging", "aws", "us-east-1", "", false]);
        const r = await runMara(["init"], { prompter, env: env(), projectDir: s.projectDir });
        expect(r.code, r.stderr).toBe(0);
        expect(prompter.asked[0]).toMatchObject({ kind: "input", message: "Stack name", default: "dev" });
        expect(prompter.asked[0]!.rejected[0]).toContain('"bad name!" is not a stack name');
        expect(s.state().stacks.staging).toBeDefined();
    });

    it("validates every answer with the program's value types and asks again", async () => {
        const prompter = scriptedPrompter(["aws", "mars-north-9x", "us-east-1", "", false]);
        const r = await runMara(["init", "--stack", "dev"], { prompter, env: env(), projectDir: s.projectDir, cwd: s.projectDir });
        expect(r.code, r.stderr).toBe(0);
        const region = prompter.asked.find((q) => q.message.startsWith("aws:region"))!;
        expect(region.rejected).toEqual([`aws:region is not an AWS region. Allowed: an AWS region such as us-east-1 (the ${AWS_REGIONS.length} that ${AWS_REGIONS_SOURCE} lists)`]);
        expect(stackFile("dev").values).toEqual({ "mara:infraType": "aws", "aws:region": "us-east-1" });
    });

    it("shows the environment's region as the default, and asks for tokens with hidden input", async () => {
        const aws = scriptedPrompter(["aws", "", "", false]);
        await runMara(["init", "--stack", "a"], { prompter: aws, env: env({ AWS_REGION: "eu-west-1", AWS_PROFILE: "ops" }), projectDir: s.projectDir });
        expect(aws.asked[1]!.default).toBe("eu-west-1");
        expect(aws.asked[2]!.default).toBe("ops");
        expect(stackFile("a").values).toMatchObject({ "aws:region": "eu-west-1", "aws:profile": "ops" });

        const linode = scriptedPrompter(["linode", "tok-123", "mara.example.com", "us-central", "1.35", false]);
        const r = await runMara(["init", "--stack", "l"], { prompter: linode, env: env(), projectDir: s.projectDir });
        expect(r.code, r.stderr).toBe(0);
        expect(linode.asked[1]).toMatchObject({ kind: "password", message: expect.stringContaining("linode:token") });
        expect(stackFile("l").secretKeys).toEqual(new Set(["linode:token"]));
        expect(stackFile("l").values).toMatchObject({ "mara:infraType": "linode", "mara:fqdn": "mara.example.com", "mara:lkeRegion": "us-central", "mara:lkeK8sVersion": "1.35" });
    });

    it("uses a token from the environment without asking for it or storing it", async () => {
        const prompter = scriptedPrompter(["digitalocean", "mara.example.com", "", false]);
        const r = await runMara(["init", "--stack", "do"], { prompter, env: env({ DIGITALOCEAN_TOKEN: "dop_v1_x" }), projectDir: s.projectDir });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain("Using DIGITALOCEAN_TOKEN from the environment");
        expect(prompter.asked.some((q) => q.message.includes("digitalocean:token"))).toBe(false);
        expect(JSON.stringify(s.calls())).not.toContain("dop_v1_x");
    });

    it("re-asks answers that break a rule spanning several keys (validateConfig), then writes", async () => {
        const prompter = scriptedPrompter(["digitalocean", "tok", "example.com", "", false, "mara.example.com"]);
        const r = await runMara(["init", "--stack", "do"], { prompter, env: env(), projectDir: s.projectDir });
        expect(r.stderr).toContain('error: 1 configuration problem in these answers:\n  1. mara:fqdn = "example.com": has no host part');
        expect(r.code, r.stderr).toBe(0);
        expect(stackFile("do").values["mara:fqdn"]).toBe("mara.example.com");
    });

    it("offers a local backend when pulumi whoami fails, and asks for a new passphrase twice", async () => {
        s.setState((st) => (st.backend = null));
        const prompter = scriptedPrompter([true, "aws", "us-east-1", "", false, "secret-1", "secret-2", "secret-1", "secret-1"]);
        const r = await runMara(["init", "--stack", "dev"], { prompter, env: env(), projectDir: s.projectDir });
        expect(r.code, r.stderr).toBe(0);
        expect(prompter.asked[0]).toMatchObject({ kind: "confirm", message: expect.stringContaining("file://~/.pulumi-mara") });
        expect(r.stderr).toContain("The two passphrases differ");
        expect(s.state().backend).toBe("file://~/.pulumi-mara");
        expect(fs.existsSync(path.join(s.home, ".pulumi-mara"))).toBe(true);
        expect(s.calls().find((c) => c.args[0] === "stack" && c.args[1] === "init")?.passphrase).toBe("secret-1");
        expect(fs.readFileSync(path.join(s.projectDir, "Pulumi.dev.yaml"), "utf8")).toContain("encryptionsalt");
    });

    it("writes a stack file, secrets included, that mara validate accepts, with a service's ciphertext and with a passphrase's", async () => {
        const passwords = ["grafana-pw", "accounts-pw", "ledger-pw", "demo-pw"];
        const service = await runMara(["init", "--stack", "dev"], { prompter: scriptedPrompter(["aws", "us-east-1", "", true, ...passwords]), env: env(), projectDir: s.projectDir });
        expect(service.code, service.stderr).toBe(0);
        s.setState((st) => (st.backend = null));
        const passphrase = await runMara(["init", "--stack", "local"], {
            prompter: scriptedPrompter([true, "aws", "us-east-1", "", true, ...passwords]),
            env: env({ PULUMI_CONFIG_PASSPHRASE: "pass" }),
            projectDir: s.projectDir,
        });
        expect(passphrase.code, passphrase.stderr).toBe(0);
        const local = fs.readFileSync(path.join(s.projectDir, "Pulumi.local.yaml"), "utf8");
        expect(local).toMatch(/"encryptionsalt": "v1:[A-Za-z0-9+/=]+:v1:/);
        expect(local).toMatch(/"secure": "v1:[A-Za-z0-9+/=]{16}:[A-Za-z0-9+/=]+"/);
        for (const stack of ["dev", "local"]) {
            const r = await runMara(["validate", "--stack", stack], { env: env(), projectDir: s.projectDir, cwd: s.projectDir });
            expect(r.stderr, stack).toBe("");
            expect(r.code, stack).toBe(0);
        }
    });

    it("logs in to the local backend with --local", async () => {
        const r = await run(["--stack", "dev", "--local", "--non-interactive", "--set", "kubernetes:infra_type=AWS", "--set", "aws:region=us-east-1"], undefined, { PULUMI_CONFIG_PASSPHRASE: "" });
        expect(r.code, r.stderr).toBe(0);
        expect(s.calls().find((c) => c.args[0] === "login")?.args).toEqual(["login", "file://~/.pulumi-mara"]);
        // A MARA spelling is normalised by the key's type before it is stored.
        expect(stackFile("dev").values["mara:infraType"]).toBe("aws");
    });
});

describe("non-interactive", () => {
    it("takes values from --set and the environment", async () => {
        const r = await run(["--stack", "ci", "--non-interactive", "--provider", "AWS", "--set", "eks:instance_type=m5.large", "--set", "mara:grafanaAdminPassword=grafana-pw"], undefined, { AWS_REGION: "us-west-2" });
        expect(r.code, r.stderr).toBe(0);
        const file = stackFile("ci");
        expect(file.values).toMatchObject({ "mara:infraType": "aws", "aws:region": "us-west-2", "mara:eksInstanceType": "m5.large" });
        expect(file.secretKeys).toEqual(new Set(["mara:grafanaAdminPassword"]));
    });

    it("fails listing every missing key, and writes nothing", async () => {
        const r = await run(["--stack", "ci", "--non-interactive", "--provider", "linode"]);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain("3 settings are missing");
        expect(r.stderr).toContain("warning: linode:token is not set and LINODE_TOKEN is not exported");
        for (const key of ["mara:fqdn", "mara:lkeRegion", "mara:lkeK8sVersion"]) expect(r.stderr).toContain(`--set ${key}=`);
        expect(configSetCalls()).toHaveLength(0);
        expect(s.state().stacks.ci).toBeUndefined();

        const none = await run(["--stack", "ci", "--non-interactive"]);
        expect(none.stderr).toContain("mara:infraType (kubernetes:infra_type)");
        expect(none.stderr).toContain("--provider aws");
    });

    it("rejects bad --set flags before calling Pulumi", async () => {
        const r = await run(["--non-interactive", "--set", "aws:regoin=us-east-1", "--set", "eks:min_size=three", "--set", "oops"]);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain("--set aws:regoin: not a setting this program reads; did you mean aws:region?");
        expect(r.stderr).toContain("--set eks:min_size: the value is not a number. Allowed: a whole number from 0 to 450 nodes");
        expect(r.stderr).toContain("--set oops: expected key=value");
        expect(s.calls()).toHaveLength(0);
    });

    it("lists cross-field problems (validateConfig) and writes nothing", async () => {
        const r = await run(["--stack", "ci", "--non-interactive", "--provider", "aws", "--set", "aws:region=us-east-1", "--set", "vpc:azs=us-west-1a,us-west-1b"]);
        expect(r.code).toBe(1);
        // Stored (and reported) under the canonical key, since the stack file does not use MARA's name yet.
        expect(r.stderr).toContain('1. mara:vpcAzs = "[\\"us-west-1a\\",\\"us-west-1b\\"]": lists "us-west-1a", which is in region us-west-1, not us-east-1.');
        expect(r.stderr).toContain('2. mara:vpcAzs = "[\\"us-west-1a\\",\\"us-west-1b\\"]": lists "us-west-1b"');
        expect(r.stderr).toContain("nothing was written");
        expect(configSetCalls()).toHaveLength(0);
    });

    it("fails without a backend unless --local is given", async () => {
        s.setState((st) => (st.backend = null));
        const r = await run(["--non-interactive", "--provider", "aws", "--set", "aws:region=us-east-1"]);
        expect(r.code).toBe(3);
        expect(r.stderr).toContain("not logged in to a Pulumi backend");
        expect(r.stderr).toContain("--local");
    });
});

describe("an existing stack", () => {
    beforeEach(() => {
        fs.copyFileSync(path.join(__dirname, "..", "fixtures", "Pulumi.mara-aws.yaml"), path.join(s.projectDir, "Pulumi.prod.yaml"));
        s.setState((st) => (st.stacks.prod = { config: {}, outputs: {} }));
    });

    it("asks nothing when every required key is set, and keeps the file's (MARA) key names", async () => {
        const r = await run(["--stack", "prod", "--non-interactive", "--set", "kubernetes:infra_type=aws"]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain("asking only for what is missing");
        // Already AWS: nothing to write for the infra type; a changed value goes to the key the file uses.
        expect(configSetCalls()).toHaveLength(0);
        const again = await run(["--stack", "prod", "--non-interactive", "--set", "mara:eksMinSize=2"]);
        expect(again.code, again.stderr).toBe(0);
        expect(configSetCalls()[0]!.args).toContain("eks:min_size=2");
    });

    it("refuses to change the infra type (MARA's provider lock) unless --force", async () => {
        const r = await run(["--stack", "prod", "--non-interactive", "--provider", "DO"]);
        expect(r.code).toBe(3);
        expect(r.stderr).toContain('stack "prod" has already been used with the provider [aws]');
        expect(r.stderr).toContain("--force");
        expect(configSetCalls()).toHaveLength(0);

        const forced = await run(["--stack", "prod", "--non-interactive", "--provider", "DO", "--force", "--set", "kic-helm:fqdn=mara.example.com"], undefined, { DIGITALOCEAN_TOKEN: "t" });
        expect(forced.code, forced.stderr).toBe(0);
        expect(configSetCalls()[0]!.args).toContain("kubernetes:infra_type=digitalocean");
    });
});
