/**
 * What an interrupted `pulumi up` leaves behind, and what may be done about it: the operations the state still
 * records as under way (`pulumi stack export` → `deployment.pending_operations`), and the Helm releases of the stack
 * whose newest revision is still `pending-install`, `pending-upgrade` or `pending-rollback` — Helm's own lock, which
 * no later install or upgrade passes. Pure functions over the state and Helm's release records; cli/operation/recovery/repair.ts
 * reads them and carries the plan out.
 *
 * Only releases this stack's state names (as a resource, or as a create or update under way) are touched: a release
 * of the same name that someone else installed is never in this stack's state.
 */
import { historyOf, ReleaseRevision, revisionOfRecord, stuckRevisions } from "../../../contracts/helmRecords";

/** The Pulumi resource type of a Helm release made by the program (components/helmRelease.ts). */
export const HELM_RELEASE_TYPE = "kubernetes:helm.sh/v3:Release";

/** The Pulumi resource type of a Namespace. */
const NAMESPACE_TYPE = "kubernetes:core/v1:Namespace";

/** The Pulumi resource types through which the program applies CRDs itself (components/chartCrds.ts), and the plain one. */
const CRD_TYPES = ["kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinitionPatch", "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition"];

/** One operation the state records as started and never finished. */
export interface PendingOperation {
    readonly urn: string;
    /** The resource type, e.g. `kubernetes:helm.sh/v3:Release`. */
    readonly type: string;
    /** `creating`, `updating`, `deleting`, `reading` (the engine's names). */
    readonly operation: string;
    /** The Helm release, for a Release's operation. */
    readonly release?: ReleaseRef;
}

/** A Helm release, by name and namespace. */
export interface ReleaseRef {
    readonly name: string;
    readonly namespace: string;
}

/** What the state says about an interrupted run. */
export interface StateFindings {
    readonly pending: readonly PendingOperation[];
    /** The Helm releases the state names, as resources or in pending operations. */
    readonly releases: readonly ReleaseRef[];
    /** The namespaces the state holds as Namespace resources: the stack made them, and what Helm installs in them is its own. */
    readonly namespaces: readonly string[];
    /** The URN of each Release resource in the state, by `<namespace>/<name>`. */
    readonly releaseUrns: Readonly<Record<string, string>>;
    /** The CRDs the stack applies itself (not through a Helm release), by name, as resources or in pending operations. */
    readonly crds: readonly string[];
}

