/**
 * The rules of the GitOps keys that span several keys (docs/gitops.md):
 *
 * - the repository URL never holds a credential, whatever the delivery: it is written into every Application
 *   `mara render` writes for Git, into the stack's outputs and into Argo CD's objects. Argo CD takes the credential
 *   from a repository Secret, as it documents (contracts/gitSource.ts, `REPOSITORY_CREDENTIALS_DOCS`): Pulumi writes
 *   that Secret from `mara:gitopsRepoPassword` or `mara:gitopsRepoSshPrivateKey` where it installs Argo CD, and
 *   `mara render --secret-store` writes an ExternalSecret that fills it from the store;
 * - the credential keys fit the URL: a password over HTTPS (never in clear text over http://), a key over SSH, one of
 *   the two;
 * - keys that do nothing on this stack are named in a warning instead of being checked: every GitOps key while
 *   `mara:delivery` is `pulumi`, Argo CD's chart and the repository credential when Argo CD runs elsewhere
 *   (`mara:gitopsArgoCd: external`), the hub's fleet when Argo CD runs in the cluster (`install`).
 */
import { REPOSITORY_CREDENTIALS_DOCS, RepositoryCredentials, repositoryTransport, repoUrlCredential, repoUrlWithoutCredential } from "../contracts/gitSource";
import { KEYS, KeyId } from "./keys";
import type { Lookup } from "./lookup";
import { configSetCommand } from "./problems";
import { Findings, secretOutput } from "./resolve";

/** Keys read only when Argo CD delivers the platform (`mara:delivery` handover or gitops). */
const DELIVERY_KEYS: readonly KeyId[] = ["gitopsRepoUrl", "gitopsRevision", "gitopsPath", "gitopsArgoCd"];
/** Keys read only when Pulumi installs Argo CD (`mara:gitopsArgoCd: install`): its chart and the repository's credential. */
const INSTALL_KEYS: readonly KeyId[] = ["argoCdChartVersion", "argoCdHelmRepoUrl", "argoCdHelmTimeout", "gitopsRepoUsername", "gitopsRepoPassword", "gitopsRepoSshPrivateKey"];
/** Keys read only when a hub's Argo CD delivers the platform (`mara:gitopsArgoCd: external`): the hub's fleet. */
const HUB_KEYS: readonly KeyId[] = ["gitopsFleet"];
/** Keys read only when the Pulumi Kubernetes Operator delivers the platform (`mara:delivery: operator`, components/pulumiOperator/settings.ts). */
export const OPERATOR_KEYS: readonly KeyId[] = ["operatorStack", "operatorBackend", "operatorAccessToken", "operatorPassphrase", "pulumiOperatorChartVersion", "pulumiOperatorHelmRepoUrl", "pulumiOperatorHelmTimeout"];
/** Keys of Argo CD alone, which the operator's delivery never reads: the repository's credential is read by both. */
const ARGO_CD_ONLY_KEYS: readonly KeyId[] = ["gitopsArgoCd", "gitopsFleet", "argoCdChartVersion", "argoCdHelmRepoUrl", "argoCdHelmTimeout"];

/** The delivery settings that decide which GitOps keys are read. */
interface DeliveryMode {
    readonly delivery: string;
    readonly argoCd: string;
}

/**
 * Whether nothing reads `id` on a stack delivered so (validation then names it instead of checking it). The delivery
 * settings are asked for only for a GitOps key, and Argo CD's mode only for a key of an installed Argo CD: validation
 * resolves them through the same rule, which must not ask about themselves.
 */
export function gitopsKeyUnread(id: KeyId, delivery: () => string, argoCd: () => string): boolean {
    if (OPERATOR_KEYS.includes(id)) return delivery() !== "operator";
    const install = INSTALL_KEYS.includes(id);
    const hub = HUB_KEYS.includes(id);
    if (!install && !hub && !DELIVERY_KEYS.includes(id)) return false;
    if (delivery() === "pulumi") return true;
    if (delivery() === "operator") return ARGO_CD_ONLY_KEYS.includes(id);
    return (install && argoCd() === "external") || (hub && argoCd() === "install");
}

