/**
 * `mara up | preview | destroy (down) | refresh` through the Automation API, against a stand-in `pulumi`
 * placed first on PATH (support/standin.ts): the real Pulumi CLI cannot be installed on these machines.
 * The stand-in records every argv, so the tests check what the API was made to run, the streamed output,
 * and the pre-flight checks that stop a run before Pulumi is asked to change anything.
 */
import * as fs from "fs";
import * as path from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Run, runMara, scriptedPrompter } from "./support/io";
import { makeStandin, Standin, StandinStack, useStandinPath } from "./support/standin";

let s: Standin;
let restore: () => void;

const AWS: StandinStack["config"] = {
    "mara:infraType": { value: "aws", secret: false },
    "aws:region": { value: "us-east-1", secret: false },
    "aws:profile": { value: "deploy", secret: false },
};

beforeEach(() => {
    s = makeStandin({ current: "dev", stacks: { dev: { config: { ...AWS }, outputs: {} } } });
    s.addTool("docker", 'echo "28.2.2"');
    s.addTool("aws", "exit 0");
    restore = useStandinPath(s);
});
afterEach(() => {
    restore();
    s.remove();
});

const env = (extra: Record<string, string> = {}) => ({ HOME: s.home, PATH: s.path, ...extra });
const mara = (argv: string[], o: { answers?: (string | boolean)[]; env?: Record<string, string> } = {}): Promise<Run> =>
    runMara(argv, { prompter: o.answers ? scriptedPrompter(o.answers) : undefined, env: env(o.env), projectDir: s.projectDir });
/** The Pulumi commands run: "up", "preview", "stack select", "config set-all", ... */
const verbs = () => s.calls().map((c) => (["stack", "config"].includes(c.args[0]!) ? c.args.slice(0, 2).join(" ") : c.args[0]!));
const callOf = (verb: string) => s.calls().find((c) => c.args[0] === verb);

describe("stack names", () => {
    it("refuses a stack name that is a path, before Pulumi is asked anything about it", async () => {
        for (const op of ["preview", "up", "destroy", "refresh", "kubeconfig"]) {
            const r = await mara([op, "--stack", "../../etc", ...(op === "kubeconfig" ? [] : ["--yes"])]);
            expect(r.code, op).toBe(2);
            expect(r.stderr).toContain(`mara: "../../etc" is not a stack name`);
        }
        expect(s.calls().some((c) => c.args.includes("../../etc"))).toBe(false);
    });
});

