/**
 * A URL's user information is a credential wherever the URL is set and wherever it is shown. A stack builds the
 * ingress controller from a git URL with a token in it and fetches a chart from a repository with a user and
 * password; every command that prints or writes (validate, plan as text, JSON and Mermaid, outdated as a table and
 * JSON, render's output and files, a problem's value and fix, the program's error) is searched for the token.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { stringify } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactUrlCredentials, Redactor } from "../../config";
import { pinsOf, stackPinSettings } from "../../cli/outdated/pins";
import { validateConfig } from "../../config";
import { stackFile } from "../support/config";
import { runProgram } from "../support/program";
import { runMara } from "./support/io";
import { unreachableOrigin } from "./support/sourcesServer";

const GIT_TOKEN = "ghp_Tok3nInTheGitUrl0123456789";
const REPO_PASSWORD = "chart-Repo-Passw0rd";
const BARE_TOKEN = "glpat-OnlyTheTokenAsUser42";
const SECRETS = [GIT_TOKEN, REPO_PASSWORD, BARE_TOKEN, encodeURIComponent(REPO_PASSWORD)];

const CONFIG = {
    "kubernetes:infra_type": "AWS",
    "aws:region": "us-east-1",
    "kic:image_origin": "source",
    "kic:src_url": `https://oauth2:${GIT_TOKEN}@github.com/nginx/kubernetes-ingress.git#v5.5.4`,
    "mara:prometheusHelmRepoUrl": `https://mirror-user:${REPO_PASSWORD}@charts.example.com/prometheus-community`,
    "mara:logagentHelmRepoUrl": `https://${BARE_TOKEN}@charts.example.com/fluent`,
};

let dir: string;
const files: Record<string, string> = {};
beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-url-credentials-"));
    files.valid = path.join(dir, "Pulumi.valid.yaml");
    fs.writeFileSync(files.valid, stringify({ config: CONFIG }));
    // The wrong release: a problem whose value and fix both quote the URL.
    files.invalid = path.join(dir, "Pulumi.invalid.yaml");
    fs.writeFileSync(files.invalid, stringify({ config: { ...CONFIG, "kic:src_url": CONFIG["kic:src_url"].replace("#v5.5.4", "#v5.4.1") } }));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function expectNoCredentials(what: string, text: string): void {
    for (const s of SECRETS) expect(text, `${what} shows a credential`).not.toContain(s);
    expect(text, `${what} prints a stack trace`).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

describe("the redaction rule", () => {
    it("replaces the user information of any URL, with or without a password", () => {
        expect(redactUrlCredentials("from https://u:p@h.example/x and git+ssh://tok@h.example/r.git")).toBe("from https://[secret]@h.example/x and git+ssh://[secret]@h.example/r.git");
        // Not a URL: git's scp form names a user, not a credential.
        expect(redactUrlCredentials("git@github.com:nginx/kubernetes-ingress.git")).toBe("git@github.com:nginx/kubernetes-ingress.git");
    });

    it("knows the stack's URL credentials in any other form, percent-encoded or decoded", () => {
        const redactor = Redactor.of({ values: { "mara:x": "https://u:p%40ss-w0rd-long@h.example" }, secretKeys: new Set() });
        expect(redactor.redact("password p@ss-w0rd-long and p%40ss-w0rd-long")).toBe("password [secret] and [secret]");
        // A short user name next to a password is not a secret, so the word stays readable.
        expect(redactor.redact("u")).toBe("u");
    });
});

describe("a URL with user information never reaches any output", () => {
    it("validate and the problem's value and fix", async () => {
        const valid = await runMara(["validate", "-c", files.valid!]);
        expect(valid.code, valid.stderr).toBe(0);
        expectNoCredentials("validate", valid.stdout + valid.stderr);
        const invalid = await runMara(["validate", "-c", files.invalid!]);
        expect(invalid.code).toBe(1);
        expect(invalid.stderr).toContain('kic:src_url = "https://[secret]@github.com/nginx/kubernetes-ingress.git#v5.4.1": builds a controller that does not run with the chart');
        expectNoCredentials("validate (invalid)", invalid.stdout + invalid.stderr);
    });

    it("the program's configuration error", async () => {
        const run = await runProgram(stackFile(fs.readFileSync(files.invalid!, "utf8")));
        expect(run.error).toBeDefined();
        expectNoCredentials("the program's error", (run.error as Error).message + run.warnings.join("\n"));
    });

    it("plan as text, JSON and Mermaid", async () => {
        for (const args of [[], ["--json"], ["--mermaid", "-"]]) {
            const plan = await runMara(["plan", "-c", files.valid!, ...args]);
            expect(plan.code, plan.stderr).toBe(0);
            expectNoCredentials(`plan ${args.join(" ")}`, plan.stdout + plan.stderr);
            if (args.length === 0) expect(plan.stdout).toContain("built from https://[secret]@github.com/nginx/kubernetes-ingress.git#v5.5.4");
        }
    }, 240_000);

    it("outdated as a table and as JSON, with every source unreachable", async () => {
        const result = validateConfig(stackFile(fs.readFileSync(files.valid!, "utf8")));
        const dead = await unreachableOrigin();
        const hosts = new Set<string>();
        for (const pin of pinsOf(stackPinSettings(result.config!))) {
            if (pin.source.type === "helm-index" || pin.source.type === "oci-chart") hosts.add(new URL(pin.source.repositoryUrl).host);
            if (pin.source.type === "registry") hosts.add(pin.source.registry);
        }
        const env = { HOME: os.tmpdir(), PATH: process.env.PATH, MARA_OUTDATED_ENDPOINTS: [...hosts].map((h) => `${h}=${dead}`).join(",") };
        for (const args of [[], ["--json"]]) {
            const run = await runMara(["outdated", "-c", files.valid!, "--timeout", "5", ...args], { env });
            expect(run.code, run.stderr).toBe(5);
            expectNoCredentials(`outdated ${args.join(" ")}`, run.stdout + run.stderr);
            expect(run.stdout).toContain("https://[secret]@");
        }
    }, 60_000);

    it("render's output and every file it writes", async () => {
        const out = path.join(dir, "manifests");
        const run = await runMara(["render", "-c", files.valid!, "--out", out, "--secrets=omit", "--allow-placeholders"]);
        expect(run.code, run.stderr).toBe(0);
        expectNoCredentials("render", run.stdout + run.stderr);
        const walk = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
        for (const f of walk(out)) expectNoCredentials(path.relative(out, f), fs.readFileSync(f, "utf8"));
    }, 300_000);
});