/** Who clones the repository on a stack delivered so: the operator, or Argo CD. */
const cloner = (mode: DeliveryMode) => (mode.delivery === "operator" ? "the Pulumi Kubernetes Operator" : "Argo CD");

/** The Secret that holds the repository's credential on a stack delivered so. */
const credentialSecret = (mode: DeliveryMode) => (mode.delivery === "operator" ? "the operator's git credential Secret" : "Argo CD's repository Secret");

/** Checks the GitOps keys together; see the module comment. */
export function checkGitOpsSettings(k: Lookup, findings: Findings): void {
    const mode = { delivery: k.d("delivery"), argoCd: k.d("gitopsArgoCd") };
    checkUrlCredential(k, mode, findings);
    warnUnread(k, mode, findings);
    if (mode.delivery === "pulumi") return;
    const url = k.v("gitopsRepoUrl");
    if (url !== undefined && repositoryTransport(url) === "http" && repoUrlCredential(url) === undefined) {
        findings.warn(
            `${k.keyOf("gitopsRepoUrl")} = ${url}: Git over plain http:// is neither encrypted nor authenticated, so anyone on the way can change what ${cloner(mode)} applies to the cluster; use https:// (${configSetCommand(KEYS.gitopsRepoUrl.key, url.replace(/^http:/i, "https:"))}).`,
        );
    }
    if ((mode.delivery === "operator" || mode.argoCd === "install") && url !== undefined && repoUrlCredential(url) === undefined) checkCredentialKeys(k, url, mode, findings);
}

/**
 * The repository's credential Pulumi writes into Argo CD's repository Secret, when the stack gives one and Pulumi
 * installs Argo CD, or into the operator's `gitAuthSecret` with `mara:delivery: operator`.
 */
export function repositoryCredentialsOf(k: Pick<Lookup, "r" | "d">): RepositoryCredentials | undefined {
    if (k.d("delivery") === "pulumi" || (k.d("delivery") !== "operator" && k.d("gitopsArgoCd") !== "install")) return undefined;
    const password = secretOutput(k.r("gitopsRepoPassword"));
    const key = secretOutput(k.r("gitopsRepoSshPrivateKey"));
    if (key) return { sshPrivateKey: key };
    if (password) return { ...(k.r("gitopsRepoUsername").value !== undefined ? { username: k.r("gitopsRepoUsername").value! } : {}), password };
    return undefined;
}

/** How to give Argo CD (or the operator) a repository's credential, for an HTTPS or an SSH URL. */
function credentialFix(url: string, mode: DeliveryMode): string {
    const ssh = repositoryTransport(url) === "ssh";
    const key = ssh ? `${KEYS.gitopsRepoSshPrivateKey.key} < deploy-key` : `${KEYS.gitopsRepoPassword.key} <token>`;
    if (mode.delivery === "operator") return `pulumi config set --secret ${key} (Pulumi writes the operator's git credential Secret in the cluster)`;
    const pulumi = mode.argoCd === "external" ? "" : `pulumi config set --secret ${key} (Pulumi writes Argo CD's repository Secret in the cluster), or `;
    return `${pulumi}mara render --secret-store NAME --secret-store-provider PROVIDER, which writes an ExternalSecret that fills the repository Secret from your store (argocd/repository/), or create the Secret as Argo CD documents: ${REPOSITORY_CREDENTIALS_DOCS}`;
}

