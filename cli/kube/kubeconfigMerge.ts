/**
 * Merges a cluster's kubeconfig into the user's, as `aws eks update-kubeconfig` and MARA's Linode hook
 * did: the new cluster, user and context are added under one name, entries of that name are replaced,
 * every other entry is kept, and the new context becomes the current one. Pure, so it is tested alone.
 */

/** A named entry of a kubeconfig list (`clusters`, `users`, `contexts`). */
interface Named {
    name: string;
    [field: string]: unknown;
}

/** A kubeconfig document, loosely: unknown fields are carried through untouched. */
export type KubeconfigDoc = Record<string, unknown>;

/** What {@link mergeKubeconfig} produced. */
export interface MergeResult {
    readonly merged: KubeconfigDoc;
    /** Name given to the cluster, user and context. */
    readonly name: string;
    /** Lists in which an entry of that name was replaced. */
    readonly replaced: ("clusters" | "users" | "contexts")[];
}

const LISTS = ["clusters", "users", "contexts"] as const;

function isObject(v: unknown): v is Record<string, unknown> {
    return typeof v === "object" && v !== null && !Array.isArray(v);
}

function entries(doc: KubeconfigDoc, list: (typeof LISTS)[number], owner: string): Named[] {
    const value = doc[list];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || !value.every((e) => isObject(e) && typeof e.name === "string")) {
        throw new Error(`${owner}: "${list}" is not a list of named entries`);
    }
    return value as Named[];
}

/**
 * Adds the incoming kubeconfig's current context (with its cluster and user) to `existing`.
 *
 * @param existing - the user's kubeconfig, or undefined when there is none yet.
 * @param incoming - the stack's kubeconfig.
 * @param name - name for the cluster, user and context; default: the incoming context's name. Naming
 * all three alike keeps a second cluster from overwriting the first one's user (EKS kubeconfigs all
 * call theirs "aws").
 * @throws Error when either document is not a kubeconfig.
 */
export function mergeKubeconfig(existing: KubeconfigDoc | undefined, incoming: KubeconfigDoc, name?: string): MergeResult {
    if (!isObject(incoming)) throw new Error("the stack's kubeconfig is not a YAML or JSON mapping");
    if (existing !== undefined && !isObject(existing)) throw new Error("your kubeconfig is not a YAML mapping");
    const contexts = entries(incoming, "contexts", "the stack's kubeconfig");
    const current = typeof incoming["current-context"] === "string" ? incoming["current-context"] : undefined;
    const context = contexts.find((c) => c.name === current) ?? contexts[0];
    if (!context || !isObject(context.context)) throw new Error("the stack's kubeconfig has no context");
    const ref = context.context as { cluster?: unknown; user?: unknown };
    const cluster = entries(incoming, "clusters", "the stack's kubeconfig").find((c) => c.name === ref.cluster);
    const user = entries(incoming, "users", "the stack's kubeconfig").find((u) => u.name === ref.user);
    if (!cluster) throw new Error(`the stack's kubeconfig has no cluster "${String(ref.cluster)}" for context "${context.name}"`);
    if (!user) throw new Error(`the stack's kubeconfig has no user "${String(ref.user)}" for context "${context.name}"`);

    const target = name ?? context.name;
    const additions = {
        clusters: { ...cluster, name: target },
        users: { ...user, name: target },
        contexts: { ...context, name: target, context: { ...context.context, cluster: target, user: target } },
    };
    const base: KubeconfigDoc = existing ?? { apiVersion: "v1", kind: "Config", preferences: {} };
    const merged: KubeconfigDoc = { apiVersion: "v1", kind: "Config", ...base };
    const replaced: MergeResult["replaced"] = [];
    for (const list of LISTS) {
        const current = entries(base, list, "your kubeconfig");
        const i = current.findIndex((e) => e.name === target);
        if (i >= 0) replaced.push(list);
        merged[list] = i >= 0 ? current.map((e, j) => (j === i ? additions[list] : e)) : [...current, additions[list]];
    }
    merged["current-context"] = target;
    return { merged, name: target, replaced };
}

/**
 * The kubeconfig file kubectl would use: the first entry of KUBECONFIG, else ~/.kube/config.
 */
export function defaultKubeconfigPath(env: Readonly<Record<string, string | undefined>>, delimiter = ":"): string {
    const first = env.KUBECONFIG?.split(delimiter).find((p) => p !== "");
    return first ?? `${env.HOME ?? ""}/.kube/config`;
}
