/**
 * What `mara render` does with Kubernetes Secrets, whether the program declares them or a chart renders them: their
 * values never reach a file. Each Secret with data becomes an External Secrets Operator `ExternalSecret` that
 * fills a Secret of the same name, type, labels and annotations from a store the user names: one entry in the store
 * per Secret, named as the store's provider allows, holding the Secret's keys (a JSON object, a Vault KV entry's
 * fields, or a Pulumi ESC object's properties), each read with `property` (or, for Pulumi ESC, at its whole property
 * path: escPaths.ts); or, with `--secrets=omit`, it is left out. Either way the Secret is listed,
 * so the user knows which entries and keys the store must hold (or which Secrets to create some other way).
 *
 * A Secret without data (a service-account token, or a certificate Secret an operator fills in) holds nothing to
 * leak and is written as it is.
 */
import { isMap, type KubeObject } from "../contracts/kubeObject";
import { RenderError } from "./errors";
import { ESC_DEFAULT_PREFIX, EscEnvironment, escEntryPath, escKeyPath, parsePropertyPath } from "./escPaths";
import type { PlacedObject } from "./layout";

/** The External Secrets Operator API the output uses (served since ESO 0.16; v1beta1 stopped being served in 0.17). */
export const EXTERNAL_SECRET_API = "external-secrets.io/v1";

/** The secret stores whose entry names the output follows. */
export const STORE_PROVIDERS = {
    vault: { prefix: "mara/", separator: "/", allowed: /^[A-Za-z0-9._/-]+$/, rule: "letters, digits, '.', '_', '-' and '/'", what: "a Vault KV entry (path relative to the store's mount), its fields the Secret's keys" },
    "aws-secrets-manager": { prefix: "mara/", separator: "/", allowed: /^[A-Za-z0-9/_+=.@-]{1,512}$/, rule: "letters, digits and /_+=.@- (at most 512)", what: "an AWS Secrets Manager secret whose value is a JSON object of the Secret's keys" },
    "aws-parameter-store": { prefix: "/mara/", separator: "/", allowed: /^\/[A-Za-z0-9_.\-/]{1,1010}$/, rule: "a leading '/', then letters, digits and _.-/ (a parameter hierarchy)", what: "an AWS Systems Manager parameter (SecureString) whose value is a JSON object of the Secret's keys" },
    "gcp-secret-manager": { prefix: "mara_", separator: "_", allowed: /^[A-Za-z0-9_-]{1,255}$/, rule: "letters, digits, '_' and '-' (at most 255)", what: "a Google Secret Manager secret whose value is a JSON object of the Secret's keys" },
    // A property path, not a name: remote keys are built by escPaths.ts and checked by reading them back (remoteKeyProblem).
    pulumi: { prefix: ESC_DEFAULT_PREFIX, separator: "", allowed: undefined, rule: "a Pulumi property path", what: "an object at that property path of the Pulumi ESC environment's values, its properties the Secret's keys" },
} as const;

/** A secret store provider {@link STORE_PROVIDERS} knows. */
export type StoreProvider = keyof typeof STORE_PROVIDERS;

/** The access token's Secret a Pulumi ESC store signs in with (the store's `accessToken.secretRef`). */
export interface EscTokenSecret {
    /** Name of the Secret. */
    name: string;
    /** Its namespace: required for a ClusterSecretStore, absent for a SecretStore (which reads its own namespace). */
    namespace?: string;
    /** The Secret's key that holds the token. */
    key: string;
}

/** What a Pulumi ESC store reads from: the environment, and the Secret with the access token (never the token itself). */
export interface EscStore extends EscEnvironment {
    /** The access token's Secret. */
    token: EscTokenSecret;
}

/** How Secrets are written. */
export type SecretHandling =
    | {
          mode: "external";
          store: string;
          storeKind: "SecretStore" | "ClusterSecretStore";
          provider: StoreProvider;
          remoteKeyPrefix: string;
          /** With provider pulumi: the environment and token the render's store objects name (escStore.ts). */
          esc?: EscStore;
      }
    | { mode: "omit" };

/** One key a store must hold (or, with omit, a key of a Secret that was left out). */
export interface SecretKeyEntry {
    /** Namespace of the Secret. */
    namespace: string;
    /** Name of the Secret. */
    secret: string;
    /** Data key in the Secret. */
    key: string;
    /** Remote key in the store, the entry that holds the Secret (external mode only); the data key is its property. */
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
 * The remote key of the store entry that holds a Secret: `<prefix><namespace><separator><secret>`, with the
 * provider's separator (`/`, or `_` where names allow no slash; Kubernetes names never contain `_`, so that is
 * unambiguous). Each of the Secret's keys is a property of that entry. For Pulumi ESC, the property path of the object
 * that holds the Secret's keys: `<prefix>["<namespace>"]["<secret>"]` (escPaths.ts).
 */
