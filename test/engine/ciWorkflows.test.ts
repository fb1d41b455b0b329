/**
 * The workflows `mara init --ci github` writes, checked by the real tools: actionlint (built from its Go module by
 * test/engine/build.sh), with shellcheck on every `run:` script, finds nothing in any variant; every input each step
 * passes is one its pinned action declares; and the review stacks' scripts, run by bash as GitHub's `shell: bash`
 * runs them, do what they say against the real Pulumi CLI (a local backend, the tier's stand-in language host).
 *
 * What only a run on GitHub shows is listed in docs/ci.md: that the actions behave as their documentation says,
 * the OIDC trust, the secrets, the comment on the pull request, and a real `pulumi up` from a runner.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS, usesOf } from "../../cli/ci/actions";
import { FIND_REVIEW_STACK_SCRIPT, githubWorkflows, REVIEW_STACK_SCRIPT } from "../../cli/ci/githubWorkflows";
import { ciVariants } from "../support/ciVariants";
import { ENGINE_BIN, requireBinaries, ROOT } from "./cluster";
import { pulumi, PulumiSandbox, pulumiSandbox, runCommand, tail } from "./pulumiEnv";

const ACTIONLINT = path.join(ENGINE_BIN, "actionlint");

/** shellcheck, which actionlint runs on each `run:` script: required, never silently left out. */
function shellcheckPath(): string {
    const found = spawnSync("sh", ["-c", "command -v shellcheck"], { encoding: "utf8" }).stdout.trim();
    if (!found) throw new Error("the workflow check needs shellcheck on PATH (Debian: apt-get install shellcheck; .ci/run installs it)");
    return found;
}

/** One finding as actionlint's JSON format prints it. */
interface Finding {
    readonly message: string;
    readonly filepath: string;
    readonly line: number;
    readonly kind: string;
}

/** Runs actionlint on the files, with shellcheck; its findings. */
function actionlint(files: readonly string[], cwd: string): Finding[] {
    const r = spawnSync(ACTIONLINT, ["-shellcheck", shellcheckPath(), "-format", "{{json .}}", ...files], { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: 10 * 60_000 });
    // Exit 0: nothing found; 1: findings; anything else is actionlint failing to run.
    if (r.status !== 0 && r.status !== 1) throw new Error(`actionlint failed (exit ${r.status}): ${r.stderr}`);
    return JSON.parse(r.stdout || "[]") as Finding[];
}

