/**
 * What `mara render` does with Kubernetes Secrets, whether the program declares them or a chart renders them: their
 * values never reach a file. Each Secret with data becomes an External Secrets Operator `ExternalSecret` that
 * fills a Secret of the same name, type, labels and annotations from a store the user names, one remote key per
 * data key; or, with `--secrets=omit`, it is left out. Either way the Secret is listed, so the user knows which
 * keys the store must hold (or which Secrets to create some other way).
 *
 * A Secret without data (a service-account token, or a certificate Secret an operator fills in) holds nothing to
 * leak and is written as it is.
 */
import { isMap, KubeObject } from "./charts";
import type { PlacedObject } from "./layout";

/** The External Secrets Operator API the output uses (served since ESO 0.16; v1beta1 stopped being served in 0.17). */
export const EXTERNAL_SECRET_API = "external-secrets.io/v1";

/** How Secrets are written. */
export type SecretHandling = { mode: "external"; store: string; storeKind: "SecretStore" | "ClusterSecretStore"; remoteKeyPrefix: string } | { mode: "omit" };

/** One key a store must hold (or, with omit, a key of a Secret that was left out). */
export interface SecretKeyEntry {
    /** Namespace of the Secret. */
    namespace: string;
    /** Name of the Secret. */
    secret: string;
    /** Data key in the Secret. */
    key: string;
    /** Remote key in the store (external mode only). */
    remoteKey?: string;
    /** Who declared the Secret, e.g. "release platform-prometheus-release" or "resource platform-secrets-…". */
    source: string;
}

/** Data keys of a Secret (data and stringData), sorted. */
export function secretKeys(obj: KubeObject): string[] {
    const keys = new Set<string>();
    for (const field of ["data", "stringData"] as const) if (isMap(obj[field])) Object.keys(obj[field]).forEach((k) => keys.add(k));
    return [...keys].sort();
}

/** Whether an object is a core v1 Secret. */
export const isSecret = (obj: KubeObject) => obj.apiVersion === "v1" && obj.kind === "Secret";

/**
 * The remote key a Secret's data key is read from: `<prefix><namespace>/<secret>/<key>`. Slashes make it a path,
 * which AWS Secrets Manager, AWS Parameter Store and Vault accept; stores with stricter names (Google Secret
 * Manager, Azure Key Vault) need the list rewritten (docs/gitops.md).
 */
export const remoteKey = (prefix: string, namespace: string, secret: string, key: string) => `${prefix}${namespace}/${secret}/${key}`;

/** The ExternalSecret that recreates `secret` from the store, with its keys. */
export function externalSecretFor(secret: KubeObject, namespace: string, handling: Extract<SecretHandling, { mode: "external" }>): KubeObject {
    const name = secret.metadata!.name!;
    const templateMetadata: Record<string, unknown> = {};
    if (secret.metadata?.labels && Object.keys(secret.metadata.labels).length) templateMetadata.labels = secret.metadata.labels;
    if (secret.metadata?.annotations && Object.keys(secret.metadata.annotations).length) templateMetadata.annotations = secret.metadata.annotations;
    return {
        apiVersion: EXTERNAL_SECRET_API,
        kind: "ExternalSecret",
        metadata: { name, namespace, ...(secret.metadata?.labels ? { labels: secret.metadata.labels } : {}) },
        spec: {
            refreshInterval: "1h",
            secretStoreRef: { kind: handling.storeKind, name: handling.store },
            target: {
                name,
                creationPolicy: "Owner",
                template: {
                    // The Secret's type matters to its consumers (a dockerconfigjson pull secret, a TLS secret).
                    type: typeof secret.type === "string" ? secret.type : "Opaque",
                    ...(Object.keys(templateMetadata).length ? { metadata: templateMetadata } : {}),
                },
            },
            data: secretKeys(secret).map((key) => ({ secretKey: key, remoteRef: { key: remoteKey(handling.remoteKeyPrefix, namespace, name, key) } })),
        },
    };
}

const order = (e: SecretKeyEntry) => `${e.namespace}/${e.secret}/${e.key}`;

/**
 * The objects with every Secret that has data replaced by its ExternalSecret (external) or left out (omit), and
 * the keys of those Secrets, sorted, with their remote keys (external).
 */
export function withoutSecretValues(placed: readonly PlacedObject[], handling: SecretHandling): { objects: PlacedObject[]; entries: SecretKeyEntry[] } {
    const objects: PlacedObject[] = [];
    const entries: SecretKeyEntry[] = [];
    for (const p of placed) {
        if (!isSecret(p.object) || secretKeys(p.object).length === 0) {
            objects.push(p);
            continue;
        }
        const namespace = p.object.metadata?.namespace ?? "default";
        const name = p.object.metadata!.name!;
        for (const key of secretKeys(p.object)) {
            entries.push({ namespace, secret: name, key, source: p.source, ...(handling.mode === "external" ? { remoteKey: remoteKey(handling.remoteKeyPrefix, namespace, name, key) } : {}) });
        }
        if (handling.mode === "external") {
            objects.push({ ...p, object: externalSecretFor(p.object, namespace, handling), source: `${p.source}, Secret ${namespace}/${name} as an ExternalSecret`, custom: false });
        }
    }
    return { objects, entries: entries.sort((a, b) => order(a).localeCompare(order(b))) };
}

/**
 * The file that lists the Secrets' keys, tab-separated, one line each: `secret-keys.txt` (remote key, Secret,
 * key) for a store to fill, or `omitted-secrets.txt` (Secret, its keys) for the user to create.
 */
export function secretListFile(entries: readonly SecretKeyEntry[], handling: SecretHandling): { name: string; text: string } {
    const sorted = [...entries].sort((a, b) => order(a).localeCompare(order(b)));
    if (handling.mode === "external") {
        return {
            name: "secret-keys.txt",
            text:
                `# Keys the ${handling.storeKind} "${handling.store}" must hold, one per line: remote key, then the Secret (namespace/name) and key it fills.\n` +
                "# Generated by `mara render`; values are never written here.\n" +
                sorted.map((e) => `${e.remoteKey}\t${e.namespace}/${e.secret}\t${e.key}\n`).join(""),
        };
    }
    const bySecret = new Map<string, string[]>();
    for (const e of sorted) bySecret.set(`${e.namespace}/${e.secret}`, [...(bySecret.get(`${e.namespace}/${e.secret}`) ?? []), e.key]);
    return {
        name: "omitted-secrets.txt",
        text:
            "# Secrets left out by `mara render --secrets=omit`: create each one in the cluster before syncing (namespace/name, then its keys).\n" +
            [...bySecret].map(([secret, keys]) => `${secret}\t${keys.join(" ")}\n`).join(""),
    };
}
