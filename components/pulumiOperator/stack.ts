/**
 * The Pulumi Kubernetes Operator's `Stack` custom resource as `mara:delivery: operator` writes it, and the names of
 * the objects around it. The schema is the operator's CRD `stacks.pulumi.com` (group `pulumi.com`, version `v1`, in
 * the chart's `crds/pulumi.com_stacks.yaml`; the operator's v2 `Workspace` and `Update` are `auto.pulumi.com/v1alpha1`
 * and made by the operator, never by us). Which fields mean what is the operator's Go source
 * (pulumi/pulumi-kubernetes-operator, operator/internal/controller/pulumi/git.go):
 *
 * - `NewGitSource`: exactly one of `branch` and `commit`;
 * - `gitSource.CurrentCommit`: a ref that `plumbing.IsHash` takes for a commit (40 hex digits) is used as it is; any
 *   other is matched against the remote's refs by full name or short name, so a branch or a tag name both work, and
 *   an abbreviated commit matches nothing ("no commits found for ref");
 * - `resolveGitAuth`: a `gitAuthSecret` holds `sshPrivateKey`, else `accessToken`, else `username` and `password`.
 */
import type { GitSource } from "../argoCd/applications";

/** Namespace of the operator's release, of the `Stack` and of everything the `Stack` uses. */
export const OPERATOR_NAMESPACE = "pulumi-kubernetes-operator";
/** Helm release name of the operator. */
export const OPERATOR_RELEASE = "pulumi-kubernetes-operator";
/**
 * Name of the `Stack`, and of the ServiceAccount its workspace runs as. The CRD refuses a name over 42 characters
 * (its x-kubernetes-validations rule `size(self.metadata.name) <= 42`: the operator derives pod names from it).
 */
export const STACK_NAME = "mara-platform";
/** The Secret holding the Pulumi access token and the stack's passphrase, read through the `Stack`'s `envRefs`. */
export const STACK_SECRET_NAME = "mara-operator-stack";
/** The Secret holding the repository's credential, read through the `Stack`'s `gitAuthSecret` (one name with Argo CD's). */
export const STACK_REPOSITORY_SECRET_NAME = "mara-repository";
/** The keys of {@link STACK_SECRET_NAME}. */
export const STACK_SECRET_KEYS = { accessToken: "accessToken", passphrase: "passphrase" } as const;

/** A full commit id: what the operator uses as a commit rather than as a ref to look up (`plumbing.IsHash`). */
export const isFullCommit = (revision: string): boolean => /^[0-9a-f]{40}$/i.test(revision);

/** What the `Stack` is made of. */
export interface StackSpecInput {
    /** The repository, revision and folder (`repoDir`, holding the project's Pulumi.yaml) the operator checks out. */
    readonly source: GitSource;
    /** The stack the operator deploys: `stack` or `org/stack` on Pulumi Cloud, as `pulumi stack select` names it. */
    readonly stack: string;
    /** The state backend URL; none: Pulumi Cloud (the operator's default). */
    readonly backend?: string;
    /** Whether an access token is in {@link STACK_SECRET_NAME}. */
    readonly accessToken: boolean;
    /** Whether a passphrase is in {@link STACK_SECRET_NAME}. */
    readonly passphrase: boolean;
    /** Whether the repository's credential is in {@link STACK_REPOSITORY_SECRET_NAME}. */
    readonly repositoryCredential: boolean;
}

/** A Secret key the workspace reads as an environment variable (the CRD's `ResourceRef` of type `Secret`). */
const secretRef = (key: string) => ({ type: "Secret", secret: { name: STACK_SECRET_NAME, key } });

/**
 * The `Stack`'s spec. `destroyOnFinalize` is false, so deleting the `Stack` (switching away from the mode) leaves
 * what the stack deployed on the cluster, as the switch away from GitOps does; `useLocalStackOnly` makes the operator
 * refuse a stack whose `Pulumi.<stack>.yaml` is not in the repository instead of creating an empty one.
 */
export function stackSpec(s: StackSpecInput): Record<string, unknown> {
    return {
        stack: s.stack,
        projectRepo: s.source.repoUrl,
        repoDir: s.source.path,
        ...(isFullCommit(s.source.revision) ? { commit: s.source.revision } : { branch: s.source.revision }),
        ...(s.repositoryCredential ? { gitAuthSecret: STACK_REPOSITORY_SECRET_NAME } : {}),
        ...(s.backend ? { backend: s.backend } : {}),
        envRefs: {
            ...(s.accessToken ? { PULUMI_ACCESS_TOKEN: secretRef(STACK_SECRET_KEYS.accessToken) } : {}),
            ...(s.passphrase ? { PULUMI_CONFIG_PASSPHRASE: secretRef(STACK_SECRET_KEYS.passphrase) } : {}),
        },
        serviceAccountName: STACK_NAME,
        useLocalStackOnly: true,
        destroyOnFinalize: false,
        refresh: true,
    };
}
