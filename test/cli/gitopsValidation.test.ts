/**
 * The GitOps keys get one verdict from `mara validate`, `mara plan`, `mara render` and the program under mocks (as
 * `pulumi up` runs it), each with the rule of the consumer that would refuse the value (contracts/gitSource.ts cites
 * git's refs.c and connect.c and Argo CD's sources): a credential in the repository URL (refused whatever the delivery,
 * and never shown), a URL Argo CD cannot clone, a revision git cannot fetch or would take for an option, a folder
 * outside the repository, a repository credential that does not fit the URL; and a warning for GitOps keys that do
 * nothing. Every output is searched for the credentials the stacks hold.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { stringify } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../config";
import { PULUMI_YAML, stackFile, TEST_DAY } from "../support/config";
import { runProgram } from "../support/program";
import { runMara } from "./support/io";

/** Credentials the stacks hold; none may appear in any output. */
const TOKEN = "ghp_GitopsUrlTokenMarker0123456789";
const QUERY_TOKEN = "glpat-QueryTokenMarker98765";
const PASSWORD = "repo-Passw0rd-Marker-4567";
const CREDENTIALS = [TOKEN, QUERY_TOKEN, PASSWORD];

const AWS = { "kubernetes:infra_type": "AWS", "aws:region": "us-east-1" };
const REPO = "https://git.example.com/org/platform-config.git";
const GITOPS = { ...AWS, "mara:delivery": "gitops", "mara:gitopsRepoUrl": REPO, "mara:gitopsPath": "deploy/prod", "mara:fqdn": "mara.example.com" };
const KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ==\n-----END OPENSSH PRIVATE KEY-----\n";

interface Case {
    readonly name: string;
    readonly config: Record<string, string>;
    readonly expect: { readonly problem: string } | { readonly valid: true; readonly warning?: string };
    /** Run `mara render` on this valid stack too (a whole render each); problem cases always run it. */
    readonly render?: boolean;
}

