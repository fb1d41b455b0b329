/**
 * Argo CD's repository Secret: how Argo CD learns the credential of a private repository, as its declarative setup
 * documents it (argoproj/argo-cd docs/operator-manual/declarative-setup.md, "Repositories"): a Secret in Argo CD's
 * namespace labelled `argocd.argoproj.io/secret-type: repository`, holding `url`, and `username` and `password` for
 * HTTPS or `sshPrivateKey` for SSH. The credential never goes into the repository URL, which is written into the
 * render's Applications in Git. Pulumi creates this Secret where it installs Argo CD (`ArgoCd`); `mara render
 * --secret-store` writes an ExternalSecret that fills it from a store. One name and one shape for both.
 */
import { RepositoryTransport } from "../../contracts/gitSource";
import { ARGOCD_NAMESPACE } from "./applications";

/** The Secret's name, in Argo CD's namespace. */
export const REPOSITORY_SECRET_NAME = "mara-repository";

/** The label by which Argo CD finds repository Secrets. */
export const REPOSITORY_SECRET_LABELS: Readonly<Record<string, string>> = { "argocd.argoproj.io/secret-type": "repository", "app.kubernetes.io/part-of": "mara" };

/** The credential's keys in the Secret, by how Argo CD reaches the repository. */
export function repositoryCredentialKeys(transport: RepositoryTransport): readonly string[] {
    return transport === "ssh" ? ["sshPrivateKey"] : ["username", "password"];
}

/** The Secret's metadata. */
export function repositorySecretMetadata(): { name: string; namespace: string; labels: Record<string, string> } {
    return { name: REPOSITORY_SECRET_NAME, namespace: ARGOCD_NAMESPACE, labels: { ...REPOSITORY_SECRET_LABELS } };
}

/** What the Secret holds besides the credential: the repository's URL, and that it is a Git repository. */
export function repositorySecretFields(repoUrl: string): Record<string, string> {
    return { type: "git", url: repoUrl };
}
