/**
 * The GitHub Actions workflows of a stack, in the shape Pulumi's guide for GitHub Actions recommends (pulumi/docs,
 * content/docs/iac/guides/continuous-delivery/github-actions.md, "Creating a Workflow"): one workflow for pull
 * requests, which previews the change and comments the plan on the pull request through pulumi/actions'
 * `comment-on-pr`, and one for pushes to the default branch, which runs `pulumi up`. The pull request workflow runs
 * `mara validate` first, and with review stacks creates a stack per pull request from the base stack's configuration,
 * updates it on every push and destroys and removes it when the pull request closes.
 *
 * Each workflow is built as an object and written by the YAML library: no value is pasted into YAML text, and none
 * into a GitHub expression. The stack's name and the project folder reach the file as YAML strings; every `${{ }}`
 * is one of {@link EXPRESSIONS}, fixed text; shell scripts read what they need from environment variables. Nothing
 * secret is in a workflow: credentials are read from the repository's secret store at run time (GitHub masks them in
 * the log), and the cloud's credentials come through OIDC where the cloud offers it (AWS).
 */
import { Document, Scalar, visit } from "yaml";
import { KEYS } from "../../config/keys";
import { readsAsOtherType } from "../../render/safeYaml";
import { ACTIONS, PinnedAction, usesOf } from "./actions";
import { CiSettings, requiredSettings } from "./settings";

/** Every GitHub expression a workflow may contain: fixed text only. */
export const EXPRESSIONS = {
    accessToken: "${{ secrets.PULUMI_ACCESS_TOKEN }}",
    passphrase: "${{ secrets.PULUMI_CONFIG_PASSPHRASE }}",
    backendUrl: "${{ secrets.PULUMI_BACKEND_URL }}",
    DIGITALOCEAN_TOKEN: "${{ secrets.DIGITALOCEAN_TOKEN }}",
    LINODE_TOKEN: "${{ secrets.LINODE_TOKEN }}",
    githubToken: "${{ secrets.GITHUB_TOKEN }}",
    awsRole: "${{ vars.AWS_ROLE_TO_ASSUME }}",
    awsRegion: "${{ vars.AWS_REGION }}",
    prNumber: "${{ github.event.pull_request.number }}",
    prHead: "${{ github.event.pull_request.head.sha }}",
    reviewStack: "${{ env.REVIEW_STACK }}",
} as const;

/** The conditions jobs and steps run under (expressions too, so fixed text as well). */
export const CONDITIONS = {
    notClosed: "github.event.action != 'closed'",
    // A fork's pull request runs without the repository's secrets (and with a read-only token), so nothing that
    // needs them can run for it: those jobs are skipped rather than failed.
    sameRepository: "github.event.pull_request.head.repo.full_name == github.repository",
    closedSameRepository: "github.event.action == 'closed' && github.event.pull_request.head.repo.full_name == github.repository",
    reviewExists: "steps.review.outputs.exists == 'true'",
} as const;

/** A written workflow: its file name under `.github/workflows/` and its text. */
export interface WorkflowFile {
    readonly name: string;
    readonly text: string;
}

/** The Node.js the project runs on (package.json's `engines`, and `.ci/run`). */
const NODE_VERSION = "24";
/**
 * Generous bounds for each job, far above a normal run (a first `pulumi up` on AWS takes 25-40 minutes): a job
 * stopped halfway through an update leaves the stack with pending operations, so the bound only catches a hang.
 */
const TIMEOUT_MINUTES = { validate: 20, preview: 60, up: 180, destroy: 120 } as const;

type Step = Record<string, unknown>;
type Job = Record<string, unknown>;

/** The file names of a stack's workflows (the stack's own name, the last part of `org/project/stack`). */
export function workflowFileNames(stack: string): { readonly pullRequest: string; readonly push: string } {
    const own = stack.split("/").pop()!;
    return { pullRequest: `mara-${own}-pull-request.yml`, push: `mara-${own}-push.yml` };
}

/** The two workflows of a stack. */
export function githubWorkflows(s: CiSettings): { readonly pullRequest: WorkflowFile; readonly push: WorkflowFile } {
    const names = workflowFileNames(s.stack);
    return {
        pullRequest: { name: names.pullRequest, text: render(pullRequestWorkflow(s), header(s, "pull request")) },
        push: { name: names.push, text: render(pushWorkflow(s), header(s, "push")) },
    };
}