const CLASSES: Record<string, Case[]> = {
    "a credential in the repository URL": [
        {
            name: "a token as the password",
            config: { ...GITOPS, "mara:gitopsRepoUrl": `https://oauth2:${TOKEN}@git.example.com/org/platform-config.git` },
            expect: { problem: `mara:gitopsRepoUrl = "https://[secret]@git.example.com/org/platform-config.git": holds a credential, a password in its user information (user:…@host): the URL is written into every Argo CD Application mara render writes for Git` },
        },
        {
            name: "a token as the user",
            config: { ...GITOPS, "mara:gitopsRepoUrl": `https://${TOKEN}@git.example.com/org/platform-config.git` },
            expect: { problem: "holds a credential, user information (…@host): a token or a user name, which git sends as a credential" },
        },
        {
            name: "a token in the query",
            config: { ...GITOPS, "mara:gitopsRepoUrl": `https://git.example.com/org/platform-config.git?private_token=${QUERY_TOKEN}` },
            expect: { problem: `mara:gitopsRepoUrl = "https://git.example.com/org/platform-config.git?private_token=[secret]": holds a credential, a credential in its query (private_token=…)` },
        },
        {
            name: "a token while Pulumi still delivers the platform",
            config: { ...AWS, "mara:gitopsRepoUrl": `https://oauth2:${TOKEN}@git.example.com/org/platform-config.git` },
            expect: { problem: "Fix: pulumi config set mara:gitopsRepoUrl https://git.example.com/org/platform-config.git; then give Argo CD the credential: pulumi config set --secret mara:gitopsRepoPassword <token>" },
        },
        {
            name: "a password in an SSH URL",
            config: { ...GITOPS, "mara:gitopsRepoUrl": `ssh://git:${PASSWORD}@git.example.com/org/platform-config.git` },
            expect: { problem: "holds a credential, a password in its user information" },
        },
        { name: "an SSH URL with its account, and scp's form", config: { ...GITOPS, "mara:gitopsRepoUrl": "git@git.example.com:org/platform-config.git" }, expect: { valid: true } },
    ],
    "repository URLs Argo CD cannot clone": [
        { name: "git://", config: { ...GITOPS, "mara:gitopsRepoUrl": "git://git.example.com/org/r.git" }, expect: { problem: 'mara:gitopsRepoUrl = "git://git.example.com/org/r.git": uses the scheme "git://": Argo CD clones a repository over HTTPS (https://host/org/repo.git) or SSH' } },
        { name: "an option", config: { ...GITOPS, "mara:gitopsRepoUrl": "-uhttps://git.example.com/org/r.git" }, expect: { problem: "starts with '-', which git would take for an option" } },
        { name: "an SSH host that is an option", config: { ...GITOPS, "mara:gitopsRepoUrl": "ssh://git@-oProxyCommand=x/org/r.git" }, expect: { problem: "which git blocks because it looks like an option" } },
        { name: "ssh:// without a user", config: { ...GITOPS, "mara:gitopsRepoUrl": "ssh://git.example.com/org/r.git" }, expect: { problem: `mara:gitopsRepoUrl = "ssh://git.example.com/org/r.git": has no user before the host: Argo CD reads an SSH URL only with a user` } },
        { name: "a space", config: { ...GITOPS, "mara:gitopsRepoUrl": "https://git.example.com/org/my repo.git" }, expect: { problem: "contains white space or control characters" } },
        { name: "a revision after '#'", config: { ...GITOPS, "mara:gitopsRepoUrl": `${REPO}#main` }, expect: { problem: "has a fragment (#…), which git does not send; give the branch, tag or commit in mara:gitopsRevision" } },
        {
            name: "plain http, with a warning",
            config: { ...GITOPS, "mara:gitopsRepoUrl": "http://gitea.gitea.svc:3000/org/platform-config.git" },
            expect: { valid: true, warning: "mara:gitopsRepoUrl = http://gitea.gitea.svc:3000/org/platform-config.git: Git over plain http:// is neither encrypted nor authenticated" },
        },
    ],
    "revisions git cannot fetch": [
        { name: "an option", config: { ...GITOPS, "mara:gitopsRevision": "--orphan" }, expect: { problem: `mara:gitopsRevision = "--orphan": starts with '-', which git would take for an option` } },
        { name: "a range", config: { ...GITOPS, "mara:gitopsRevision": "main..dev" }, expect: { problem: "contains '..', which git reads as a range of commits" } },
        { name: "a reflog entry", config: { ...GITOPS, "mara:gitopsRevision": "main@{1}" }, expect: { problem: "contains '@{'" } },
        { name: "a .lock component", config: { ...GITOPS, "mara:gitopsRevision": "release/v1.lock" }, expect: { problem: `has the component "v1.lock", which ends with '.lock'` } },
        { name: "a caret", config: { ...GITOPS, "mara:gitopsRevision": "v1.0^" }, expect: { problem: 'contains "^", which git refuses in a branch or tag name' } },
        { name: "a commit and a tag path", config: { ...GITOPS, "mara:gitopsRevision": "0123456789abcdef0123456789abcdef01234567" }, expect: { valid: true } },
        { name: "a full tag name", config: { ...GITOPS, "mara:gitopsRevision": "refs/tags/v1.2.3" }, expect: { valid: true } },
    ],
    "folders outside the repository": [
        { name: "an absolute folder", config: { ...GITOPS, "mara:gitopsPath": "/deploy/prod" }, expect: { problem: `mara:gitopsPath = "/deploy/prod": starts with '/': Argo CD refuses an absolute application path` } },
        { name: "'..'", config: { ...GITOPS, "mara:gitopsPath": "deploy/../../etc" }, expect: { problem: "has a '..' segment: Argo CD refuses an application path outside the repository's root" } },
        { name: "an empty segment", config: { ...GITOPS, "mara:gitopsPath": "deploy//prod" }, expect: { problem: "has an empty segment ('//')" } },
        { name: "a trailing slash", config: { ...GITOPS, "mara:gitopsPath": "deploy/prod/" }, expect: { valid: true } },
    ],
    "the repository's credential": [
        {
            name: "a password for an SSH URL",
            config: { ...GITOPS, "mara:gitopsRepoUrl": "git@git.example.com:org/r.git", "mara:gitopsRepoPassword": PASSWORD },
            expect: { problem: "mara:gitopsRepoPassword: is a password for HTTPS, and mara:gitopsRepoUrl = git@git.example.com:org/r.git is an SSH URL" },
        },
        { name: "an SSH key for an https URL", config: { ...GITOPS, "mara:gitopsRepoSshPrivateKey": KEY }, expect: { problem: `mara:gitopsRepoSshPrivateKey: is an SSH key, and mara:gitopsRepoUrl = ${REPO} is an https:// URL` } },
        {
            name: "a password over plain http",
            config: { ...GITOPS, "mara:gitopsRepoUrl": "http://git.example.com/org/r.git", "mara:gitopsRepoPassword": PASSWORD },
            expect: { problem: "mara:gitopsRepoPassword: would be sent in clear text: mara:gitopsRepoUrl = http://git.example.com/org/r.git is a plain http:// URL" },
        },
        { name: "a user name without a password", config: { ...GITOPS, "mara:gitopsRepoUsername": "robot" }, expect: { problem: `mara:gitopsRepoUsername = "robot": is set without mara:gitopsRepoPassword` } },
        { name: "a key and a password", config: { ...GITOPS, "mara:gitopsRepoUrl": "git@git.example.com:org/r.git", "mara:gitopsRepoPassword": PASSWORD, "mara:gitopsRepoSshPrivateKey": KEY }, expect: { problem: "mara:gitopsRepoSshPrivateKey: is set together with mara:gitopsRepoPassword" } },
        { name: "an encrypted key", config: { ...GITOPS, "mara:gitopsRepoUrl": "git@git.example.com:org/r.git", "mara:gitopsRepoSshPrivateKey": "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\nMIIB\n-----END RSA PRIVATE KEY-----" }, expect: { problem: "mara:gitopsRepoSshPrivateKey: is encrypted (Proc-Type: 4,ENCRYPTED), and Argo CD reads only unencrypted keys" } },
        { name: "a user and a token over https", config: { ...GITOPS, "mara:gitopsRepoUsername": "robot", "mara:gitopsRepoPassword": PASSWORD }, expect: { valid: true, warning: "mara:gitopsRepoPassword is stored in plain text in the stack file" } },
        {
            name: "a credential for an Argo CD on a hub",
            config: { ...GITOPS, "mara:gitopsArgoCd": "external", "mara:gitopsRepoPassword": PASSWORD },
            expect: { valid: true, warning: "mara:gitopsRepoPassword does nothing with mara:gitopsArgoCd external: Pulumi installs no Argo CD" },
        },
    ],
    "the hub's fleet": [
        { name: "capitals", config: { ...GITOPS, "mara:gitopsArgoCd": "external", "mara:gitopsFleet": "Prod" }, expect: { problem: `mara:gitopsFleet = "Prod": has characters or a form Kubernetes refuses in a name` } },
        { name: "an underscore (a label value, but no name)", config: { ...GITOPS, "mara:gitopsArgoCd": "external", "mara:gitopsFleet": "prod_eu" }, expect: { problem: "Allowed: a fleet name: lower-case letters, digits and '-', starting and ending with a letter or digit, at most 63 characters, such as prod" } },
        { name: "64 characters", config: { ...GITOPS, "mara:gitopsArgoCd": "external", "mara:gitopsFleet": "f".repeat(64) }, expect: { problem: "is 64 characters long (at most 63)" } },
        { name: "a template", config: { ...GITOPS, "mara:gitopsArgoCd": "external", "mara:gitopsFleet": "{{.name}}" }, expect: { problem: `mara:gitopsFleet = "{{.name}}": has characters or a form Kubernetes refuses in a name` } },
        { name: "63 characters, on a hub: the ApplicationSet in argocd/fleet/", config: { ...GITOPS, "mara:gitopsArgoCd": "external", "mara:gitopsFleet": `p${"0".repeat(62)}` }, expect: { valid: true }, render: true },
        {
            name: "with Argo CD in the cluster, named as doing nothing",
            config: { ...GITOPS, "mara:gitopsFleet": "Not-Checked" },
            expect: { valid: true, warning: "mara:gitopsFleet does nothing with mara:gitopsArgoCd install: a fleet is the clusters a hub's Argo CD delivers to" },
        },
    ],
    "GitOps keys while Pulumi delivers the platform": [
        {
            name: "the repository, revision, folder and Argo CD's chart",
            config: { ...AWS, "mara:gitopsRepoUrl": REPO, "mara:gitopsRevision": "release", "mara:gitopsPath": "deploy/prod", "mara:gitopsArgoCd": "external", "mara:gitopsFleet": "prod", "mara:argoCdChartVersion": "10.9.0" },
            expect: {
                valid: true,
                warning:
                    "mara:gitopsRepoUrl, mara:gitopsRevision, mara:gitopsPath, mara:gitopsArgoCd, mara:gitopsFleet, mara:argoCdChartVersion do nothing while mara:delivery is pulumi (Pulumi delivers the platform itself), so their values are not checked: they are read once mara:delivery is handover or gitops",
            },
            render: true,
        },
        { name: "a revision that would be refused, not checked", config: { ...AWS, "mara:gitopsRevision": "--orphan" }, expect: { valid: true, warning: "mara:gitopsRevision does nothing while mara:delivery is pulumi" } },
    ],
};