export const remoteKey = (handling: { provider: StoreProvider; remoteKeyPrefix: string }, namespace: string, secret: string) =>
    handling.provider === "pulumi" ? escEntryPath(handling.remoteKeyPrefix, namespace, secret) : `${handling.remoteKeyPrefix}${namespace}${STORE_PROVIDERS[handling.provider].separator}${secret}`;

/**
 * Where an ExternalSecret reads one key of a Secret: the entry and the key as its `property`, or for Pulumi ESC the
 * key's whole property path (its provider reads `key` alone: escPaths.ts).
 */
export const remoteRef = (handling: { provider: StoreProvider; remoteKeyPrefix: string }, namespace: string, secret: string, key: string): { key: string; property?: string } =>
    handling.provider === "pulumi" ? { key: escKeyPath(handling.remoteKeyPrefix, namespace, secret, key) } : { key: remoteKey(handling, namespace, secret), property: key };

/**
 * Why a remote key prefix would step out of itself, or undefined: a `.` or `..` segment, or an empty one (`//`). The
 * prefix fences the entries the render lists in secret-keys.txt; Vault serves its API through Go's `http.ServeMux`
 * (hashicorp/vault http/handler.go), which answers a path with `.` or `..` segments with a redirect to the cleaned
 * path (net/http, "ServeMux also takes care of sanitizing the URL request path"), so `mara/../team-b/` would read
 * another entry than the one listed; the other stores take such a name literally, as a different entry again.
 */
export function remoteKeyPrefixProblem(prefix: string): string | undefined {
    const segments = prefix.split("/").slice(prefix.startsWith("/") ? 1 : 0, -1);
    if (segments.some((s) => s === "..")) return "has a '..' segment, which would step out of the prefix to another entry of the store";
    if (segments.some((s) => s === ".")) return "has a '.' segment, which names the same folder another way";
    if (segments.some((s) => s === "")) return "has an empty segment ('//')";
    // What follows the last '/' joins the namespace (`..` + `bos` is the name `..bos`), so only whole segments count.
    return undefined;
}

/** Why a remote key cannot name an entry of the provider's store, or undefined when it can. */
export function remoteKeyProblem(provider: StoreProvider, key: string): string | undefined {
    const p = STORE_PROVIDERS[provider];
    if (p.allowed === undefined) {
        // A property path must read back as names alone (an index or a broken quote would read another value).
        try {
            if (parsePropertyPath(key).every((s) => typeof s === "string" && s !== "" && s !== "*")) return undefined;
        } catch {
            // Reported below.
        }
        return `"${key}" is not a property path of names Pulumi reads back as written`;
    }
    return p.allowed.test(key) ? undefined : `"${key}" is not a valid ${provider} name: ${p.rule}`;
}

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
            // Every provider reads a property with dots as one key first (Vault: a field; the others: a JSON key with the dots
            // escaped); Pulumi ESC reads a quoted segment of the path as one key.
            data: secretKeys(secret).map((key) => ({ secretKey: key, remoteRef: remoteRef(handling, namespace, name, key) })),
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
            entries.push({ namespace, secret: name, key, source: p.source, ...(handling.mode === "external" ? { remoteKey: remoteKey(handling, namespace, name) } : {}) });
        }
        if (handling.mode === "external") {
            objects.push({ ...p, object: externalSecretFor(p.object, namespace, handling), source: `${p.source}, Secret ${namespace}/${name} as an ExternalSecret`, custom: false });
        }
    }
    if (handling.mode === "external") {
        const bad = [...new Set(entries.map((e) => e.remoteKey!))].flatMap((k) => remoteKeyProblem(handling.provider, k) ?? []);
        if (bad.length) throw new RenderError(`the secret store cannot hold these Secrets under their remote keys: ${bad.join("; ")}. Choose a --remote-key-prefix the provider allows.`);
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
        const where = handling.esc ? `: the Pulumi ESC environment ${handling.esc.organization}/${handling.esc.project}/${handling.esc.environment}` : "";
        const property = handling.provider === "pulumi" ? `which the ExternalSecret reads at <remote key>["<key>"]` : "which is also the entry's property";
        return {
            name: "secret-keys.txt",
            text:
                `# What the ${handling.storeKind} "${handling.store}" (${handling.provider}${where}) must hold, one line per Secret key: the remote key of the entry,\n` +
                `# then the Secret (namespace/name) it fills and the key, ${property}. Each entry is ${STORE_PROVIDERS[handling.provider].what}.\n` +
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