function pullRequestWorkflow(s: CiSettings): Record<string, unknown> {
    const jobs: Record<string, Job> = {
        validate: {
            name: "mara validate",
            if: CONDITIONS.notClosed,
            "runs-on": "ubuntu-latest",
            "timeout-minutes": TIMEOUT_MINUTES.validate,
            // No secrets: the configuration is checked offline, so this runs for a fork's pull request too.
            permissions: { contents: "read" },
            steps: [...setup(), validateStep()],
        },
        preview: {
            name: "pulumi preview",
            needs: "validate",
            if: CONDITIONS.sameRepository,
            "runs-on": "ubuntu-latest",
            "timeout-minutes": TIMEOUT_MINUTES.preview,
            permissions: permissions(s, { pullRequests: true }),
            // A newer push to the pull request makes the running preview moot.
            concurrency: { group: `mara-${s.stack}-preview-${EXPRESSIONS.prNumber}`, "cancel-in-progress": true },
            steps: [...setup(), ...credentials(s), pulumiStep(s, "pulumi preview", { command: "preview", "stack-name": s.stack, "comment-on-pr": true, "github-token": EXPRESSIONS.githubToken })],
        },
    };
    if (s.reviewStacks) {
        // Never cancelled: an update stopped halfway leaves pending operations. One group per review stack, so the
        // destroy at close waits for a running update.
        const concurrency = { group: `mara-${s.stack}-pr-${EXPRESSIONS.prNumber}`, "cancel-in-progress": false };
        const env = { REVIEW_STACK: `${s.stack}-pr-${EXPRESSIONS.prNumber}`, PR_NUMBER: EXPRESSIONS.prNumber };
        jobs["review-stack"] = {
            name: "review stack: pulumi up",
            needs: "validate",
            if: CONDITIONS.sameRepository,
            "runs-on": "ubuntu-latest",
            "timeout-minutes": TIMEOUT_MINUTES.up,
            permissions: permissions(s, { pullRequests: true }),
            concurrency,
            env,
            steps: [
                ...setup(),
                ...credentials(s),
                installPulumi(s),
                { name: `Make the review stack from the configuration of ${s.stack}`, env: pulumiEnv(s), run: REVIEW_STACK_SCRIPT },
                pulumiStep(s, "pulumi up (review stack)", { command: "up", "stack-name": EXPRESSIONS.reviewStack, "comment-on-pr": true, "github-token": EXPRESSIONS.githubToken }),
            ],
        };
        jobs["review-stack-destroy"] = {
            name: "review stack: pulumi destroy",
            if: CONDITIONS.closedSameRepository,
            "runs-on": "ubuntu-latest",
            "timeout-minutes": TIMEOUT_MINUTES.destroy,
            permissions: permissions(s, {}),
            concurrency,
            env,
            steps: [
                // The code the review stack was last updated from: a merged or closed pull request's merge ref is gone.
                ...setup({ ref: EXPRESSIONS.prHead }),
                ...credentials(s),
                installPulumi(s),
                { id: "review", name: "Find the review stack", env: pulumiEnv(s), run: FIND_REVIEW_STACK_SCRIPT },
                { if: CONDITIONS.reviewExists, ...pulumiStep(s, "pulumi destroy (review stack), then remove it", { command: "destroy", "stack-name": EXPRESSIONS.reviewStack, remove: true }) },
            ],
        };
    }
    return {
        name: `mara ${s.stack}: pull request`,
        on: { pull_request: { types: ["opened", "synchronize", "reopened", ...(s.reviewStacks ? ["closed"] : [])] } },
        // None for the workflow; each job asks for what it needs.
        permissions: {},
        env: { MARA_STACK: s.stack },
        defaults: runDefaults(s),
        jobs,
    };
}

function pushWorkflow(s: CiSettings): Record<string, unknown> {
    return {
        name: `mara ${s.stack}: pulumi up`,
        on: { push: { branches: [branchPattern(s.branch)] } },
        permissions: {},
        env: { MARA_STACK: s.stack },
        defaults: runDefaults(s),
        jobs: {
            up: {
                name: "pulumi up",
                "runs-on": "ubuntu-latest",
                "timeout-minutes": TIMEOUT_MINUTES.up,
                permissions: permissions(s, {}),
                // One update of the stack at a time; a queued one waits, and is never cancelled by the next push
                // while it runs (GitHub keeps the newest pending run of a group, which includes every earlier change).
                concurrency: { group: `mara-${s.stack}`, "cancel-in-progress": false },
                steps: [...setup(), validateStep(), ...credentials(s), pulumiStep(s, "pulumi up", { command: "up", "stack-name": s.stack })],
            },
        },
    };
}

