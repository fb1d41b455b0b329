/**
 * The External Secrets Operator store a render with `--secret-store-provider pulumi` reads from, as objects: the other
 * providers' stores hold settings the render does not know (a Vault address, an AWS role), but a Pulumi ESC store is
 * its environment and the Secret with the access token, which the flags give, so the render writes it
 * (docs/gitops.md#pulumi-esc). The token itself is never written: the store names its Secret, which the user creates.
 *
 * The form is ESO's `external-secrets.io/v1` `PulumiProvider` (external-secrets apis/externalsecrets/v1
 * secretstore_pulumi_types.go): `organization`, `project` and `environment` required, `apiUrl` left to its default
 * (`https://api.pulumi.com/api/esc`), and the token as `accessToken.secretRef`. That field is the one every ESO that
 * serves `v1` reads (0.16 on); ESO 2.5 added `auth.accessToken` beside it and deprecated it, still accepting it (the
 * type's CEL rule: "Exactly one of 'auth' or deprecated 'accessToken' must be specified").
 *
 * Where the token's Secret may be (external-secrets providers/v1/pulumi/provider.go and runtime/esutils): a
 * ClusterSecretStore must name its namespace (`NewClient` fails "cluster store requires namespace" otherwise); a
 * SecretStore may name none but its own (`ValidateReferentSecretSelector`), so each namespace's store reads the token
 * Secret of that namespace.
 *
 * The stores are not synced by Argo CD with the rest: like any store, a store must exist before the first sync, and
 * the token's Secret before it. They go to `secret-store/`, applied once by hand; Argo CD's repository Secret, read
 * where Argo CD runs, gets the store it needs in `argocd/repository/` (repositorySecret.ts).
 */
import type { KubeObject } from "../contracts/kubeObject";
import { toYaml } from "./layout";
import { EXTERNAL_SECRET_API, EscStore, SecretHandling } from "./secrets";

/** The folder of a render that holds the stores, applied before the first sync. */
export const ESC_STORE_FOLDER = "secret-store";

/** The token's Secret when no flag names it: the names Pulumi's guide to ESO uses (pulumi.com/docs/esc/integrations/kubernetes/external-secrets-operator). */
export const ESC_TOKEN_DEFAULTS = { namespace: "external-secrets", name: "pulumi-access-token", key: "PULUMI_ACCESS_TOKEN" } as const;

type ExternalHandling = Extract<SecretHandling, { mode: "external" }> & { esc: EscStore };

/** Whether a render's Secrets come from a Pulumi ESC store the render writes. */
export const writesEscStore = (handling: SecretHandling): handling is ExternalHandling => handling.mode === "external" && handling.provider === "pulumi" && handling.esc !== undefined;

/** One store object: the ClusterSecretStore, or the SecretStore of `namespace`. */
function storeObject(handling: ExternalHandling, namespace: string | undefined): KubeObject {
    const { organization, project, environment, token } = handling.esc;
    return {
        apiVersion: EXTERNAL_SECRET_API,
        kind: handling.storeKind,
        metadata: { name: handling.store, ...(namespace ? { namespace } : {}), labels: { "app.kubernetes.io/part-of": "mara" } },
        spec: {
            provider: {
                pulumi: {
                    organization,
                    project,
                    environment,
                    accessToken: { secretRef: { name: token.name, key: token.key, ...(handling.storeKind === "ClusterSecretStore" ? { namespace: token.namespace } : {}) } },
                },
            },
        },
    };
}

/**
 * The stores ExternalSecrets in `namespaces` read from: the one ClusterSecretStore, or a SecretStore in each namespace.
 */
export function escStoreObjects(handling: ExternalHandling, namespaces: readonly string[]): KubeObject[] {
    if (handling.storeKind === "ClusterSecretStore") return [storeObject(handling, undefined)];
    return [...new Set(namespaces)].sort().map((ns) => storeObject(handling, ns));
}

/** The file of a store object. */
export const escStoreFile = (o: KubeObject) => `${o.kind.toLowerCase()}-${o.metadata?.namespace ? `${o.metadata.namespace}-` : ""}${o.metadata!.name}.yaml`;

/** How to create the token's Secret the stores name, for `namespaces` (a SecretStore's are the stores' own). */
export function tokenSecretCommands(handling: ExternalHandling, namespaces: readonly string[]): string[] {
    const { name, key, namespace } = handling.esc.token;
    const where = handling.storeKind === "ClusterSecretStore" ? [namespace!] : [...new Set(namespaces)].sort();
    return where.map((ns) => `kubectl create secret generic ${name} -n ${ns} --from-literal=${key}=<Pulumi access token>`);
}

/** A header that says how the folder is used: what to create first, and when to apply it. */
function howTo(handling: ExternalHandling, namespaces: readonly string[], what: string): string {
    const env = `${handling.esc.organization}/${handling.esc.project}/${handling.esc.environment}`;
    return (
        `# ${what}: the External Secrets Operator reads the render's Secrets through it from the Pulumi ESC environment ${env}.\n` +
        `# Before applying it, create the access token's Secret it names (a Pulumi access token that can open the environment; never commit it):\n` +
        tokenSecretCommands(handling, namespaces)
            .map((c) => `#   ${c}\n`)
            .join("")
    );
}

/**
 * The files of `secret-store/`: the stores the components' ExternalSecrets (in `namespaces`) read from, and a
 * kustomization to apply them with, before the first sync.
 */
export function escStoreFiles(handling: ExternalHandling, namespaces: readonly string[], header: string): Map<string, string> {
    const objects = escStoreObjects(handling, namespaces);
    const files = new Map<string, string>();
    const how =
        howTo(handling, namespaces, `The ${handling.storeKind}${objects.length === 1 ? "" : "s"} of this folder`) +
        `# Then apply this folder once before the first sync (kubectl apply -k <this folder>)${handling.storeKind === "SecretStore" ? ", once the namespaces exist" : ""}; apply it again after a render changes it.\n`;
    for (const o of objects) files.set(`${ESC_STORE_FOLDER}/${escStoreFile(o)}`, `${header}${how}${toYaml(o)}`);
    files.set(`${ESC_STORE_FOLDER}/kustomization.yaml`, `${header}${toYaml({ apiVersion: "kustomize.config.k8s.io/v1beta1", kind: "Kustomization", resources: objects.map(escStoreFile) })}`);
    return files;
}

/** The store comment for a folder that carries its own store (argocd/repository/). */
export const escStoreHeader = (handling: ExternalHandling, namespaces: readonly string[]) => howTo(handling, namespaces, `The ${handling.storeKind} of this folder`);
