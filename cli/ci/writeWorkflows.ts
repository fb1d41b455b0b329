/**
 * Writes a stack's workflows and says what the repository must hold for them to run: the names of the secrets and
 * variables to add, never a value.
 */
import * as path from "path";
import { writeFileAtomic } from "../kernel/atomicWrite";
import { CliError, CliIo, line } from "../kernel/io";
import { makeDirs, reasonOf } from "../../host/outputPath";
import { githubWorkflows } from "./githubWorkflows";
import type { WorkflowTarget } from "./repository";
import { CiSettings, requiredSettings } from "./settings";

/** What each secret or variable a workflow reads is, for the list printed after writing. */
const WHAT: Readonly<Record<string, string>> = {
    PULUMI_ACCESS_TOKEN: "a Pulumi access token (an organization or team token for a shared stack)",
    PULUMI_BACKEND_URL: "the URL of the state backend, as given to pulumi login",
    PULUMI_CONFIG_PASSPHRASE: "the passphrase that encrypts the stack's secrets",
    DIGITALOCEAN_TOKEN: "a DigitalOcean API token",
    LINODE_TOKEN: "a Linode API token",
    AWS_ROLE_TO_ASSUME: "the ARN of an IAM role that trusts GitHub's OIDC provider for this repository (docs/ci.md)",
    AWS_REGION: "the AWS region of the state bucket or the key",
};

/** Writes both workflows (each replaced whole, never half-written) and prints what they need. */
export function writeWorkflows(io: CliIo, target: WorkflowTarget, s: CiSettings): void {
    const files = githubWorkflows(s);
    const shown = (f: string) => path.relative(io.projectDir, f) || f;
    for (const [file, text] of [[target.files.pullRequest, files.pullRequest.text], [target.files.push, files.push.text]] as const) {
        try {
            makeDirs(path.dirname(file));
            writeFileAtomic(file, text, 0o644);
        } catch (e) {
            // Checked before anything was done, so only a change since (a full disk, a permission) gets here.
            throw new CliError(`cannot write ${shown(file)}: ${reasonOf(e)}; the stack's settings are written, so run the same mara init --ci command again once it can be`);
        }
    }

    line(io.stdout, `Wrote the GitHub Actions workflows of stack "${s.stack}":`);
    const review = s.reviewStacks ? `, and a review stack ${s.stack}-pr-<number> per pull request, destroyed when it closes` : "";
    line(io.stdout, `  ${shown(target.files.pullRequest)}: pull requests run mara validate and pulumi preview (the plan as a comment)${review}`);
    line(io.stdout, `  ${shown(target.files.push)}: pushes to ${s.branch} run pulumi up (${target.branchSource})`);
    if (!target.inGit) line(io.stdout, "  (no git repository here yet: the workflows work once this folder is the root of a GitHub repository)");
    const { secrets, variables } = requiredSettings(s);
    line(io.stdout, "Add to the repository (Settings, Secrets and variables, Actions):");
    for (const name of secrets) line(io.stdout, `  secret ${name}: ${WHAT[name]}`);
    for (const name of variables) line(io.stdout, `  variable ${name}: ${WHAT[name]}`);
}