/** Checkout, Node.js and the locked dependencies: before any credential is in the job's environment. */
function setup(checkout: { ref?: string } = {}): Step[] {
    return [
        {
            uses: usesOf(ACTIONS.checkout),
            // The job's token is not left in .git/config for later steps (npm's install scripts among them).
            with: { ...checkout, "persist-credentials": false },
        },
        {
            uses: usesOf(ACTIONS.setupNode),
            // No dependency cache: a cache another workflow wrote must not feed a job that holds cloud credentials
            // (actions/setup-node's README, on cache poisoning).
            with: { "node-version": NODE_VERSION, "package-manager-cache": false },
        },
        { name: "Install the locked dependencies", run: "npm ci" },
    ];
}

function validateStep(): Step {
    return { name: "mara validate", run: 'npx mara validate --stack "$MARA_STACK"' };
}

/** Cloud credentials, after the dependencies are installed. */
function credentials(s: CiSettings): Step[] {
    if (!s.aws) return [];
    return [
        {
            name: "AWS credentials (OIDC)",
            uses: usesOf(ACTIONS.awsCredentials),
            with: {
                "role-to-assume": EXPRESSIONS.awsRole,
                "aws-region": s.aws.region ?? EXPRESSIONS.awsRegion,
                // The stack names a profile: the runner gets one of that name, holding these credentials, and they are
                // in the environment too (the action leaves them out of it when it writes a profile), for the state's
                // bucket and anything else that reads the default chain.
                ...(s.aws.profile ? { "aws-profile": s.aws.profile, "output-env-credentials": true } : {}),
            },
        },
    ];
}

/** The permissions of a job: read the code; comment on the pull request; an OIDC token for AWS. */
function permissions(s: CiSettings, want: { pullRequests?: boolean }): Record<string, string> {
    return {
        contents: "read",
        ...(want.pullRequests ? { "pull-requests": "write" } : {}),
        ...(s.aws ? { "id-token": "write" } : {}),
    };
}

/** The environment of every step that runs Pulumi: only the credentials it needs, from the secret store. */
function pulumiEnv(s: CiSettings): Record<string, string> {
    return {
        ...(s.backend.kind === "cloud" ? { PULUMI_ACCESS_TOKEN: EXPRESSIONS.accessToken } : {}),
        ...(s.backend.kind === "self-managed" || s.backend.custom ? { PULUMI_BACKEND_URL: EXPRESSIONS.backendUrl } : {}),
        ...(s.passphrase ? { PULUMI_CONFIG_PASSPHRASE: EXPRESSIONS.passphrase } : {}),
        ...(s.cloudToken ? { [s.cloudToken]: EXPRESSIONS[s.cloudToken] } : {}),
    };
}

/** The inputs every pulumi/actions step shares. */
function pulumiInputs(s: CiSettings): Record<string, string> {
    return {
        ...(s.workDir ? { "work-dir": s.workDir } : {}),
        ...(s.backend.kind === "self-managed" || s.backend.custom ? { "cloud-url": EXPRESSIONS.backendUrl } : {}),
        "pulumi-version": s.pulumiVersion,
    };
}

function pulumiStep(s: CiSettings, name: string, inputs: Record<string, unknown>): Step {
    return { name, uses: usesOf(ACTIONS.pulumi), with: { ...inputs, ...pulumiInputs(s) }, env: pulumiEnv(s) };
}

/** pulumi/actions without a command installs the CLI only (its README, "Installation Only"): for the scripts after it. */
function installPulumi(s: CiSettings): Step {
    return { name: "Install the Pulumi CLI", uses: usesOf(ACTIONS.pulumi), with: { "pulumi-version": s.pulumiVersion } };
}

function runDefaults(s: CiSettings): Record<string, unknown> {
    // bash runs with -e and -o pipefail (GitHub's `shell: bash`); never -x, which would print every command.
    return { run: { shell: "bash", ...(s.workDir ? { "working-directory": s.workDir } : {}) } };
}

/**
 * A branch name as a pattern of `on.push.branches`, which reads `*`, `?`, `+`, `[`, `]` and a leading `!` as pattern
 * syntax; a backslash escapes them (GitHub's "Workflow syntax", "Filter pattern cheat sheet"). git refuses `*`, `?`
 * and `[` in branch names, but not `+` or `!`.
 */
export function branchPattern(branch: string): string {
    return branch.replace(/[*?+[\]!]/g, (c) => `\\${c}`);
}

/** The configuration keys (canonical and MARA's) that name something only one stack may have. */
const keysOf = (spec: { readonly key: string; readonly legacy: readonly { readonly key: string; readonly field?: string }[] }): string[] => [spec.key, ...spec.legacy.filter((l) => !l.field).map((l) => l.key)];
const CLUSTER_NAME_KEYS = keysOf(KEYS.clusterName);
const HOST_NAME_KEYS = [...keysOf(KEYS.fqdn), ...keysOf(KEYS.siriusHostname)];