/** The resource name at the end of a URN (`urn:pulumi:<stack>::<project>::<type chain>::<name>`). */
export function urnName(urn: string): string {
    const i = urn.lastIndexOf("::");
    return i >= 0 ? urn.slice(i + 2) : urn;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A release's name and namespace from a Release resource's inputs or outputs; undefined when either is not plain text (a secret, unknown). */
function releaseOf(resource: Record<string, unknown>): ReleaseRef | undefined {
    for (const field of ["outputs", "inputs"]) {
        const props = resource[field];
        if (!isObject(props)) continue;
        const { name, namespace } = props;
        if (typeof name === "string" && name !== "" && typeof namespace === "string" && namespace !== "") return { name, namespace };
    }
    return undefined;
}

/** A Kubernetes object's name from a resource's outputs or inputs; undefined when it is not plain text. */
function objectName(resource: Record<string, unknown>): string | undefined {
    for (const field of ["outputs", "inputs"]) {
        const props = resource[field];
        const name = isObject(props) && isObject(props.metadata) ? props.metadata.name : undefined;
        if (typeof name === "string" && name !== "") return name;
    }
    return undefined;
}

/**
 * Reads `pulumi stack export`'s document: the pending operations and the Helm releases named. Anything not shaped as
 * the engine writes it (apitype.DeploymentV3 in pulumi/pulumi's sdk/go/common/apitype/core.go) is skipped, never thrown on.
 */
export function readState(exported: unknown): StateFindings {
    const deployment = isObject(exported) && isObject(exported.deployment) ? exported.deployment : {};
    const pending: PendingOperation[] = [];
    const releases: ReleaseRef[] = [];
    const addRelease = (r: ReleaseRef | undefined) => {
        if (r && !releases.some((x) => x.name === r.name && x.namespace === r.namespace)) releases.push(r);
    };
    const crds: string[] = [];
    const addCrd = (r: Record<string, unknown>) => {
        const name = typeof r.type === "string" && CRD_TYPES.includes(r.type) ? objectName(r) : undefined;
        if (name && !crds.includes(name)) crds.push(name);
    };
    const ops = Array.isArray(deployment.pending_operations) ? deployment.pending_operations : [];
    for (const op of ops) {
        if (!isObject(op) || !isObject(op.resource)) continue;
        const { urn, type } = op.resource;
        if (typeof urn !== "string" || typeof type !== "string") continue;
        const release = type === HELM_RELEASE_TYPE ? releaseOf(op.resource) : undefined;
        pending.push({ urn, type, operation: typeof op.type === "string" ? op.type : "unknown", ...(release ? { release } : {}) });
        addRelease(release);
        addCrd(op.resource);
    }
    const resources = Array.isArray(deployment.resources) ? deployment.resources : [];
    const namespaces: string[] = [];
    const releaseUrns: Record<string, string> = {};
    for (const r of resources) {
        if (!isObject(r) || r.delete === true) continue;
        if (r.type === HELM_RELEASE_TYPE) {
            const release = releaseOf(r);
            addRelease(release);
            if (release && typeof r.urn === "string") releaseUrns[`${release.namespace}/${release.name}`] = r.urn;
        }
        addCrd(r);
        if (r.type === NAMESPACE_TYPE && isObject(r.outputs) && isObject(r.outputs.metadata)) {
            const name = r.outputs.metadata.name;
            if (typeof name === "string" && name !== "" && !namespaces.includes(name)) namespaces.push(name);
        }
    }
    return { pending, releases, namespaces, releaseUrns, crds };
}

export type { ReleaseRevision } from "../../../contracts/helmRecords";
export { PENDING_STATUSES } from "../../../contracts/helmRecords";

/**
 * A revision from one Secret of a list, or undefined when it is not Helm's record of a release: of the type Helm's
 * Secrets driver gives it, `helm.sh/release.v1` (helm/helm pkg/storage/driver/secrets.go, newSecretsObject), and
 * named and labelled as contracts/helmRecords.ts reads.
 */
export function revisionOf(secret: unknown): ReleaseRevision | undefined {
    if (!isObject(secret) || secret.type !== "helm.sh/release.v1") return undefined;
    return revisionOfRecord(secret.metadata);
}

/** What to do about one release whose newest revision is pending. */
export type ReleaseRepair =
    /**
     * No revision was ever deployed: remove the release's records so that the provider's next install can run.
     * Helm's install refuses a name with any history unless replacing a failed or uninstalled one
     * (helm/helm pkg/action/install.go, Install.availableName), and a pending-install is neither. The objects the
     * interrupted install created stay: they carry Helm's ownership marks for this release, which the next install
     * adopts (pkg/action/validate.go, existingResourceConflict, via Install.Run's requireAdoption).
     */
    | { readonly kind: "remove"; readonly release: ReleaseRef; readonly stuck: ReleaseRevision; readonly revisions: readonly ReleaseRevision[] }
    /**
     * A revision was deployed before: roll back to it, as `helm rollback` does. Helm's upgrade refuses a release
     * whose last revision is pending (pkg/action/upgrade.go, Upgrade.prepareUpgrade, errPending "another operation
     * (install/upgrade/rollback) is in progress"); its rollback does not check the status and writes a new revision
     * from the target's chart and values (pkg/action/rollback.go, Rollback.prepareRollback), after which the
     * provider's next upgrade runs from a deployed release.
     */
    | { readonly kind: "rollback"; readonly release: ReleaseRef; readonly stuck: ReleaseRevision; readonly to: ReleaseRevision };

/**
 * The repairs of the releases in `revisions` (every Helm revision found in the stack's release namespaces) that
 * this stack's state names and whose newest revision is pending; and of those whose upgrade the interrupted run left
 * `failed` (`upgrading`: the releases of the state's pending updates).
 *
 * A failed upgrade is no lock, but once interrupted it is not retried. Ctrl-C lets the provider cancel Helm's upgrade,
 * which records it `failed` (pkg/action/upgrade.go, Upgrade.failRelease) with the new values; `mara up`'s refresh then
 * reads the release as those values, so the program asks for nothing new and the release would stay failed, its
 * objects half upgraded. Rolled back to its last deployed revision and read again, it is upgraded by this run.
 */
export function planReleaseRepairs(owned: readonly ReleaseRef[], revisions: readonly ReleaseRevision[], upgrading: readonly ReleaseRef[] = []): ReleaseRepair[] {
    const repairs: ReleaseRepair[] = [];
    const stuckOnes = stuckRevisions(revisions);
    for (const release of owned) {
        const history = historyOf(release, revisions);
        // Helm's upgrade starts from the last deployed revision, else the last superseded one (Upgrade.prepareUpgrade).
        const to = history.find((r) => r.status === "deployed") ?? history.find((r) => r.status === "superseded");
        const stuck = stuckOnes.find((s) => s.name === release.name && s.namespace === release.namespace);
        if (stuck) {
            repairs.push(to ? { kind: "rollback", release, stuck, to } : { kind: "remove", release, stuck, revisions: history });
            continue;
        }
        const failed = history[0]?.status === "failed" && upgrading.some((u) => u.name === release.name && u.namespace === release.namespace) ? history[0] : undefined;
        if (failed && to) repairs.push({ kind: "rollback", release, stuck: failed, to });
    }
    return repairs;
}

/**
 * The releases of the stack: those its state names, and those never deployed in a namespace its state holds. An
 * install that failed while it could not write its last record (the API server went away) leaves no trace in the state
 * but its namespace; a release is the platform's when its namespace is (the ownership rule's judgeRelease,
 * components/ownership/rule.ts). A release in such a namespace that was ever deployed is left alone unless the state
 * names it: the platform only upgrades releases it records.
 */
export function ownedReleases(state: StateFindings, revisions: readonly ReleaseRevision[]): ReleaseRef[] {
    const owned = [...state.releases];
    for (const r of revisions) {
        if (!state.namespaces.includes(r.namespace) || owned.some((o) => o.name === r.name && o.namespace === r.namespace)) continue;
        const history = revisions.filter((x) => x.name === r.name && x.namespace === r.namespace);
        if (history.every((x) => x.status !== "deployed" && x.status !== "superseded")) owned.push({ name: r.name, namespace: r.namespace });
    }
    return owned;
}

/**
 * A pending create of a Release that Helm did install: the provider's install ran (and may have finished) after the
 * engine recorded the create and before it recorded the result. A second install is refused ("cannot re-use a name
 * that is still in use", Install.availableName), so the run must not simply clear the create and install again.
 *
 * The engine's own answer, `pulumi refresh --import-pending-creates <urn> <id>`, does not import it: the CLI turns the
 * pending create into a pending import (pulumi/pulumi pkg/cmd/pulumi/operations/refresh.go, pendingCreatesToImports),
 * but the refresh reads only the state's resources, and its snapshot keeps only pending creates of the base
 * (pkg/backend/snapshot.go, snap), so the release is dropped from the state as `--clear-pending-creates` would. Seen on
 * Pulumi 3.276.0 with a self-managed backend: the release was then installed a second time and refused.
 *
 * So such a release is forgotten by Helm instead, as a never-deployed one is: its records are removed, and this run's
 * install adopts the objects they describe (they carry Helm's marks for this release: pkg/action/validate.go,
 * existingResourceConflict). Only in a namespace the stack made (its state holds the Namespace): there no one else's
 * release lives, so the install that left the records is this stack's. Elsewhere the records might be another's, and
 * the run stops with what to do instead ({@link UnrecordedElsewhere}).
 */
export interface UnrecordedRelease {
    readonly kind: "unrecorded";
    readonly urn: string;
    readonly release: ReleaseRef;
    /** The newest revision, not pending (a pending one is a {@link ReleaseRepair}). */
    readonly newest: ReleaseRevision;
    /** Every record of the release, each removed. */
    readonly revisions: readonly ReleaseRevision[];
}

/** A pending create of a Release that Helm has, in a namespace the stack did not make: mara does not remove it. */
export interface UnrecordedElsewhere {
    readonly urn: string;
    readonly release: ReleaseRef;
    readonly newest: ReleaseRevision;
}

/**
 * The pending creates of Releases that Helm has a record of and that no repair handles (the newest revision is not
 * pending): forgotten (their records removed) in a namespace the stack made, refused elsewhere.
 */
export function planUnrecorded(state: StateFindings, revisions: readonly ReleaseRevision[], repairs: readonly ReleaseRepair[]): { forget: UnrecordedRelease[]; refused: UnrecordedElsewhere[] } {
    const forget: UnrecordedRelease[] = [];
    const refused: UnrecordedElsewhere[] = [];
    for (const op of state.pending) {
        const r = op.release;
        if (op.operation !== "creating" || !r) continue;
        if (repairs.some((x) => x.release.name === r.name && x.release.namespace === r.namespace)) continue;
        const history = historyOf(r, revisions);
        const newest = history[0];
        if (!newest) continue;
        if (state.namespaces.includes(r.namespace)) forget.push({ kind: "unrecorded", urn: op.urn, release: r, newest, revisions: history });
        else refused.push({ urn: op.urn, release: r, newest });
    }
    return { forget, refused };
}

/** One line saying what was found about a release installed but not recorded, and what will be done. */
export function describeUnrecorded(u: UnrecordedRelease): string {
    return `Helm release ${u.release.namespace}/${u.release.name} was installed (revision ${u.newest.revision}, ${u.newest.status}) but the state never recorded it: removing its Helm records (${u.revisions.map((x) => x.secret).join(", ")}) so that it installs again; the objects it created are kept and adopted by the install`;
}

/** Why the run stops at a release installed but not recorded, outside the stack's namespaces, and what to do. */
export function refuseUnrecorded(u: UnrecordedElsewhere, stack: string): string {
    const { name, namespace } = u.release;
    return [
        `Helm release ${namespace}/${name} exists (revision ${u.newest.revision}, ${u.newest.status}) and the interrupted run was creating it, but its namespace ${namespace} is not one this stack made, so mara cannot tell whether that run installed it or someone else did; nothing was changed.`,
        `If this stack installed it, remove Helm's records of it (the objects stay, and the next install adopts them): kubectl delete secret --namespace ${namespace} --selector owner=helm,name=${name}`,
        `then run: npx mara up --stack ${stack}. If it is someone else's, mara leaves it alone, and this stack cannot install its own release of that name in ${namespace} until it is gone.`,
    ].join("\n");
}

/** One line saying what was found about a pending operation, in the words `mara up` prints. */
export function describePending(op: PendingOperation): string {
    const doing: Record<string, string> = { creating: "being created", updating: "being updated", deleting: "being deleted", reading: "being read" };
    return `${op.type} "${urnName(op.urn)}" was ${doing[op.operation] ?? `in operation "${op.operation}"`} when the last run stopped`;
}

/** One line saying what was found about a stuck release and what will be done. */
export function describeRepair(r: ReleaseRepair): string {
    const at = r.stuck.status === "failed"
        ? `Helm release ${r.release.namespace}/${r.release.name}'s upgrade was interrupted and failed (revision ${r.stuck.revision})`
        : `Helm release ${r.release.namespace}/${r.release.name} is stuck in ${r.stuck.status} (revision ${r.stuck.revision})`;
    if (r.kind === "rollback") return `${at}: rolling it back to revision ${r.to.revision} (${r.to.status}), as helm rollback does`;
    return `${at} and was never deployed: removing its Helm records (${r.revisions.map((x) => x.secret).join(", ")}) so that it installs again; the objects it created are kept and adopted by the install`;
}

/** One lock of a self-managed (file or bucket) backend, as Pulumi's "currently locked" error names it. */
export interface StateLock {
    readonly user: string;
    readonly host: string;
    readonly pid: number;
    readonly at: string;
}

/**
 * The locks a failed command's output names. A self-managed backend refuses an update while a lock file of another
 * process exists and lists each as `<url>: created by <user>@<host> (pid <pid>) at <time>` (pulumi/pulumi
 * pkg/backend/diy/lock.go, checkForLock); a process killed mid-run leaves its lock behind.
 */
export function locksNamed(output: string): StateLock[] {
    if (!output.includes("the stack is currently locked by")) return [];
    const locks: StateLock[] = [];
    for (const m of output.matchAll(/: created by ([^@\s]+)@(\S+) \(pid (\d{1,10})\) at (\S+)/g)) {
        const lock = { user: m[1]!, host: m[2]!, pid: Number(m[3]), at: m[4]! };
        // The error reaches us in more than one stream; each lock counts once.
        if (!locks.some((l) => l.host === lock.host && l.pid === lock.pid && l.at === lock.at)) locks.push(lock);
    }
    return locks;
}

/**
 * Whether every lock is stale: taken on this host by a process that no longer runs. A lock of another host, or of a
 * process that runs (or of a pid reused since, which cannot be told apart), is another run's, and is kept.
 */
export function allStale(locks: readonly StateLock[], hostname: string, running: (pid: number) => boolean): boolean {
    return locks.length > 0 && locks.every((l) => l.host === hostname && !running(l.pid));
}