let project: string;
let shell: string;
let stacks: string;
let home: string;
const made: string[] = [];
const tmp = (prefix: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    made.push(dir);
    return dir;
};
beforeAll(() => {
    project = tmp("mara-project-");
    shell = tmp("mara-shell-");
    stacks = tmp("mara-stacks-");
    home = tmp("mara-home-");
    fs.copyFileSync(PULUMI_YAML, path.join(project, "Pulumi.yaml"));
});
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** Every output of every run, searched for the credentials at the end. */
const outputs: { what: string; text: string }[] = [];

async function cli(args: string[], what: string) {
    const r = await runMara(args, { cwd: shell, projectDir: project, env: { HOME: home, PATH: process.env.PATH, MARA_TODAY: TEST_DAY } });
    outputs.push({ what, text: r.stdout + r.stderr });
    return { ...r, stderr: r.stderr.replace(/(pulumi config (?:set|rm)) --stack \S+ --config-file \S+/g, "$1") };
}

/** The program as `pulumi up` runs it, in the project directory. */
async function program(c: Case) {
    const before = process.cwd();
    process.chdir(project);
    try {
        return await runProgram(stackFile(stringify({ config: c.config }), { env: { HOME: home }, baseDir: project }));
    } finally {
        process.chdir(before);
    }
}