/** A credential in the repository URL is refused, on every delivery. */
function checkUrlCredential(k: Lookup, mode: DeliveryMode, findings: Findings): void {
    const resolved = k.r("gitopsRepoUrl");
    const url = resolved.raw?.trim();
    if (url === undefined) return;
    const credential = repoUrlCredential(url);
    if (!credential) return;
    const clean = repoUrlWithoutCredential(url);
    findings.problem({
        key: resolved.source ?? KEYS.gitopsRepoUrl.key,
        value: url,
        problem:
            mode.delivery === "operator"
                ? `holds a credential, ${credential}: the URL is written into the operator's Stack (spec.projectRepo) and into the stack's outputs, so it never carries one`
                : `holds a credential, ${credential}: the URL is written into every Argo CD Application mara render writes for Git, into the stack's outputs and into Argo CD's objects, so it never carries one`,
        allowed:
            mode.delivery === "operator"
                ? `the repository's URL without a credential (${clean}), and the credential in ${KEYS.gitopsRepoPassword.key} or ${KEYS.gitopsRepoSshPrivateKey.key}`
                : `the repository's URL without a credential (${clean}), and the credential in Argo CD's repository Secret (url with username and password for HTTPS, or sshPrivateKey for SSH)`,
        fix: `${configSetCommand(KEYS.gitopsRepoUrl.key, clean)}; then give ${cloner(mode)} the credential: ${credentialFix(clean, mode)}`,
    });
}

/** The repository's credential keys fit its URL. */
function checkCredentialKeys(k: Lookup, url: string, mode: DeliveryMode, findings: Findings): void {
    const who = cloner(mode);
    const transport = repositoryTransport(url);
    const password = k.r("gitopsRepoPassword").source;
    const key = k.r("gitopsRepoSshPrivateKey").source;
    const user = k.r("gitopsRepoUsername").source;
    const urlKey = k.keyOf("gitopsRepoUrl");
    if (password && key) {
        findings.problem({
            key,
            problem: `is set together with ${password}, and ${credentialSecret(mode)} holds one way in`,
            allowed: `${KEYS.gitopsRepoSshPrivateKey.key} for an SSH URL, or ${KEYS.gitopsRepoPassword.key} for an https:// one`,
            fix: transport === "ssh" ? `pulumi config rm ${password}` : `pulumi config rm ${key}`,
        });
        return;
    }
    if (password && transport === "ssh") {
        findings.problem({
            key: password,
            problem: `is a password for HTTPS, and ${urlKey} = ${url} is an SSH URL, over which ${who} authenticates with a key`,
            allowed: `${KEYS.gitopsRepoSshPrivateKey.key} for an SSH URL, or ${KEYS.gitopsRepoPassword.key} with an https:// URL`,
            fix: `pulumi config rm ${password} && pulumi config set --secret ${KEYS.gitopsRepoSshPrivateKey.key} < deploy-key, or set ${urlKey} to the repository's https:// URL`,
        });
    }
    if (password && transport === "http") {
        findings.problem({
            key: password,
            problem: `would be sent in clear text: ${urlKey} = ${url} is a plain http:// URL`,
            allowed: "a password or token only with an https:// URL",
            fix: configSetCommand(KEYS.gitopsRepoUrl.key, url.replace(/^http:/i, "https:")),
        });
    }
    if (key && transport !== "ssh") {
        findings.problem({
            key,
            problem: `is an SSH key, and ${urlKey} = ${url} is an ${transport}:// URL, over which ${who} authenticates with a user name and password`,
            allowed: `${KEYS.gitopsRepoSshPrivateKey.key} with an SSH URL (git@host:org/repo.git, or an ssh:// URL with a user), or ${KEYS.gitopsRepoPassword.key} with an https:// one`,
            fix: `set ${urlKey} to the repository's SSH URL (${configSetCommand(KEYS.gitopsRepoUrl.key, "git@host:org/repo.git")}), or pulumi config rm ${key} && pulumi config set --secret ${KEYS.gitopsRepoPassword.key} <token>`,
        });
    }
    if (user && !password) {
        findings.problem({
            key: user,
            value: k.r("gitopsRepoUsername").raw,
            problem: key
                ? `does nothing with an SSH key: ${who} takes the SSH user from ${urlKey} (the user before '@')`
                : `is set without ${KEYS.gitopsRepoPassword.key}, so ${who} has no password to send with it`,
            allowed: `a user name together with ${KEYS.gitopsRepoPassword.key}, for an https:// URL`,
            fix: key ? `pulumi config rm ${user}` : `pulumi config set --secret ${KEYS.gitopsRepoPassword.key} <token>, or pulumi config rm ${user}`,
        });
    }
}

