/**
 * Argo CD objects that describe what to sync and where: Applications (the root one Pulumi creates, and one per
 * folder of a render, which `mara render` writes) and the cluster Secret that tells an Argo CD about a cluster.
 * Plain objects, so that the program registers them and the render writes them alike.
 */

/** The Git repository, revision and folder Argo CD reads a render from. */
export interface GitSource {
    /** Repository URL, as Argo CD clones it (`https://github.com/org/platform-config.git`, `git@…`). */
    repoUrl: string;
    /** Branch, tag or commit Argo CD follows. */
    revision: string;
    /** Folder of the render in the repository (where `mara render --out` wrote it), without a leading slash. */
    path: string;
}

/** Where Argo CD applies an Application: the cluster it runs in, or a cluster registered with it by name. */
export type Destination = { inCluster: true } | { clusterName: string };

/** The namespace Argo CD runs in, and its Applications and cluster Secrets live in. */
export const ARGOCD_NAMESPACE = "argocd";
/** The Helm release of Argo CD's chart that `mara:delivery: gitops` installs (a fixed name, like its namespace). */
export const ARGOCD_RELEASE = "argocd";

/** The folder of a render that holds its Applications, one per component folder. */
export const APPLICATIONS_FOLDER = "argocd";

/** Argo CD deletes what an Application synced before the Application itself, when it carries this finalizer. */
export const RESOURCES_FINALIZER = "resources-finalizer.argocd.argoproj.io";

/** An Application as a Kubernetes object. */
export interface ApplicationManifest {
    /** Argo CD's API group and version. */
    apiVersion: "argoproj.io/v1alpha1";
    /** Always `Application`. */
    kind: "Application";
    /** Its name in Argo CD's namespace, its wave annotation and labels, and the resources finalizer. */
    metadata: { name: string; namespace: string; annotations?: Record<string, string>; labels?: Record<string, string>; finalizers: string[] };
    /** The source folder, the destination and the sync policy. */
    spec: Record<string, unknown>;
}

/**
 * An Application that syncs one folder: automatically, pruning what leaves the folder and undoing changes made on
 * the cluster, with server-side apply (kube-prometheus-stack's CRDs exceed client-side apply's annotation), retrying
 * with backoff. Deleting it deletes what it synced (its finalizer), which is how a switch back to Pulumi starts.
 *
 * @param name - the Application's name (and its folder's, for a component).
 * @param path - the folder, relative to the repository's root.
 * @param source - the repository and revision.
 * @param destination - where it applies.
 * @param wave - its sync wave among the Applications of its parent, when it has one.
 */
export function applicationManifest(name: string, path: string, source: Pick<GitSource, "repoUrl" | "revision">, destination: Destination, wave?: number): ApplicationManifest {
    return {
        apiVersion: "argoproj.io/v1alpha1",
        kind: "Application",
        metadata: {
            name,
            namespace: ARGOCD_NAMESPACE,
            ...(wave === undefined ? {} : { annotations: { "argocd.argoproj.io/sync-wave": String(wave) } }),
            labels: { "app.kubernetes.io/part-of": "mara" },
            finalizers: [RESOURCES_FINALIZER],
        },
        spec: {
            project: "default",
            source: { repoURL: source.repoUrl, targetRevision: source.revision, path },
            // Every object of a render names its namespace; the Applications need none of their own.
            destination: "inCluster" in destination ? { server: "https://kubernetes.default.svc" } : { name: destination.clusterName },
            syncPolicy: APPLICATION_SYNC_POLICY,
        },
    };
}

/**
 * How the platform's Applications sync: automatically, pruning what leaves the folder and undoing changes made on the
 * cluster, with server-side apply (kube-prometheus-stack's CRDs exceed client-side apply's annotation), retrying with
 * backoff.
 */
export const APPLICATION_SYNC_POLICY = {
    automated: { prune: true, selfHeal: true },
    syncOptions: ["ServerSideApply=true"],
    retry: { limit: 5, backoff: { duration: "10s", factor: 2, maxDuration: "5m" } },
} as const;

/** A folder of a render in the repository: the render's path, then the folder. */
export const folderPath = (source: GitSource, folder: string) => [source.path.replace(/^\/+|\/+$/g, ""), folder].filter(Boolean).join("/");

/**
 * The settings of `argocd-cm` the render's waves rely on:
 * - annotation tracking (Argo CD's default since 3.0, set explicitly): label tracking would overwrite
 *   `app.kubernetes.io/instance`, which charts' ServiceMonitors select their Services by;
 * - a health check for Applications (Argo CD 1.8 removed the built-in one): without it a parent syncs its
 *   Applications' waves without waiting for each to be healthy, and the order between components is lost.
 */
export const ARGOCD_CM_SETTINGS: Readonly<Record<string, string>> = {
    "application.resourceTrackingMethod": "annotation",
    "resource.customizations.health.argoproj.io_Application": [
        "local hs = { status = \"Progressing\", message = \"\" }",
        "if obj.status ~= nil and obj.status.health ~= nil and obj.status.health.status ~= nil then",
        "  hs.status = obj.status.health.status",
        "  if obj.status.health.message ~= nil then hs.message = obj.status.health.message end",
        "end",
        "return hs",
        "",
    ].join("\n"),
};
