/**
 * Helm's record of a release revision, as the labels and name of the object it stores it in say, and Helm's own lock:
 * a release whose newest revision is pending (`pending-install`, `pending-upgrade`, `pending-rollback`), which no later
 * install or upgrade passes. Pure: it judges metadata someone else read. `mara up`'s recovery (cli/operation/recovery) repairs
 * such a release; the ownership guard (components/ownership) stops a `pulumi up` run directly before it meets one.
 */

/** One revision of a Helm release, as its record's name and labels say. */
export interface ReleaseRevision {
    /** The release's name. */
    readonly name: string;
    /** The namespace the release is installed in, where Helm keeps its records. */
    readonly namespace: string;
    /** The revision number, Helm's `version` label (1 for the first install, one more per upgrade or rollback). */
    readonly revision: number;
    /** Helm's status: deployed, superseded, failed, uninstalled, uninstalling, pending-install, pending-upgrade, pending-rollback. */
    readonly status: string;
    /** The object holding it: `sh.helm.release.v1.<name>.v<revision>`. */
    readonly secret: string;
    /** The object's uid and resourceVersion, so that a removal deletes the revision that was read and nothing newer. */
    readonly uid?: string;
    /** The object's resourceVersion when it was read: a delete with it as a precondition fails if the record changed since. */
    readonly resourceVersion?: string;
}

/** The metadata of an object that may be a Helm release record (a `PartialObjectMetadata` is enough). */
export interface RecordMetadata {
    /** `metadata.name`: Helm's is `sh.helm.release.v1.<release>.v<revision>`. */
    readonly name?: unknown;
    /** `metadata.namespace`: the release's namespace. */
    readonly namespace?: unknown;
    /** `metadata.uid`, kept for the removal's precondition. */
    readonly uid?: unknown;
    /** `metadata.resourceVersion`, kept for the removal's precondition. */
    readonly resourceVersion?: unknown;
    /** `metadata.labels`: Helm's `name`, `owner`, `status` and `version`. Unknown until checked, as the server sent it. */
    readonly labels?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The revision an object's metadata records, or undefined when it is not Helm's record of a release. Helm's Secrets
 * and ConfigMaps drivers (helm/helm pkg/storage/driver/secrets.go, newSecretsObject; cfgmaps.go, newConfigMapsObject)
 * name it `sh.helm.release.v1.<name>.v<version>` and give it the labels `name`, `owner: helm`, `status` and `version`.
 */
export function revisionOfRecord(metadata: unknown): ReleaseRevision | undefined {
    if (!isObject(metadata)) return undefined;
    const labels = isObject(metadata.labels) ? metadata.labels : {};
    const { name, status, version, owner } = labels;
    if (owner !== "helm" || typeof name !== "string" || typeof status !== "string" || typeof version !== "string" || !/^[1-9][0-9]{0,8}$/.test(version)) return undefined;
    if (typeof metadata.name !== "string" || metadata.name !== `sh.helm.release.v1.${name}.v${version}` || typeof metadata.namespace !== "string") return undefined;
    return {
        name,
        namespace: metadata.namespace,
        revision: Number(version),
        status,
        secret: metadata.name,
        ...(typeof metadata.uid === "string" ? { uid: metadata.uid } : {}),
        ...(typeof metadata.resourceVersion === "string" ? { resourceVersion: metadata.resourceVersion } : {}),
    };
}

/** Helm's pending statuses (helm/helm pkg/release/status.go, Status.IsPending). */
export const PENDING_STATUSES: readonly string[] = ["pending-install", "pending-upgrade", "pending-rollback"];

/** The history of one release in `revisions`, the newest first. */
export function historyOf(release: { readonly name: string; readonly namespace: string }, revisions: readonly ReleaseRevision[]): ReleaseRevision[] {
    return revisions.filter((r) => r.name === release.name && r.namespace === release.namespace).sort((a, b) => b.revision - a.revision);
}

/**
 * The newest revision of each release in `revisions` that is pending: Helm's lock. Helm's upgrade refuses a release
 * whose last revision is pending ("another operation (install/upgrade/rollback) is in progress": helm/helm
 * pkg/action/upgrade.go, Upgrade.prepareUpgrade), and its install refuses a name with a history that is neither
 * failed nor uninstalled ("cannot re-use a name that is still in use": pkg/action/install.go, Install.availableName).
 */
export function stuckRevisions(revisions: readonly ReleaseRevision[]): ReleaseRevision[] {
    const stuck: ReleaseRevision[] = [];
    const seen = new Set<string>();
    for (const r of revisions) {
        const key = `${r.namespace}/${r.name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const newest = historyOf(r, revisions)[0]!;
        if (PENDING_STATUSES.includes(newest.status)) stuck.push(newest);
    }
    return stuck;
}