/** Names the GitOps keys set on a stack that reads none of them. */
function warnUnread(k: Lookup, mode: DeliveryMode, findings: Findings): void {
    const set = (ids: readonly KeyId[]) => ids.filter((id) => k.r(id).source !== undefined && gitopsKeyUnread(id, () => mode.delivery, () => mode.argoCd)).map((id) => k.keyOf(id));
    const operatorKeys = set(OPERATOR_KEYS);
    if (operatorKeys.length > 0) {
        const one = operatorKeys.length === 1;
        findings.warn(
            `${operatorKeys.join(", ")} ${one ? "does" : "do"} nothing while ${k.keyOf("delivery")} is ${mode.delivery}, so ${one ? "its value is" : "their values are"} not checked: ` +
                `${one ? "it is" : "they are"} read once ${KEYS.delivery.key} is operator (docs/delivery-operator.md). Keep ${one ? "it" : "them"} for that switch, or remove ${one ? "it" : "them"} with pulumi config rm <key>.`,
        );
    }
    if (mode.delivery === "operator") {
        const argo = set(ARGO_CD_ONLY_KEYS);
        if (argo.length === 0) return;
        const one = argo.length === 1;
        findings.warn(
            `${argo.join(", ")} ${one ? "does" : "do"} nothing while ${k.keyOf("delivery")} is operator: the Pulumi Kubernetes Operator delivers the platform, and no Argo CD is installed or registered with. ` +
                `Remove ${one ? "it" : "them"} with pulumi config rm <key>, or set ${KEYS.delivery.key} gitops (docs/gitops.md).`,
        );
        return;
    }
    if (mode.delivery === "pulumi") {
        const keys = set([...DELIVERY_KEYS, ...HUB_KEYS, ...INSTALL_KEYS]);
        if (keys.length === 0) return;
        findings.warn(
            `${keys.join(", ")} ${keys.length === 1 ? "does" : "do"} nothing while ${k.keyOf("delivery")} is pulumi (Pulumi delivers the platform itself), so ${keys.length === 1 ? "its value is" : "their values are"} not checked: ` +
                `${keys.length === 1 ? "it is" : "they are"} read once ${KEYS.delivery.key} is handover or gitops (docs/gitops.md). Keep ${keys.length === 1 ? "it" : "them"} for that switch, or remove ${keys.length === 1 ? "it" : "them"} with pulumi config rm <key>.`,
        );
        return;
    }
    const hub = set(HUB_KEYS);
    if (hub.length > 0) {
        findings.warn(
            `${hub.join(", ")} does nothing with ${k.keyOf("gitopsArgoCd")} install: a fleet is the clusters a hub's Argo CD delivers to, and this cluster's own Argo CD delivers to this cluster alone. ` +
                `Set ${KEYS.gitopsArgoCd.key} external to register the cluster with a hub (docs/gitops.md#fleets-one-hub-many-clusters), or remove it with pulumi config rm ${hub[0]}.`,
        );
    }
    const keys = set(INSTALL_KEYS);
    if (keys.length === 0) return;
    findings.warn(
        `${keys.join(", ")} ${keys.length === 1 ? "does" : "do"} nothing with ${k.keyOf("gitopsArgoCd")} external: Pulumi installs no Argo CD, so the hub's Argo CD has its own chart and needs the repository's credential in its own repository Secret ` +
            `(mara render --secret-store writes an ExternalSecret for it to argocd/repository/; docs/gitops.md). Remove ${keys.length === 1 ? "it" : "them"} with pulumi config rm <key>.`,
    );
}