describe("the operations", () => {
    it("up --yes: checks, then runs `pulumi up` with output streamed", async () => {
        const r = await mara(["up", "--yes"]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain("✓ Pulumi CLI: v3.200.0");
        expect(r.stderr).toContain("✓ Docker: engine 28.2.2 (the ingress controller image is pushed to the cluster's registry)");
        expect(r.stderr).toContain("✓ AWS credentials: profile deploy (aws:profile)");
        expect(r.stdout).toContain("Updating (dev):");
        expect(r.stdout).toContain("+ 97 to create");
        expect(callOf("up")!.args).toEqual(expect.arrayContaining(["up", "--yes", "--skip-preview", "--exec-kind", "auto.local", "--stack", "dev"]));
        expect(callOf("up")!.cwd).toBe(s.projectDir);
        // Every command runs without the update check, as MARA's runner did.
        expect(s.calls().every((c) => c.skipUpdateCheck === "true")).toBe(true);
        expect(r.stderr).toContain("Next: npx mara kubeconfig --stack dev");
    });

    it("up without --yes previews, asks, and only then updates", async () => {
        const declined = await mara(["up"], { answers: [false] });
        expect(declined.code).toBe(1);
        expect(declined.stdout).toContain("Previewing update (dev):");
        expect(declined.stderr).toContain("Confirmation declined; nothing was changed.");
        expect(verbs()).not.toContain("up");

        const accepted = await mara(["up"], { answers: [true] });
        expect(accepted.code, accepted.stderr).toBe(0);
        expect(verbs().filter((v) => v === "preview" || v === "up")).toEqual(["preview", "preview", "up"]);
    });

    it("preview asks nothing and hands the event log to the CLI", async () => {
        const r = await mara(["preview", "--stack", "dev"]);
        expect(r.code, r.stderr).toBe(0);
        const args = callOf("preview")!.args;
        expect(args[args.indexOf("--event-log") + 1]).toMatch(/automation-logs-preview-.*\/eventlog\.txt$/);
        expect(r.stderr).toContain("nothing was changed");
    });

    it("destroy, its alias down, and refresh", async () => {
        expect((await mara(["destroy", "--yes"])).code).toBe(0);
        expect(callOf("destroy")!.args).toEqual(expect.arrayContaining(["destroy", "--yes", "--skip-preview", "--stack", "dev"]));
        const down = await mara(["down", "--yes", "--stack", "dev"]);
        expect(down.code, down.stderr).toBe(0);
        expect(down.stdout).toContain("Destroying (dev):");
        expect(down.stderr).toContain("The stack and its configuration remain");
        const refresh = await mara(["refresh"], { answers: [true] });
        expect(refresh.code, refresh.stderr).toBe(0);
        expect(callOf("refresh")!.args).toEqual(expect.arrayContaining(["refresh", "--skip-preview", "--yes", "--stack", "dev"]));
    });

    it("reports a failed operation with exit code 1, after streaming Pulumi's error", async () => {
        s.setState((st) => (st.fail = { up: "error: creating EKS Cluster (mara-dev): AccessDeniedException" }));
        const r = await mara(["up", "--yes"]);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain("AccessDeniedException");
        expect(r.stderr).toContain('mara: pulumi up failed on stack "dev" (its output is above).');
    });
});

describe("refusals before anything runs", () => {
    it("needs --yes without a terminal", async () => {
        const r = await mara(["destroy"]);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain("pass --yes");
        expect(s.calls()).toHaveLength(0);
    });

    it("needs the Pulumi CLI on PATH", async () => {
        process.env.PATH = "/usr/bin:/bin";
        const r = await mara(["preview"]);
        expect(r.code).toBe(3);
        expect(r.stderr).toContain("the Pulumi CLI is not installed (no `pulumi` on PATH); install it from https://www.pulumi.com/docs/install/");
    });

    it("needs Pulumi 3.150 or later", async () => {
        s.setState((st) => (st.version = "v3.100.0"));
        const r = await mara(["preview"]);
        expect(r.code).toBe(3);
        expect(r.stderr).toContain("Pulumi CLI v3.100.0 is too old: mara needs v3.150.0 or later");
        expect(verbs()).toEqual(["version"]);
    });

    it("needs Docker for `up` when the image is pushed, but not for preview", async () => {
        fs.rmSync(path.join(s.binDir, "docker"));
        const up = await mara(["up", "--yes"]);
        expect(up.code).toBe(3);
        expect(up.stderr).toContain("✗ Docker: not installed, and needed because the ingress controller image is pushed to the cluster's registry");
        expect(up.stderr).toContain("pre-flight checks failed: Docker; nothing was run");
        expect(verbs()).not.toContain("up");
        expect((await mara(["preview"])).code).toBe(0);
    });

    it("reports a Docker engine that does not answer", async () => {
        s.addTool("docker", 'echo "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?" >&2; exit 1');
        const r = await mara(["up", "--yes"]);
        expect(r.code).toBe(3);
        expect(r.stderr).toContain("✗ Docker: installed, but its engine does not answer (Cannot connect to the Docker daemon");
    });

    it("needs the AWS CLI for `up` (the kubeconfig runs aws eks get-token), and only warns for preview", async () => {
        fs.rmSync(path.join(s.binDir, "aws"));
        const preview = await mara(["preview"]);
        expect(preview.code).toBe(0);
        expect(preview.stderr).toContain("! AWS CLI: not installed");
        expect((await mara(["up", "--yes"])).code).toBe(3);
    });

    it("hints at AWS credentials, and requires a DigitalOcean or Linode token", async () => {
        s.setState((st) => delete st.stacks.dev!.config["aws:profile"]);
        const aws = await mara(["preview"]);
        expect(aws.code).toBe(0);
        expect(aws.stderr).toContain("! AWS credentials: none found (no AWS_PROFILE, aws:profile, AWS_ACCESS_KEY_ID or ~/.aws)");
        expect((await mara(["preview"], { env: { AWS_ACCESS_KEY_ID: "AKIA" } })).stderr).toContain("✓ AWS credentials: access key from AWS_ACCESS_KEY_ID");

        s.setState((st) => (st.stacks.do = { config: { "kubernetes:infra_type": { value: "DO", secret: false }, "kic-helm:fqdn": { value: "mara.example.com", secret: false } }, outputs: {} }));
        const noToken = await mara(["preview", "--stack", "do"]);
        expect(noToken.code).toBe(3);
        expect(noToken.stderr).toContain("✗ DigitalOcean token: not set: export DIGITALOCEAN_TOKEN=<token>, or pulumi config set --secret digitalocean:token <token>");
        const withToken = await mara(["preview", "--stack", "do"], { env: { DIGITALOCEAN_TOKEN: "dop" } });
        expect(withToken.code, withToken.stderr).toBe(0);
        expect(withToken.stderr).toContain("✓ DigitalOcean token: from DIGITALOCEAN_TOKEN");
    });

    it("checks that an existing cluster's kubeconfig file exists", async () => {
        const config = { "mara:infraType": { value: "kubeconfig", secret: false }, "mara:kubeconfig": { value: "~/missing/config", secret: false }, "mara:fqdn": { value: "mara.example.com", secret: false } };
        s.setState((st) => (st.stacks.k = { config, outputs: {} }));
        const r = await mara(["refresh", "--yes", "--stack", "k"]);
        expect(r.code).toBe(3);
        expect(r.stderr).toContain(`✗ Kubeconfig: ${s.home}/missing/config does not exist`);
    });

    it("up on an existing cluster runs mara doctor first: a cluster it cannot reach stops the run (3); --skip-doctor goes on", async () => {
        const kubeconfig = path.join(s.home, "lab.yaml");
        // Port 9 (discard) on the loopback address: refused at once, nothing listens. The fixture's certificate authority
        // is a placeholder the doctor would refuse before connecting; without one, the system's authorities are used.
        const fixture = fs.readFileSync(path.join(__dirname, "..", "fixtures", "kubeconfig.yaml"), "utf8");
        fs.writeFileSync(kubeconfig, fixture.replace("https://203.0.113.5:6443", "https://127.0.0.1:9").replace(/^\s*certificate-authority-data: .*\n/m, ""));
        const config = { "mara:infraType": { value: "kubeconfig", secret: false }, "mara:kubeconfig": { value: kubeconfig, secret: false }, "mara:kubeContext": { value: "lab-admin", secret: false }, "mara:fqdn": { value: "mara.example.com", secret: false } };
        s.setState((st) => (st.stacks.k = { config, outputs: {} }));
        const stopped = await mara(["up", "--yes", "--stack", "k"]);
        expect(stopped.code, stopped.stderr).toBe(3);
        expect(stopped.stderr).toContain("mara doctor (skip with --skip-doctor):");
        expect(stopped.stderr).toContain("✗ API server reachable: cannot reach https://127.0.0.1:9");
        expect(stopped.stderr).toContain("mara: mara doctor found the cluster unreachable with the stack's kubeconfig (above); nothing was run. Fix them, or deploy anyway with: npx mara up --skip-doctor");
        expect(verbs()).not.toContain("up");

        const skipped = await mara(["up", "--yes", "--stack", "k", "--skip-doctor"]);
        expect(skipped.code, skipped.stderr).toBe(0);
        expect(skipped.stderr).toContain("- mara doctor: skipped (--skip-doctor)");
        expect(verbs()).toContain("up");
    });

    it("lists every configuration problem and runs nothing", async () => {
        s.setState((st) => {
            st.stacks.dev!.config["vpc:azs"] = { value: '["us-west-1a","us-west-1b"]', secret: false };
            st.stacks.dev!.config["eks:min_size"] = { value: "20", secret: false };
        });
        const r = await mara(["preview"]);
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(/error: 3 configuration problems in stack "dev"/);
        expect(r.stderr).toContain("Nothing was run.");
        expect(verbs()).not.toContain("preview");
    });

    it("keeps MARA's provider lock: a stack used with one infra type is not run with another", async () => {
        s.setState((st) => (st.stacks.dev!.outputs = { infra_type: { value: "aws", secret: false } }));
        const asked = await mara(["preview", "--provider", "LKE"]);
        expect(asked.code).toBe(3);
        expect(asked.stderr).toContain('stack "dev" has already been used with the provider [aws] (its config says aws, it was deployed with aws), so it cannot be run with the provider [linode]');

        s.setState((st) => (st.stacks.dev!.config["mara:infraType"] = { value: "digitalocean", secret: false }));
        const changed = await mara(["preview"]);
        expect(changed.code).toBe(3);
        expect(changed.stderr).toContain("(it was deployed with aws)");
        expect(verbs()).not.toContain("preview");

        // Destroying is how the lock is resolved: allowed, with the deployed type's credentials checked.
        const destroy = await mara(["destroy", "--yes"]);
        expect(destroy.code, destroy.stderr).toBe(0);
        expect(destroy.stderr).toContain("✓ AWS credentials");
        expect((await mara(["refresh", "--yes", "--provider", "LKE"])).code).toBe(3);
    });

    it("--force overrides the lock and records the requested infra type", async () => {
        s.setState((st) => (st.stacks.dev!.outputs = { infra_type: { value: "aws", secret: false } }));
        const r = await mara(["preview", "--provider", "DO", "--force"], { env: { DIGITALOCEAN_TOKEN: "dop" } });
        // The DO stack lacks kic-helm:fqdn: the override is recorded, then validation stops the run.
        expect(callOf("config")).toBeDefined();
        expect(s.state().stacks.dev!.config["mara:infraType"]!.value).toBe("digitalocean");
        expect(r.code).toBe(1);
        expect(r.stderr).toContain("kic-helm:fqdn: is not set, and digitalocean load balancers have no host name of their own");
    });

    it("asks for the passphrase of a passphrase-encrypted stack, or says how to give it", async () => {
        s.setState((st) => (st.stacks.dev!.passphrase = true));
        fs.writeFileSync(path.join(s.projectDir, "Pulumi.dev.yaml"), "encryptionsalt: v1:abc\nconfig: {}\n");
        const none = await mara(["preview"]);
        expect(none.code).toBe(3);
        expect(none.stderr).toContain("export PULUMI_CONFIG_PASSPHRASE");

        const prompter = scriptedPrompter(["correct horse"]);
        const r = await runMara(["preview"], { prompter, env: env(), projectDir: s.projectDir });
        expect(r.code, r.stderr).toBe(0);
        expect(prompter.asked[0]).toMatchObject({ kind: "password", message: 'Passphrase of stack "dev"' });
        expect(callOf("preview")!.passphrase).toBe("correct horse");
    });

    it("needs a stack: named, or selected", async () => {
        s.setState((st) => delete st.current);
        const r = await mara(["preview"]);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain("no stack selected: pass --stack NAME, or create one with: npx mara init");
        s.setState((st) => (st.backend = null));
        const loggedOut = await mara(["preview"]);
        expect(loggedOut.stderr).toContain("PULUMI_ACCESS_TOKEN must be set");
        expect(loggedOut.stderr).toContain("(not logged in to a Pulumi backend: run `npx mara init` or `pulumi login`)");
        s.setState((st) => (st.backend = "https://api.pulumi.com"));
        const missing = await mara(["preview", "--stack", "nope"]);
        expect(missing.code).toBe(2);
        expect(missing.stderr).toContain('stack "nope" does not exist; create it with: npx mara init --stack nope');
    });
});