for (const [klass, cases] of Object.entries(CLASSES)) {
    describe(klass, () => {
        for (const c of cases) {
            it(`${"problem" in c.expect ? "fails" : "passes"}: ${c.name}`, async () => {
                const file = path.join(stacks, `Pulumi.${klass.replace(/\W+/g, "-")}-${cases.indexOf(c)}.yaml`);
                fs.writeFileSync(file, stringify({ config: c.config }));
                const out = path.join(shell, `out-${klass.replace(/\W+/g, "-")}-${cases.indexOf(c)}`);
                const validate = await cli(["validate", "-c", file], `validate ${c.name}`);
                if ("problem" in c.expect) {
                    expect(validate.code, validate.stdout).toBe(1);
                    expect(validate.stderr).toContain(c.expect.problem);
                    // A value that is set but refused is not also "not set".
                    expect(validate.stderr).not.toMatch(/mara:gitops(RepoUrl|Path): is not set/);
                    const plan = await cli(["plan", "-c", file], `plan ${c.name}`);
                    expect(plan.code).toBe(1);
                    expect(plan.stderr).toContain(c.expect.problem);
                    const render = await cli(["render", "-c", file, "--out", out, "--secrets=omit", "--allow-placeholders"], `render ${c.name}`);
                    expect(render.code).toBe(1);
                    expect(render.stderr).toContain(c.expect.problem);
                    expect(fs.existsSync(out)).toBe(false);
                    const run = await program(c);
                    expect(run.error).toBeInstanceOf(ConfigError);
                    expect((run.error as Error).message).toContain(c.expect.problem);
                    expect(run.registrations).toEqual([]);
                    outputs.push({ what: `program ${c.name}`, text: `${(run.error as Error).message}\n${run.warnings.join("\n")}` });
                } else {
                    expect(validate.code, validate.stderr).toBe(0);
                    if (c.expect.warning) expect(validate.stderr).toContain(c.expect.warning);
                    if (c.render) {
                        const render = await cli(["render", "-c", file, "--out", out, "--secret-store", "mara", "--secret-store-provider", "vault", "--allow-placeholders"], `render ${c.name}`);
                        expect(render.code, render.stderr).toBe(0);
                        if (c.expect.warning) expect(render.stderr).toContain(c.expect.warning);
                        // Pulumi delivers: no Applications and no repository Secret, whatever the GitOps keys say.
                        expect(fs.existsSync(path.join(out, "argocd"))).toBe(c.config["mara:delivery"] !== undefined && c.config["mara:delivery"] !== "pulumi");
                        // A fleet's ApplicationSet only for a stack a hub delivers, in a fleet.
                        expect(fs.existsSync(path.join(out, "argocd", "fleet", `applicationset-mara-${c.config["mara:gitopsFleet"]}.yaml`))).toBe(c.config["mara:gitopsArgoCd"] === "external" && c.config["mara:delivery"] === "gitops");
                    }
                    const run = await program(c);
                    expect(run.error).toBeUndefined();
                    expect(run.registrations.length).toBeGreaterThan(20);
                    if (c.expect.warning) expect(run.warnings.join("\n")).toContain(c.expect.warning);
                    outputs.push({ what: `program ${c.name}`, text: run.warnings.join("\n") });
                }
            }, 240_000);
        }
    });
}

describe("the credentials", () => {
    it("appear in no output of any run, and no output holds a stack trace", () => {
        expect(outputs.length).toBeGreaterThan(50);
        const leaks = outputs.flatMap(({ what, text }) => CREDENTIALS.filter((s) => text.includes(s)).map((s) => `${what}: ${s}`));
        expect(leaks).toEqual([]);
        expect(outputs.filter(({ what, text }) => !what.startsWith("program") && /\n\s+at .+:\d+:\d+/.test(text)).map((o) => o.what)).toEqual([]);
    });
});
