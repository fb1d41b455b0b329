/**
 * The workflows `mara init --ci github` writes, as data: what reaches a GitHub expression, where secrets go, the
 * permissions and concurrency of each job, and stack names YAML readers could misread. The real tools (actionlint
 * with shellcheck, the Pulumi CLI running the review stacks' scripts) check the same variants in
 * test/engine/ciWorkflows.test.ts.
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { branchPattern, CONDITIONS, EXPRESSIONS, githubWorkflows } from "../../cli/ci/githubWorkflows";
import { ciBackend, ciSettings, parseCiSystem, secretsKind } from "../../cli/ci/settings";
import { ciVariants, factsOf } from "../support/ciVariants";

interface Step {
    name?: string;
    uses?: string;
    run?: string;
    with?: Record<string, unknown>;
    env?: Record<string, string>;
    if?: string;
}
interface Job {
    permissions: Record<string, string>;
    concurrency?: { group: string; "cancel-in-progress": boolean };
    env?: Record<string, string>;
    steps: Step[];
    if?: string;
}
interface Workflow {
    permissions: Record<string, string>;
    env: Record<string, string>;
    jobs: Record<string, Job>;
}

const variants = ciVariants();
const all = variants.flatMap((v) => {
    const w = githubWorkflows(v.settings);
    return [w.pullRequest, w.push].map((f) => ({ label: `${v.label} ${f.name}`, settings: v.settings, text: f.text, doc: parse(f.text) as Workflow }));
});
const PLACE = { workDir: "", branch: "main", pulumiVersion: "^3.150.0" };

describe("parseCiSystem", () => {
    it("takes github in any capitals and spacing, and refuses anything else with the systems there are", () => {
        expect(parseCiSystem("github")).toBe("github");
        expect(parseCiSystem(" GitHub ")).toBe("github");
        expect(() => parseCiSystem("gitlab")).toThrow('--ci "gitlab": not a CI system mara writes workflows for; use --ci github (GitLab CI is not written yet');
        expect(() => parseCiSystem("github-actions")).toThrow('--ci "github-actions": not a CI system mara writes workflows for; use --ci github');
    });
});

describe("ciBackend", () => {
    it("tells the Pulumi Cloud, a self-hosted one and self-managed backends apart, and refuses a local one", () => {
        expect(ciBackend("https://api.pulumi.com")).toEqual({ kind: "cloud", custom: false });
        expect(ciBackend("https://app.pulumi.com/")).toEqual({ kind: "cloud", custom: false });
        expect(ciBackend("https://pulumi.acme.example")).toEqual({ kind: "cloud", custom: true });
        expect(ciBackend("s3://bucket/prefix?region=eu-west-1")).toEqual({ kind: "self-managed", scheme: "s3" });
        expect(ciBackend("AZBLOB://container")).toEqual({ kind: "self-managed", scheme: "azblob" });
        expect(ciBackend("postgres://user:pw@db/state")).toEqual({ kind: "self-managed", scheme: "postgres" });
        expect(() => ciBackend("file://~/.pulumi-mara")).toThrow("the Pulumi backend is file://~/.pulumi-mara, a folder on this machine: a CI runner cannot read that state");
        expect(() => ciBackend("")).toThrow("pulumi whoami named no backend URL");
    });

    it("never quotes a self-managed backend's URL, which can hold a password", () => {
        expect(JSON.stringify(ciBackend("postgres://user:hunter2@db/state"))).not.toContain("hunter2");
    });
});

describe("secretsKind", () => {
    it("reads the stack file's provider, else the backend's default", () => {
        const cloud = { kind: "cloud", custom: false } as const;
        const s3 = { kind: "self-managed", scheme: "s3" } as const;
        expect(secretsKind(undefined, cloud)).toEqual({ kind: "service" });
        expect(secretsKind(undefined, s3)).toEqual({ kind: "passphrase" });
        expect(secretsKind({ encryptionsalt: "v1:abc" }, cloud)).toEqual({ kind: "passphrase" });
        expect(secretsKind({ secretsprovider: "passphrase" }, cloud)).toEqual({ kind: "passphrase" });
        expect(secretsKind({ secretsprovider: "awskms://alias/mara?region=eu-west-1", encryptedkey: "x" }, s3)).toEqual({ kind: "kms", scheme: "awskms" });
        expect(secretsKind({ secretsprovider: "default" }, s3)).toEqual({ kind: "service" });
        expect(secretsKind({ config: {} }, s3)).toEqual({ kind: "passphrase" });
    });
});

describe("branchPattern", () => {
    it("escapes what GitHub's branch filters read as pattern syntax", () => {
        expect(branchPattern("main")).toBe("main");
        expect(branchPattern("release+1")).toBe("release\\+1");
        expect(branchPattern("!main")).toBe("\\!main");
        expect(branchPattern("feature/a.b_c-d")).toBe("feature/a.b_c-d");
    });
});

describe("every variant", () => {
    it("holds only fixed GitHub expressions", () => {
        const allowed = new Set<string>(Object.values(EXPRESSIONS));
        for (const w of all) {
            for (const found of w.text.match(/\$\{\{[^}]*\}\}/g) ?? []) expect(allowed.has(found), `${w.label}: ${found}`).toBe(true);
            // And no `${{` that is not a whole expression.
            expect(w.text.split("${{").length - 1, w.label).toBe((w.text.match(/\$\{\{[^}]*\}\}/g) ?? []).length);
        }
        for (const w of all) for (const job of Object.values(w.doc.jobs)) if (job.if) expect(Object.values(CONDITIONS)).toContain(job.if);
    });

    it("gives no permission to the workflow, and each job only what it uses", () => {
        for (const w of all) {
            expect(w.doc.permissions, w.label).toEqual({});
            for (const [name, job] of Object.entries(w.doc.jobs)) {
                const expected: Record<string, string> = { contents: "read" };
                if (name === "preview" || name === "review-stack") expected["pull-requests"] = "write";
                if (w.settings.aws && name !== "validate") expected["id-token"] = "write";
                expect(job.permissions, `${w.label} ${name}`).toEqual(expected);
            }
        }
    });

    it("hands secrets only to the steps that run Pulumi, never to npm ci or mara validate, never through a job's environment", () => {
        for (const w of all) {
            for (const [name, job] of Object.entries(w.doc.jobs)) {
                expect(JSON.stringify(job.env ?? {}), `${w.label} ${name}`).not.toContain("secrets.");
                for (const step of job.steps) {
                    const text = JSON.stringify(step);
                    const runsPulumi = step.uses?.startsWith("pulumi/actions@") || step.run?.includes("pulumi ");
                    if (!runsPulumi) expect(text.replace("${{ secrets.GITHUB_TOKEN }}", ""), `${w.label} ${name} ${step.name ?? step.uses}`).not.toContain("secrets.");
                    // Scripts read no secret by name, print nothing with -x, echo no variable holding one.
                    if (step.run) {
                        expect(step.run).not.toMatch(/set -[a-z]*x|PULUMI_ACCESS_TOKEN|PASSPHRASE|BACKEND_URL|_TOKEN/);
                    }
                }
            }
        }
    });

    it("installs the locked dependencies on Node 24 before any cloud credential is in the job", () => {
        for (const w of all) {
            for (const [name, job] of Object.entries(w.doc.jobs)) {
                const names = job.steps.map((s) => s.name ?? s.uses!.split("@")[0]);
                expect(names.slice(0, 3), `${w.label} ${name}`).toEqual(["actions/checkout", "actions/setup-node", "Install the locked dependencies"]);
                expect(job.steps[1]!.with).toEqual({ "node-version": "24", "package-manager-cache": false });
                expect(job.steps[0]!.with!["persist-credentials"]).toBe(false);
                expect(job.steps[2]!.run).toBe("npm ci");
            }
        }
    });

    it("runs one update of a stack at a time and never cancels one; only previews are cancelled by a newer push", () => {
        for (const w of all) {
            const stack = w.settings.stack;
            const jobs = w.doc.jobs;
            if (jobs.up) expect(jobs.up.concurrency).toEqual({ group: `mara-${stack}`, "cancel-in-progress": false });
            if (jobs.preview) expect(jobs.preview.concurrency).toEqual({ group: `mara-${stack}-preview-${EXPRESSIONS.prNumber}`, "cancel-in-progress": true });
            if (jobs["review-stack"]) {
                expect(jobs["review-stack"].concurrency).toEqual({ group: `mara-${stack}-pr-${EXPRESSIONS.prNumber}`, "cancel-in-progress": false });
                expect(jobs["review-stack-destroy"]!.concurrency).toEqual(jobs["review-stack"].concurrency);
            }
        }
    });

    it("previews with the plan commented on the pull request, and updates on push, as pulumi/actions documents", () => {
        for (const w of all) {
            const jobs = w.doc.jobs;
            const last = (job: Job) => job.steps.at(-1)!;
            if (jobs.preview) expect(last(jobs.preview).with).toMatchObject({ command: "preview", "stack-name": w.settings.stack, "comment-on-pr": true, "github-token": EXPRESSIONS.githubToken });
            if (jobs.up) expect(last(jobs.up).with).toMatchObject({ command: "up", "stack-name": w.settings.stack });
            if (jobs["review-stack-destroy"]) expect(last(jobs["review-stack-destroy"]).with).toMatchObject({ command: "destroy", "stack-name": EXPRESSIONS.reviewStack, remove: true });
        }
    });
});

describe("stack names", () => {
    it("reach the file as the same strings for YAML 1.1 and 1.2 readers, whatever they look like", () => {
        for (const stack of ["no", "on", "yes", "true", "null", "1.0", "0755", "1e3", "acme/mara/off", "dev"]) {
            const { settings } = ciSettings(factsOf("aws", { kind: "cloud", custom: false }, undefined, stack), PLACE, true);
            const w = githubWorkflows(settings);
            for (const version of ["1.1", "1.2"] as const) {
                const pr = parse(w.pullRequest.text, { version }) as Workflow;
                const push = parse(w.push.text, { version }) as Workflow;
                expect(pr.env.MARA_STACK, `${stack} YAML ${version}`).toBe(stack);
                expect(push.jobs.up!.steps.at(-1)!.with!["stack-name"], `${stack} YAML ${version}`).toBe(stack);
                expect(pr.jobs["review-stack"]!.env!.REVIEW_STACK).toBe(`${stack}-pr-${EXPRESSIONS.prNumber}`);
            }
        }
    });

    it("that start with '-' are refused: the workflow's commands would take them for options", () => {
        for (const stack of ["-dev", "org/-dev", "org/proj/--x"]) {
            expect(() => ciSettings(factsOf("aws", { kind: "cloud", custom: false }, undefined, stack), PLACE, false)).toThrow(`--ci: the stack name "${stack}" starts a part with '-'`);
        }
    });

    it("name the workflow files after the stack's own name", () => {
        const { settings } = ciSettings(factsOf("aws", { kind: "cloud", custom: false }, undefined, "acme/mara/prod.eu-1"), PLACE, false);
        const w = githubWorkflows(settings);
        expect([w.pullRequest.name, w.push.name]).toEqual(["mara-prod.eu-1-pull-request.yml", "mara-prod.eu-1-push.yml"]);
    });
});

describe("review stacks", () => {
    it("are refused where they cannot work, with the reason", () => {
        const cloud = { kind: "cloud", custom: false } as const;
        expect(() => ciSettings(factsOf("kubeconfig-inline", cloud), PLACE, true)).toThrow("--review-stacks: a review stack of an existing cluster would install the platform a second time");
        expect(() => ciSettings(factsOf("aws", { kind: "self-managed", scheme: "s3" }, { kind: "kms", scheme: "awskms" }), PLACE, true)).toThrow(
            "--review-stacks: the stack's secrets are encrypted with a awskms key",
        );
        expect(() => ciSettings(factsOf("aws", cloud, undefined, `org/${"a".repeat(87)}`), PLACE, true)).toThrow('has 87 characters, and a review stack\'s name adds "-pr-<number>": Pulumi allows 100 characters');
        expect(ciSettings(factsOf("aws", cloud, undefined, `org/${"a".repeat(86)}`), PLACE, true).settings.reviewStacks).toBe(true);
    });
});