/**
 * Makes (or, on a later push, remakes) the review stack's configuration: a copy of the base stack's as the pull
 * request has it, secrets re-encrypted for the review stack, with names of its own: the cluster's default name
 * (mara-<stack>) and host names prefixed with pr-<number>-. A review stack made by an earlier run has no stack file
 * on this runner: `pulumi config refresh` restores how its secrets are encrypted from its last update, and only that
 * is kept before the copy, so a key the pull request removed from the base stack is gone from the review stack too.
 */
export const REVIEW_STACK_SCRIPT = [
    'stack_file="Pulumi.${REVIEW_STACK##*/}.yaml"',
    'if pulumi stack select "$REVIEW_STACK" >/dev/null 2>&1; then',
    '  if pulumi config refresh --stack "$REVIEW_STACK" --force; then',
    '    grep -E \'^(secretsprovider|encryptedkey|encryptionsalt):\' "$stack_file" >"$stack_file.new" || true',
    '    mv "$stack_file.new" "$stack_file"',
    '    pulumi config cp --stack "$MARA_STACK" --dest "$REVIEW_STACK"',
    "  else",
    '    echo "Review stack $REVIEW_STACK was never updated: making it again."',
    '    pulumi stack rm --yes "$REVIEW_STACK"',
    '    pulumi stack init "$REVIEW_STACK" --copy-config-from "$MARA_STACK"',
    "  fi",
    "else",
    '  pulumi stack init "$REVIEW_STACK" --copy-config-from "$MARA_STACK"',
    "fi",
    ...CLUSTER_NAME_KEYS.map((k) => `pulumi config rm --stack "$REVIEW_STACK" ${k}`),
    `for key in ${HOST_NAME_KEYS.join(" ")}; do`,
    '  if host=$(pulumi config get --stack "$REVIEW_STACK" "$key" 2>/dev/null); then',
    '    pulumi config set --stack "$REVIEW_STACK" "$key" "pr-$PR_NUMBER-$host"',
    "  fi",
    "done",
    "",
].join("\n");

/**
 * Finds the review stack at close, restoring its configuration (how its secrets are encrypted) from its last update
 * for `pulumi destroy`; a review stack that was never updated holds nothing and is removed here.
 */
export const FIND_REVIEW_STACK_SCRIPT = [
    'if ! pulumi stack select "$REVIEW_STACK" >/dev/null 2>&1; then',
    '  echo "There is no review stack $REVIEW_STACK: nothing to destroy."',
    'elif pulumi config refresh --stack "$REVIEW_STACK" --force; then',
    '  echo "exists=true" >>"$GITHUB_OUTPUT"',
    "else",
    '  echo "Review stack $REVIEW_STACK was never updated: removing it."',
    '  pulumi stack rm --yes "$REVIEW_STACK"',
    "fi",
    "",
].join("\n");

/** The comment at the top of a workflow: what wrote it, and what it reads from the repository's settings. */
function header(s: CiSettings, kind: string): string {
    const { secrets, variables } = requiredSettings(s);
    return [
        ` The ${kind} workflow of the Pulumi stack ${s.stack}, written by mara init --ci github (docs/ci.md).`,
        " Edit it as you need; mara init --ci github --force writes it again.",
        ` Repository secrets it reads: ${secrets.join(", ") || "none"}.${variables.length ? ` Repository variables: ${variables.join(", ")}.` : ""}`,
    ].join("\n");
}

/**
 * The workflow as YAML: keys in the order built, strings that a YAML 1.1 or 1.2 reader would take for another type
 * quoted, no line folding (a folded shell line would change the script), and each pinned action's release in a
 * comment beside its commit.
 */
function render(workflow: Record<string, unknown>, comment: string): string {
    const doc = new Document(workflow, { aliasDuplicateObjects: false });
    doc.commentBefore = comment;
    const releases = new Map(Object.values(ACTIONS).map((a: PinnedAction) => [usesOf(a), a.release]));
    visit(doc, {
        Pair(_key, pair) {
            const value = pair.value;
            if (value instanceof Scalar && typeof value.value === "string" && (pair.key as Scalar | null)?.value === "uses") {
                const release = releases.get(value.value);
                if (release) value.comment = ` ${release}`;
            }
        },
        Scalar(key, node) {
            if (key !== "key" && typeof node.value === "string" && readsAsOtherType(node.value)) node.type = Scalar.QUOTE_DOUBLE;
        },
    });
    return doc.toString({ lineWidth: 0 });
}
