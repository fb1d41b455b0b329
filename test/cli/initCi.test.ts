/**
 * `mara init --ci github` against the stand-in `pulumi` (support/standin.ts): the flags' refusals before anything is
 * created, where the workflows go, the settings they are written with, and that no secret of the stack, the backend
 * or the environment reaches a workflow file or the output. actionlint and the review stacks' scripts are checked by
 * the real tools in the real-engine tier (test/engine/ciWorkflows.test.ts).
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { parse } from "yaml";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { githubWorkflows } from "../../cli/ci/githubWorkflows";
import { ciSettings } from "../../cli/ci/settings";
import { factsOf } from "../support/ciVariants";
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

const root = () => path.dirname(s.projectDir);
const run = (argv: string[], env: Record<string, string> = {}, projectDir = s.projectDir) =>
    runMara(["init", "--non-interactive", ...argv], { env: { HOME: s.home, PATH: s.path, ...env }, projectDir, cwd: projectDir });
const workflowsDir = (base = s.projectDir) => path.join(base, ".github", "workflows");
const written = (base = s.projectDir) => (fs.existsSync(workflowsDir(base)) ? fs.readdirSync(workflowsDir(base)).sort() : []);
const read = (name: string, base = s.projectDir) => fs.readFileSync(path.join(workflowsDir(base), name), "utf8");
const AWS = ["--provider", "aws", "--set", "aws:region=eu-west-1"];
const stackInits = () => s.calls().filter((c) => c.args[0] === "stack" && c.args[1] === "init");

describe("the flags", () => {
    it("refuses a CI system it does not write for, naming the ones it does, before asking Pulumi anything", async () => {
        for (const value of ["gitlab", "circle", "", "github,gitlab"]) {
            const r = await run(["--stack", "dev", "--ci", value, ...AWS]);
            expect(r.code, value).toBe(2);
            expect(r.stderr).toContain(`--ci ${JSON.stringify(value)}: not a CI system mara writes workflows for; use --ci github`);
        }
        // A huge value: one short line.
        const huge = await run(["--stack", "dev", "--ci", "x".repeat(100_000), ...AWS]);
        expect(huge.code).toBe(2);
        expect(huge.stderr.length).toBeLessThan(400);
        expect(huge.stderr).toContain("(100000 characters)");
        expect(s.calls()).toEqual([]);
        expect(written()).toEqual([]);
    });

    it("takes the system's name in any capitals", async () => {
        const r = await run(["--stack", "dev", "--ci", "GitHub", ...AWS]);
        expect(r.code, r.stderr).toBe(0);
        expect(written()).toEqual(["mara-dev-pull-request.yml", "mara-dev-push.yml"]);
    });

    it("refuses --review-stacks without --ci, and --ci with a local backend", async () => {
        const review = await run(["--stack", "dev", "--review-stacks", ...AWS]);
        expect(review.code).toBe(2);
        expect(review.stderr).toContain("--review-stacks goes with --ci github");
        const local = await run(["--stack", "dev", "--ci", "github", "--local", ...AWS], { PULUMI_CONFIG_PASSPHRASE: "x" });
        expect(local.code).toBe(2);
        expect(local.stderr).toContain("--ci cannot go with --local: a local backend keeps the state in ~/.pulumi-mara on this machine");
        expect(s.calls()).toEqual([]);
    });

    it("refuses a stack on a local backend before creating it: no runner can read that state", async () => {
        s.setState((st) => (st.backend = "file:///home/me/.pulumi-mara"));
        const r = await run(["--stack", "dev", "--ci", "github", ...AWS], { PULUMI_CONFIG_PASSPHRASE: "x" });
        expect(r.code).toBe(3);
        expect(r.stderr).toContain("the Pulumi backend is file:///home/me/.pulumi-mara, a folder on this machine: a CI runner cannot read that state");
        expect(stackInits()).toEqual([]);
        expect(written()).toEqual([]);
    });

    it("offers no local backend when not logged in: it says to log in to one a runner can reach", async () => {
        s.setState((st) => (st.backend = null));
        const r = await runMara(["init", "--stack", "dev", "--ci", "github", ...AWS], { prompter: scriptedPrompter([]), env: { HOME: s.home, PATH: s.path }, projectDir: s.projectDir, cwd: s.projectDir });
        expect(r.code).toBe(3);
        expect(r.stderr).toContain("not logged in to a Pulumi backend");
        expect(r.stderr).toContain("for a stack CI runs, log in to one a runner can reach: pulumi login (the Pulumi Cloud), or pulumi login s3://<bucket>");
        expect(s.calls().filter((c) => c.args[0] === "login")).toEqual([]);
    });

    it("refuses a name that is not a stack name before anything else", async () => {
        const r = await run(["--stack", "../x", "--ci", "github", ...AWS]);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain('"../x" is not a stack name');
        expect(s.calls()).toEqual([]);
    });
});

describe("the workflow files", () => {
    it("writes the pull request and push workflows of the stack, and lists the secrets and variables to add", async () => {
        const r = await run(["--stack", "dev", "--ci", "github", ...AWS]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain('Wrote the GitHub Actions workflows of stack "dev":');
        expect(r.stdout).toContain(".github/workflows/mara-dev-pull-request.yml: pull requests run mara validate and pulumi preview (the plan as a comment)");
        expect(r.stdout).toContain(".github/workflows/mara-dev-push.yml: pushes to main run pulumi up (main: the repository names no default branch (no origin/HEAD))");
        expect(r.stdout).toContain("  secret PULUMI_ACCESS_TOKEN: a Pulumi access token");
        expect(r.stdout).toContain("  variable AWS_ROLE_TO_ASSUME: the ARN of an IAM role that trusts GitHub's OIDC provider");
        // What init wrote is what the workflow writer makes of this stack's facts.
        const { settings } = ciSettings(factsOf("aws", { kind: "cloud", custom: false }), { workDir: "", branch: "main", pulumiVersion: "^3.150.0" }, false);
        const expected = githubWorkflows(settings);
        expect(read("mara-dev-pull-request.yml")).toBe(expected.pullRequest.text);
        expect(read("mara-dev-push.yml")).toBe(expected.push.text);
        const mode = fs.statSync(path.join(workflowsDir(), "mara-dev-push.yml")).mode & 0o777;
        expect(mode).toBe(0o644);
    });

    it("writes the workflows of a stack that is already configured, changing nothing in it", async () => {
        expect((await run(["--stack", "dev", ...AWS])).code).toBe(0);
        const before = s.calls().length;
        const r = await run(["--stack", "dev", "--ci", "github"]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain('Stack "dev" already has every setting it needs; nothing was changed.');
        expect(s.calls().slice(before).filter((c) => c.args[0] === "config" && c.args[1] === "set-all")).toEqual([]);
        expect(written()).toEqual(["mara-dev-pull-request.yml", "mara-dev-push.yml"]);
    });

    it("replaces an existing workflow only with --force, refusing before Pulumi is asked anything", async () => {
        fs.mkdirSync(workflowsDir(), { recursive: true });
        fs.writeFileSync(path.join(workflowsDir(), "mara-dev-push.yml"), "# mine\n");
        const r = await run(["--stack", "dev", "--ci", "github", ...AWS]);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain("mara-dev-push.yml exists; pass --force to replace it (changes made to it are lost)");
        expect(s.calls()).toEqual([]);
        expect(read("mara-dev-push.yml")).toBe("# mine\n");
        expect(written()).toEqual(["mara-dev-push.yml"]);

        const forced = await run(["--stack", "dev", "--ci", "github", "--force", ...AWS]);
        expect(forced.code, forced.stderr).toBe(0);
        expect(read("mara-dev-push.yml")).toContain("command: up");
    });

    it("refuses a link, a folder or a file where a workflow or its folder must go, naming the path", async () => {
        fs.mkdirSync(workflowsDir(), { recursive: true });
        fs.writeFileSync(path.join(s.home, "elsewhere.yml"), "x");
        fs.symlinkSync(path.join(s.home, "elsewhere.yml"), path.join(workflowsDir(), "mara-dev-push.yml"));
        fs.mkdirSync(path.join(workflowsDir(), "mara-dev-pull-request.yml"));
        const r = await run(["--stack", "dev", "--ci", "github", "--force", ...AWS]);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain("mara-dev-push.yml is a symbolic link; a workflow is written as a file of the repository");
        expect(r.stderr).toContain("mara-dev-pull-request.yml is a folder");
        expect(fs.readFileSync(path.join(s.home, "elsewhere.yml"), "utf8")).toBe("x");

        fs.rmSync(path.join(s.projectDir, ".github"), { recursive: true });
        fs.writeFileSync(path.join(s.projectDir, ".github"), "not a folder");
        const file = await run(["--stack", "dev", "--ci", "github", ...AWS]);
        expect(file.code).toBe(2);
        expect(file.stderr).toMatch(/\.github is a file, so .*mara-dev-pull-request\.yml cannot be written/);
        expect(s.calls()).toEqual([]);
    });

    it("puts the workflows at the root of the repository the project is in, with the project's folder as their working directory", async () => {
        fs.mkdirSync(path.join(root(), ".git"));
        const r = await run(["--stack", "dev", "--ci", "github", ...AWS]);
        expect(r.code, r.stderr).toBe(0);
        expect(written()).toEqual([]);
        expect(written(root())).toEqual(["mara-dev-pull-request.yml", "mara-dev-push.yml"]);
        const doc = parse(read("mara-dev-push.yml", root())) as { defaults: { run: Record<string, string> }; jobs: { up: { steps: { with?: Record<string, unknown> }[] } } };
        expect(doc.defaults.run).toEqual({ shell: "bash", "working-directory": "project" });
        expect(doc.jobs.up.steps.at(-1)!.with!["work-dir"]).toBe("project");
        expect(r.stdout).toContain("../.github/workflows/mara-dev-push.yml");
    });

    it("runs pulumi up on pushes to the branch origin/HEAD names, escaped for GitHub's branch filter", async () => {
        const git = (...args: string[]) => expect(spawnSync("git", ["-C", root(), ...args], { encoding: "utf8" }).status).toBe(0);
        git("init", "-q");
        git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/release+1");
        const r = await run(["--stack", "dev", "--ci", "github", ...AWS]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain("pushes to release+1 run pulumi up (the repository's default branch (origin/HEAD))");
        expect((parse(read("mara-dev-push.yml", root())) as { on: { push: { branches: string[] } } }).on.push.branches).toEqual(["release\\+1"]);
    });

    it("falls back to main when git prints what is not a branch, or does not answer within its bound", async () => {
        fs.mkdirSync(path.join(root(), ".git"));
        s.addTool("git", 'printf "origin/two words\\n"');
        const garbage = await run(["--stack", "dev", "--ci", "github", ...AWS]);
        expect(garbage.code, garbage.stderr).toBe(0);
        expect(garbage.stdout).toContain("pushes to main run pulumi up (main: the repository names no default branch (no origin/HEAD))");

        // git symbolic-ref starts no process of its own: a git that hangs is one process, which the bound kills.
        s.addTool("git", "exec sleep 300");
        const hung = await run(["--stack", "dev", "--ci", "github", "--force", ...AWS]);
        expect(hung.code, hung.stderr).toBe(0);
        expect(hung.stdout).toContain("pushes to main run pulumi up");
    }, 90_000);

    it("refuses a project folder whose name GitHub would read as an expression, or holds a line break", async () => {
        fs.mkdirSync(path.join(root(), ".git"));
        for (const name of ["${{ secrets.X }}", "infra\nprod"]) {
            const odd = path.join(root(), name);
            fs.mkdirSync(odd);
            fs.copyFileSync(path.join(s.projectDir, "Pulumi.yaml"), path.join(odd, "Pulumi.yaml"));
            const r = await run(["--stack", "dev", "--ci", "github", ...AWS], {}, odd);
            expect(r.code, name).toBe(2);
            expect(r.stderr).toContain('cannot be named in a GitHub workflow: its name holds "${{" or a control character; rename the folder');
        }
        expect(s.calls()).toEqual([]);
        expect(written(root())).toEqual([]);
    });
});

describe("stacks and backends", () => {
    it("reads the backend's URL and the cloud's token from the secret store, and the passphrase a self-managed backend's stack needs", async () => {
        s.setState((st) => (st.backend = "s3://state-bucket?region=eu-west-1"));
        const r = await run(["--stack", "dev", "--ci", "github", "--provider", "digitalocean", "--set", "mara:fqdn=mara.example.com"], { PULUMI_CONFIG_PASSPHRASE: "p", DIGITALOCEAN_TOKEN: "t" });
        expect(r.code, r.stderr).toBe(0);
        const doc = parse(read("mara-dev-push.yml")) as { jobs: { up: { steps: { name?: string; uses?: string; with?: Record<string, unknown>; env?: Record<string, string> }[]; permissions: Record<string, string> } } };
        const up = doc.jobs.up.steps.find((x) => x.name === "pulumi up")!;
        expect(up.env).toEqual({
            PULUMI_BACKEND_URL: "${{ secrets.PULUMI_BACKEND_URL }}",
            PULUMI_CONFIG_PASSPHRASE: "${{ secrets.PULUMI_CONFIG_PASSPHRASE }}",
            DIGITALOCEAN_TOKEN: "${{ secrets.DIGITALOCEAN_TOKEN }}",
        });
        expect(up.with!["cloud-url"]).toBe("${{ secrets.PULUMI_BACKEND_URL }}");
        // An S3 backend: AWS credentials through OIDC, in the region the repository's variables name.
        expect(doc.jobs.up.permissions).toEqual({ contents: "read", "id-token": "write" });
        expect(doc.jobs.up.steps.find((x) => x.name === "AWS credentials (OIDC)")!.with).toEqual({ "role-to-assume": "${{ vars.AWS_ROLE_TO_ASSUME }}", "aws-region": "${{ vars.AWS_REGION }}" });
        for (const name of ["PULUMI_BACKEND_URL", "PULUMI_CONFIG_PASSPHRASE", "DIGITALOCEAN_TOKEN"]) expect(r.stdout).toContain(`  secret ${name}: `);
        expect(r.stdout).toContain("  variable AWS_REGION: ");
    });

    it("warns about what the workflow cannot reach: another cloud's storage, a kubeconfig file on this machine", async () => {
        s.setState((st) => (st.backend = "gs://state-bucket"));
        const kubeconfig = path.join(s.home, "kubeconfig.yaml");
        fs.copyFileSync(path.join(__dirname, "..", "fixtures", "kubeconfig.yaml"), kubeconfig);
        const r = await run(["--stack", "dev", "--ci", "github", "--provider", "kubeconfig", "--set", `mara:kubeconfig=${kubeconfig}`, "--set", "mara:fqdn=mara.example.com"], { PULUMI_CONFIG_PASSPHRASE: "p" });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain("warning: --ci: the stack's state is in gs:// storage, and the workflow logs in to no cloud but AWS: add your cloud's login step");
        expect(r.stderr).toContain("warning: --ci: mara:kubeconfig names a file on this machine, which a runner does not have");
    });

    it("gives the runner the AWS profile the stack names, holding the OIDC credentials", async () => {
        const r = await run(["--stack", "dev", "--ci", "github", ...AWS, "--set", "aws:profile=ops"]);
        expect(r.code, r.stderr).toBe(0);
        const doc = parse(read("mara-dev-push.yml")) as { jobs: { up: { steps: { name?: string; with?: Record<string, unknown> }[] } } };
        expect(doc.jobs.up.steps.find((x) => x.name === "AWS credentials (OIDC)")!.with).toEqual({
            "role-to-assume": "${{ vars.AWS_ROLE_TO_ASSUME }}",
            "aws-region": "eu-west-1",
            "aws-profile": "ops",
            "output-env-credentials": true,
        });
    });

    it("writes review stack jobs with --review-stacks", async () => {
        const r = await run(["--stack", "dev", "--ci", "github", "--review-stacks", ...AWS]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain("and a review stack dev-pr-<number> per pull request, destroyed when it closes");
        const doc = parse(read("mara-dev-pull-request.yml")) as { on: { pull_request: { types: string[] } }; jobs: Record<string, unknown> };
        expect(Object.keys(doc.jobs)).toEqual(["validate", "preview", "review-stack", "review-stack-destroy"]);
        expect(doc.on.pull_request.types).toEqual(["opened", "synchronize", "reopened", "closed"]);
    });

    it("refuses review stacks an existing cluster or a long stack name cannot have, before the stack is created", async () => {
        const kubeconfig = fs.readFileSync(path.join(__dirname, "..", "fixtures", "kubeconfig.yaml"), "utf8");
        const r = await run(["--stack", "dev", "--ci", "github", "--review-stacks", "--provider", "kubeconfig", "--set", `mara:kubeconfig=${kubeconfig}`, "--set", "mara:fqdn=mara.example.com"]);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain("--review-stacks: a review stack of an existing cluster would install the platform a second time into the same cluster");
        expect(stackInits()).toEqual([]);
        expect(written()).toEqual([]);

        const long = "s".repeat(87);
        const named = await run(["--stack", long, "--ci", "github", "--review-stacks", ...AWS]);
        expect(named.code).toBe(2);
        expect(named.stderr).toContain(`--review-stacks: the stack's name "${long}" has 87 characters, and a review stack's name adds "-pr-<number>": Pulumi allows 100 characters, so use a stack name of at most 86`);
        expect(stackInits()).toEqual([]);
        const fits = await run(["--stack", "s".repeat(86), "--ci", "github", "--review-stacks", ...AWS]);
        expect(fits.code, fits.stderr).toBe(0);
    });
});

describe("secrets", () => {
    it("never puts a secret of the stack, the backend or the environment in a workflow file or the output", async () => {
        const marker = (n: number) => `ci-secret-marker-${n}-9d41`;
        s.setState((st) => (st.backend = `postgres://mara:${marker(1)}@db.example.com:5432/state`));
        const r = await run(
            [
                "--stack", "dev", "--ci", "github", "--review-stacks",
                "--provider", "linode", "--set", `linode:token=${marker(2)}`, "--set", "mara:fqdn=mara.example.com", "--set", "mara:lkeRegion=us-central", "--set", "mara:lkeK8sVersion=1.35",
                "--set", `mara:grafanaAdminPassword=${marker(3)}`, "--set", `mara:siriusDemoPassword=${marker(4)}`,
            ],
            { PULUMI_CONFIG_PASSPHRASE: marker(5), LINODE_TOKEN: marker(6), PULUMI_ACCESS_TOKEN: marker(7) },
        );
        expect(r.code, r.stderr).toBe(0);
        const files = written().map((f) => read(f));
        expect(files).toHaveLength(2);
        for (const text of [...files, r.stdout, r.stderr]) {
            for (let n = 1; n <= 7; n++) expect(text).not.toContain(marker(n));
        }
        // Nor the backend's address: the whole URL is the secret store's.
        for (const text of files) expect(text).not.toContain("db.example.com");
        // The token is stored in the stack (encrypted), so the workflow needs no LINODE_TOKEN secret.
        expect(files.join("\n")).not.toContain("LINODE_TOKEN");
        expect(files[1]).toContain("PULUMI_BACKEND_URL: ${{ secrets.PULUMI_BACKEND_URL }}");
    });
});
