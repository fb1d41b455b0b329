/**
 * Argo CD's repository Secret in a render (components/argoCd/repository.ts has its shape): for a private repository,
 * Argo CD needs the credential before it can read anything from Git, the root Application's folder included. The
 * credential never goes into the repository URL (which the Applications carry into Git), and never into a file: with
 * `--secret-store`, the render writes an External Secrets Operator `ExternalSecret` that fills the Secret from the
 * store, to `argocd/repository/`, which no Application syncs (Argo CD could not read it before it has the credential):
 * it is applied once, with `kubectl apply -k`, where Argo CD runs. Where Pulumi installs Argo CD and the stack gives
 * the credential (`mara:gitopsRepoPassword`, `mara:gitopsRepoSshPrivateKey`), Pulumi writes the Secret and the render
 * writes nothing of it, so the Secret has one owner.
 */
import { APPLICATIONS_FOLDER } from "../components/argoCd/applications";
import { REPOSITORY_SECRET_LABELS, REPOSITORY_SECRET_NAME, repositoryCredentialKeys, repositorySecretFields, repositorySecretMetadata } from "../components/argoCd/repository";
import { repositoryTransport } from "../contracts/gitSource";
import type { KubeObject } from "../contracts/kubeObject";
import { toYaml } from "./layout";
import { RenderError } from "./errors";
import { escStoreFile, escStoreHeader, escStoreObjects, writesEscStore } from "./escStore";
import { EXTERNAL_SECRET_API, remoteKey, remoteKeyProblem, remoteRef, SecretHandling, SecretKeyEntry } from "./secrets";

/** The folder of a render that holds the repository Secret's ExternalSecret. */
export const REPOSITORY_FOLDER = `${APPLICATIONS_FOLDER}/repository`;

/** The ExternalSecret that fills Argo CD's repository Secret from the store: the URL as written, the credential by reference. */
export function repositoryExternalSecret(repoUrl: string, handling: Extract<SecretHandling, { mode: "external" }>): KubeObject {
    const meta = repositorySecretMetadata();
    const credential = repositoryCredentialKeys(repositoryTransport(repoUrl));
    return {
        apiVersion: EXTERNAL_SECRET_API,
        kind: "ExternalSecret",
        metadata: { name: meta.name, namespace: meta.namespace, labels: { "app.kubernetes.io/part-of": "mara" } },
        spec: {
            refreshInterval: "1h",
            secretStoreRef: { kind: handling.storeKind, name: handling.store },
            target: {
                name: REPOSITORY_SECRET_NAME,
                creationPolicy: "Owner",
                template: {
                    // ESO's templating (engine v2): each value a Go template over the keys read below. The URL holds no
                    // `{{` (a URL has no unencoded brace, contracts/gitSource.ts), so it stays as written.
                    engineVersion: "v2",
                    type: "Opaque",
                    metadata: { labels: { ...REPOSITORY_SECRET_LABELS } },
                    data: { ...repositorySecretFields(repoUrl), ...Object.fromEntries(credential.map((k) => [k, `{{ .${k} }}`])) },
                },
            },
            data: credential.map((k) => ({ secretKey: k, remoteRef: remoteRef(handling, meta.namespace, meta.name, k) })),
        },
    };
}

/**
 * The files of `argocd/repository/` (the ExternalSecret and a kustomization to apply it with) and the keys the store
 * must hold for it, for a render with `--secret-store` of a stack Argo CD delivers.
 */
export function repositorySecretFiles(repoUrl: string, handling: Extract<SecretHandling, { mode: "external" }>, header: string): { files: Map<string, string>; entries: SecretKeyEntry[] } {
    const meta = repositorySecretMetadata();
    // The same check as every other Secret's entry (secrets.ts): a prefix at the provider's length limit may not fit this one.
    const problem = remoteKeyProblem(handling.provider, remoteKey(handling, meta.namespace, meta.name));
    if (problem) throw new RenderError(`the secret store cannot hold Argo CD's repository Secret under its remote key: ${problem}. Choose a --remote-key-prefix the provider allows.`);
    const object = repositoryExternalSecret(repoUrl, handling);
    const file = `externalsecret-${REPOSITORY_SECRET_NAME}.yaml`;
    const how =
        "# Argo CD's repository Secret, for a private repository: apply this folder once where Argo CD runs (kubectl apply -k <this folder>),\n" +
        "# before the root Application; Argo CD cannot read it from Git without the credential it holds. A public repository needs none of it.\n";
    const source = "Argo CD's repository credential (mara:gitopsRepoUrl)";
    const files = new Map([[`${REPOSITORY_FOLDER}/${file}`, `${header}${how}${toYaml(object)}`]]);
    // A Pulumi ESC store is the render's (escStore.ts): where Argo CD runs, which may be a hub, the folder brings its own.
    const stores = writesEscStore(handling) ? escStoreObjects(handling, [meta.namespace]) : [];
    const storeHow = writesEscStore(handling) ? escStoreHeader(handling, [meta.namespace]) : "";
    for (const store of stores) files.set(`${REPOSITORY_FOLDER}/${escStoreFile(store)}`, `${header}${storeHow}${toYaml(store)}`);
    files.set(`${REPOSITORY_FOLDER}/kustomization.yaml`, `${header}${toYaml({ apiVersion: "kustomize.config.k8s.io/v1beta1", kind: "Kustomization", resources: [...stores.map(escStoreFile), file] })}`);
    return {
        files,
        entries: repositoryCredentialKeys(repositoryTransport(repoUrl)).map((key) => ({ namespace: meta.namespace, secret: meta.name, key, remoteKey: remoteKey(handling, meta.namespace, meta.name), source })),
    };
}