let dir: string;
beforeAll(() => {
    requireBinaries(["actionlint"]);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-ci-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("every workflow variant", () => {
    const variants = ciVariants();

    it("actionlint, with shellcheck on the scripts, finds nothing", () => {
        const workflows = path.join(dir, "clean", ".github", "workflows");
        fs.mkdirSync(workflows, { recursive: true });
        const files: string[] = [];
        for (const v of variants) {
            const w = githubWorkflows(v.settings);
            for (const f of [w.pullRequest, w.push]) {
                const file = path.join(workflows, `${v.label}-${f.name}`);
                fs.writeFileSync(file, f.text);
                files.push(file);
            }
        }
        expect(variants.length).toBeGreaterThan(40);
        const findings = actionlint(files, path.join(dir, "clean"));
        expect(findings.map((f) => `${path.basename(f.filepath)}:${f.line}: [${f.kind}] ${f.message}`)).toEqual([]);
    });

    it("passes each action only inputs its pinned commit's action.yml declares, and every required one", () => {
        const fixture = JSON.parse(fs.readFileSync(path.join(ROOT, "test", "fixtures", "github-actions", "inputs.json"), "utf8")) as {
            actions: Record<string, { release: string; runs: string; inputs: Record<string, { required: boolean; default: boolean }> }>;
        };
        // The pins are the commits the fixture was read from, each a Node 24 action.
        expect(Object.keys(fixture.actions).sort()).toEqual(Object.values(ACTIONS).map(usesOf).sort());
        for (const a of Object.values(ACTIONS)) {
            expect(fixture.actions[usesOf(a)]!.release).toBe(a.release);
            expect(fixture.actions[usesOf(a)]!.runs).toBe("node24");
        }
        const used = new Set<string>();
        for (const v of variants) {
            const w = githubWorkflows(v.settings);
            for (const f of [w.pullRequest, w.push]) {
                const doc = parse(f.text) as { jobs: Record<string, { steps: { uses?: string; with?: Record<string, unknown> }[] }> };
                for (const [job, { steps }] of Object.entries(doc.jobs)) {
                    for (const step of steps.filter((s) => s.uses)) {
                        const action = fixture.actions[step.uses!];
                        expect(action, `${v.label} ${f.name} ${job}: ${step.uses} is not a pinned action`).toBeDefined();
                        used.add(step.uses!);
                        const given = Object.keys(step.with ?? {});
                        expect(given.filter((k) => !(k in action!.inputs)), `${v.label} ${f.name} ${job} ${step.uses}`).toEqual([]);
                        const required = Object.entries(action!.inputs).filter(([, i]) => i.required && !i.default).map(([k]) => k);
                        expect(required.filter((k) => !given.includes(k)), `${v.label} ${f.name} ${job} ${step.uses}`).toEqual([]);
                    }
                }
            }
        }
        expect([...used].sort()).toEqual(Object.keys(fixture.actions).sort());
    });
});

describe("the check itself", () => {
    it("reports what actionlint and shellcheck each find in a broken workflow, so an empty result means the files were checked", () => {
        const workflows = path.join(dir, "broken", ".github", "workflows");
        fs.mkdirSync(workflows, { recursive: true });
        const file = path.join(workflows, "broken.yml");
        fs.writeFileSync(
            file,
            [
                "on: pull_request",
                "permissions:",
                "  pull-request: write",
                "jobs:",
                "  x:",
                "    runs-on: ubuntu-latest",
                "    steps:",
                "      - run: echo ${{ github.event.pull_request.title }} && rm -rf $DIR",
                "",
            ].join("\n"),
        );
        const kinds = new Set(actionlint([file], path.join(dir, "broken")).map((f) => f.kind));
        // An unknown permission scope, an untrusted value in a script, and shellcheck's unquoted variable (SC2086).
        expect([...kinds].sort()).toEqual(expect.arrayContaining(["expression", "permissions", "shellcheck"]));
    });
});

describe("the review stack's scripts, against the real Pulumi CLI", () => {
    let sandbox: PulumiSandbox;
    let project: string;
    const MARKER = "review-secret-marker-7f3a";

    beforeAll(async () => {
        sandbox = pulumiSandbox({}, ["pulumi"]);
        // A project with an empty program: what the scripts do is configuration, and an update of it records the
        // configuration `pulumi config refresh` restores. Its @pulumi/pulumi is the repository's.
        project = path.join(sandbox.dir, "project");
        fs.mkdirSync(project);
        fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: mara-platform\nruntime: nodejs\n");
        fs.writeFileSync(path.join(project, "package.json"), '{ "name": "ci-review", "main": "index.js" }\n');
        fs.writeFileSync(path.join(project, "index.js"), "module.exports = {};\n");
        fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(project, "node_modules"));
        await must(["stack", "init", "dev"]);
        for (const [key, value] of [
            ["mara:infraType", "digitalocean"],
            ["mara:fqdn", "mara.example.com"],
            ["mara:clusterName", "mara-production"],
            ["sirius:hostname", "bank.example.com"],
        ]) {
            await must(["config", "set", "--stack", "dev", key!, value!]);
        }
        await must(["config", "set", "--stack", "dev", "--secret", "mara:grafanaAdminPassword", MARKER]);
    });
    afterAll(() => sandbox?.dispose());

    async function must(args: string[]) {
        const r = await pulumi(args, sandbox.env, { cwd: project, timeoutMs: 5 * 60_000 });
        expect(r.code, `pulumi ${args.join(" ")}\n${tail(r)}`).toBe(0);
        return r;
    }
    /** Runs a step's script as GitHub's `shell: bash` does (bash --noprofile --norc -eo pipefail {0}). */
    async function step(script: string, review: string, pr: string) {
        const file = path.join(sandbox.dir, "step.sh");
        const output = path.join(sandbox.dir, `github-output-${review}`);
        fs.writeFileSync(file, script);
        fs.writeFileSync(output, "");
        const env = { ...sandbox.env, MARA_STACK: "dev", REVIEW_STACK: review, PR_NUMBER: pr, GITHUB_OUTPUT: output };
        const r = await runCommand("bash", ["--noprofile", "--norc", "-eo", "pipefail", file], env, { cwd: project, timeoutMs: 5 * 60_000 });
        expect(`${r.stdout}${r.stderr}`).not.toContain(MARKER);
        return { ...r, output: fs.readFileSync(output, "utf8") };
    }
    async function config(stack: string): Promise<Record<string, { value?: string; secret: boolean }>> {
        const r = await must(["config", "--stack", stack, "--json", "--show-secrets"]);
        return JSON.parse(r.stdout) as Record<string, { value?: string; secret: boolean }>;
    }
    const stackFile = (stack: string) => path.join(project, `Pulumi.${stack}.yaml`);
    const salt = (stack: string) => /^encryptionsalt: (.+)$/m.exec(fs.readFileSync(stackFile(stack), "utf8"))?.[1];
    const stacks = async () => (JSON.parse((await must(["stack", "ls", "--json"])).stdout) as { name: string }[]).map((s) => s.name).sort();

    it("the workflow's steps are these scripts", () => {
        const w = githubWorkflows(ciVariants().find((v) => v.settings.reviewStacks)!.settings);
        const jobs = (parse(w.pullRequest.text) as { jobs: Record<string, { steps: { run?: string }[] }> }).jobs;
        expect(jobs["review-stack"]!.steps.map((s) => s.run)).toContain(REVIEW_STACK_SCRIPT);
        expect(jobs["review-stack-destroy"]!.steps.map((s) => s.run)).toContain(FIND_REVIEW_STACK_SCRIPT);
    });

    it("makes the review stack from the base stack's configuration, with names of its own", async () => {
        const r = await step(REVIEW_STACK_SCRIPT, "dev-pr-7", "7");
        expect(r.code, tail(r)).toBe(0);
        const c = await config("dev-pr-7");
        expect(c["mara:fqdn"]).toEqual({ value: "pr-7-mara.example.com", secret: false });
        expect(c["sirius:hostname"]).toEqual({ value: "pr-7-bank.example.com", secret: false });
        expect(c["mara:clusterName"]).toBeUndefined();
        expect(c["mara:infraType"]?.value).toBe("digitalocean");
        // The secret is copied, and stays a secret (re-encrypted for the review stack).
        expect(c["mara:grafanaAdminPassword"]).toEqual({ value: MARKER, secret: true });
        expect(fs.readFileSync(stackFile("dev-pr-7"), "utf8")).not.toContain(MARKER);
    });

    it("on a later push, on another runner, copies the base stack's configuration as it is then, keeping the review stack's encryption", async () => {
        await must(["up", "--yes", "--stack", "dev-pr-7"]);
        const before = salt("dev-pr-7");
        expect(before).toBeDefined();
        // The pull request changes the base stack: a host name changes, a key goes.
        await must(["config", "set", "--stack", "dev", "mara:fqdn", "platform.example.com"]);
        await must(["config", "rm", "--stack", "dev", "sirius:hostname"]);
        fs.rmSync(stackFile("dev-pr-7"));

        const r = await step(REVIEW_STACK_SCRIPT, "dev-pr-7", "7");
        expect(r.code, tail(r)).toBe(0);
        expect(salt("dev-pr-7")).toBe(before);
        const c = await config("dev-pr-7");
        expect(c["mara:fqdn"]?.value).toBe("pr-7-platform.example.com");
        expect(c["sirius:hostname"]).toBeUndefined();
        expect(c["mara:clusterName"]).toBeUndefined();
        expect(c["mara:grafanaAdminPassword"]).toEqual({ value: MARKER, secret: true });
        // The state's secrets still decrypt: another update succeeds.
        await must(["up", "--yes", "--stack", "dev-pr-7"]);
    });

    it("at close, finds the review stack and restores its configuration for the destroy; then nothing is left to find", async () => {
        fs.rmSync(stackFile("dev-pr-7"));
        const found = await step(FIND_REVIEW_STACK_SCRIPT, "dev-pr-7", "7");
        expect(found.code, tail(found)).toBe(0);
        expect(found.output).toBe("exists=true\n");
        expect(fs.existsSync(stackFile("dev-pr-7"))).toBe(true);
        // What pulumi/actions does with command: destroy and remove: true.
        await must(["destroy", "--yes", "--stack", "dev-pr-7"]);
        await must(["stack", "rm", "--yes", "dev-pr-7"]);
        expect(await stacks()).toEqual(["dev"]);

        const again = await step(FIND_REVIEW_STACK_SCRIPT, "dev-pr-7", "7");
        expect(again.code, tail(again)).toBe(0);
        expect(again.output).toBe("");
        expect(again.stdout).toContain("There is no review stack dev-pr-7: nothing to destroy.");
    });

    it("a review stack that was never updated is made again on the next push, and removed at close", async () => {
        await must(["stack", "init", "dev-pr-8"]);
        fs.rmSync(stackFile("dev-pr-8"));
        const made = await step(REVIEW_STACK_SCRIPT, "dev-pr-8", "8");
        expect(made.code, tail(made)).toBe(0);
        expect(made.stdout).toContain("Review stack dev-pr-8 was never updated: making it again.");
        expect((await config("dev-pr-8"))["mara:fqdn"]?.value).toBe("pr-8-platform.example.com");

        fs.rmSync(stackFile("dev-pr-8"));
        const closed = await step(FIND_REVIEW_STACK_SCRIPT, "dev-pr-8", "8");
        expect(closed.code, tail(closed)).toBe(0);
        expect(closed.output).toBe("");
        expect(closed.stdout).toContain("Review stack dev-pr-8 was never updated: removing it.");
        expect(await stacks()).toEqual(["dev"]);
    });
});
