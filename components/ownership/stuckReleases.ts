/**
 * A `pulumi up` run directly on a stack that an interrupted run left with a Helm release stuck in a pending status:
 * Helm refuses every install and upgrade of that release ("another operation (install/upgrade/rollback) is in
 * progress", "cannot re-use a name that is still in use"), and neither message says what repairs it. Before anything
 * of the platform is deployed, the program reads the records of the releases it installs and, if the newest revision
 * of one is pending, stops the run with the list and the `mara` command that repairs it (cli/operation/recovery, docs/deploy.md
 * "An interrupted run"). `mara up` repairs first, so its own `pulumi up` passes.
 *
 * Runs in the program's process at deployment only: a preview never reads the cluster, and neither do the test mocks
 * or the offline runner, which have no engine. Reads only metadata, through the ownership guard's bounded reader
 * (./clusterReader.ts: one total deadline, a byte cap per answer, a page cap). A cluster that cannot be read is no
 * reason to stop here: the check only names a repair; the run goes on and meets whatever Helm or the provider says.
 */
import * as pulumi from "@pulumi/pulumi";
import { ReleaseRevision, revisionOfRecord, stuckRevisions } from "../../contracts/helmRecords";
import { ReleaseRef, releaseRecordPaths } from "./claims";
import { ClusterAccess, isClusterReadError, kubeconfigReader, MetadataReader, ReadBounds } from "./clusterReader";

/** The whole check within 30 s; 1 MiB per answer (metadata of one release's records); four reads at a time. */
export const STUCK_READ_BOUNDS: ReadBounds = { totalMs: 30_000, answerBytes: 1024 * 1024, concurrency: 4 };

/** The command that repairs a stack an interrupted run left, as cli/operation/recovery/repair.ts's `repairCommand` names it. */
export const repairCommandFor = (stack: string) => `npx mara up --stack ${stack}`;

/** The newest revision of each of `releases` that is pending, read through `reader` from both of Helm's stores. */
export async function findStuckReleases(reader: MetadataReader, releases: readonly ReleaseRef[]): Promise<ReleaseRevision[]> {
    const found = await Promise.all(releases.map((r) => Promise.all(releaseRecordPaths(r).map((p) => reader.list(p)))));
    const revisions: ReleaseRevision[] = [];
    releases.forEach((release, i) => {
        for (const meta of found[i]!.flat()) {
            const rev = revisionOfRecord(meta);
            // The label selector asked for this release's records; anything else in the answer is not taken on its word.
            if (rev && rev.name === release.name && rev.namespace === release.namespace) revisions.push(rev);
        }
    });
    return stuckRevisions(revisions);
}

/** The error a run stops with when releases are stuck: each one, and the command that repairs them. */
export function stuckReleasesMessage(stuck: readonly ReleaseRevision[], stack: string, server: string): string {
    return [
        `Helm release(s) of this stack on ${server} are stuck from an interrupted run, and Helm refuses to install or upgrade them ("another operation (install/upgrade/rollback) is in progress"), so this run deployed nothing to the cluster:`,
        ...stuck.map((s) => `  - ${s.namespace}/${s.name} is stuck in ${s.status} (revision ${s.revision})`),
        `Run \`${repairCommandFor(stack)}\`: it repairs what an interrupted run left (the stuck releases, the state's pending operations, a stale lock) and then deploys; see "An interrupted run" in docs/deploy.md. If another Helm or Pulumi run is working on these releases, wait for it to end instead.`,
    ].join("\n");
}

/** How {@link refuseStuckReleases} reads the cluster and reports what it could not read; tests replace them. */
export interface StuckCheckIo {
    /** Makes the reader of object metadata for the cluster `access` reaches (bounded in time and bytes by default). */
    readonly reader: (access: ClusterAccess) => MetadataReader;
    /** Reports that the cluster could not be read, so the check was skipped (Pulumi's warning by default). */
    readonly warn: (message: string) => void;
}

const DEFAULT_IO: StuckCheckIo = { reader: (access) => kubeconfigReader(access, STUCK_READ_BOUNDS), warn: (m) => void pulumi.log.warn(m) };

/**
 * Stops the run with {@link stuckReleasesMessage} (a `RunError`: Pulumi prints it without a stack trace) when one of
 * `releases` on the cluster `access` reaches is stuck; warns and returns when the cluster cannot be read.
 */
export async function refuseStuckReleases(access: ClusterAccess, releases: readonly ReleaseRef[], stack: string, io: StuckCheckIo = DEFAULT_IO): Promise<void> {
    if (!releases.length) return;
    let reader: MetadataReader;
    let stuck: ReleaseRevision[];
    try {
        reader = io.reader(access);
        stuck = await findStuckReleases(reader, releases);
    } catch (e) {
        if (!isClusterReadError(e)) throw e;
        io.warn(`The platform could not check its Helm releases for a stuck install or upgrade of an interrupted run (${e.message}); deploying anyway. If Helm then says "another operation (install/upgrade/rollback) is in progress", run: ${repairCommandFor(stack)}`);
        return;
    }
    if (stuck.length) throw fixedRunError(stuckReleasesMessage(stuck, stack, reader.server));
}

/**
 * A RunError whose message stays as written. The SDK prepends `error serializing property "<name>": ` to the message
 * of the error that rejects an input, on the error itself (@pulumi/pulumi runtime/rpc.js, serializeProperties), once
 * for every property of every resource the rejection passes through; the guard's kubeconfig is what every Kubernetes
 * object waits on, so the message would come after dozens of them.
 */
export function fixedRunError(message: string): pulumi.RunError {
    const e = new pulumi.RunError(message);
    Object.defineProperty(e, "message", { get: () => message, set: () => undefined, enumerable: false, configurable: false });
    return e;
}

/**
 * Whether this run deploys with a real engine: not a preview (which must not read the cluster), and not under the
 * test mocks or the offline runner (`pulumi.runtime.setMocks` sets no engine address, so there is no engine).
 */
export const deploysWithEngine = () => !pulumi.runtime.isDryRun() && pulumi.runtime.getEngine() !== undefined;
