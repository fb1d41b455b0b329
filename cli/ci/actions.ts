/**
 * The GitHub Actions the written workflows use, each pinned to the full commit of a release: a tag can be moved to
 * other code after the workflow is reviewed, a commit cannot (GitHub's "Security hardening for GitHub Actions",
 * "Using third-party actions"). The release each commit is stays in a comment beside it (`# v7.0.0`), the form
 * Dependabot and Renovate update. Each is the newest release of its newest major when these pins were last moved,
 * and each runs on Node 24 (`runs.using: node24` in its action.yml).
 *
 * test/fixtures/github-actions/inputs.json holds the inputs each pinned commit's action.yml declares; the engine
 * tier checks every `with:` of every written workflow against it, and that these pins are the ones it describes.
 */

/** One action at one commit. */
export interface PinnedAction {
    /** `owner/repo` as `uses:` names it. */
    readonly repository: string;
    /** The full commit SHA the release tag points at. */
    readonly commit: string;
    /** The release, for the comment beside the pin. */
    readonly release: string;
}

/** The actions the workflows use, by role. */
export const ACTIONS = {
    /** actions/checkout v7: refuses a fork's code under pull_request_target (which these workflows do not use). */
    checkout: { repository: "actions/checkout", commit: "3d3c42e5aac5ba805825da76410c181273ba90b1", release: "v7.0.1" },
    /** actions/setup-node v7. */
    setupNode: { repository: "actions/setup-node", commit: "820762786026740c76f36085b0efc47a31fe5020", release: "v7.0.0" },
    /** aws-actions/configure-aws-credentials v6: OIDC with role-to-assume, no stored AWS keys. */
    awsCredentials: { repository: "aws-actions/configure-aws-credentials", commit: "e6de054238d6b7531b4efff3b6587d9aade6a06c", release: "v6.2.3" },
    /** pulumi/actions v7 (v6 with the action's runtime moved from Node 20 to Node 24, its CHANGELOG for 7.0.0). */
    pulumi: { repository: "pulumi/actions", commit: "8e5e406f4007fca908480587cb9893c07090f58d", release: "v7.0.0" },
} as const satisfies Record<string, PinnedAction>;

/** The `uses:` value of a pinned action. */
export const usesOf = (a: PinnedAction): string => `${a.repository}@${a.commit}`;
