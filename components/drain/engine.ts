/**
 * The drain loop, free of any cloud: given a view of the cloud resources Kubernetes created for one
 * cluster, wait for them to disappear, delete what is left once the cluster's own controllers had their
 * chance, and give up after a bounded time with a list of what remains. A transient fault of the cloud's
 * API (throttling, a 5xx, a dropped connection) is retried with backoff within that time; one that no
 * retry can fix (credentials, permissions) fails at once. Each cloud supplies a {@link DrainApi}; tests
 * supply in-memory fakes.
 */
import { classify, describeError, retryAfterMs } from "./faults";

/** A cloud resource created by Kubernetes for the cluster (a load balancer, its network interface, a volume). */
export interface LeftoverResource {
    /** What it is, for messages: "load balancer", "network interface", "security group", "volume". */
    readonly kind: string;
    /** The cloud's ID (ARN, UUID, numeric ID). */
    readonly id: string;
    /** A readable name, when it has one. */
    readonly name?: string;
    /** False while the resource cannot be deleted yet (an interface still attached, a volume in use). */
    readonly deletable: boolean;
    /** What a resource that is not deletable waits for, when the drain knows (for the log and the timeout's message). */
    readonly waitingFor?: string;
}

/** A resource the drain found but will not delete, and why. */
export interface KeptResource {
    /** What it is: "volume", "load balancer", ... */
    readonly kind: string;
    /** The cloud's ID, or the Kubernetes name when the cloud's is unknown. */
    readonly id: string;
    /** What names it in the cluster (the PersistentVolume, the Service), when known. */
    readonly name?: string;
    /** Why it is kept, for the log ("its PersistentVolume's reclaim policy is Retain"). */
    readonly reason: string;
}

/**
 * One cloud's view of the cluster's leftovers. Implementations list only what the cluster's own records
 * prove to be this cluster's (see records.ts), and put whatever they cannot prove in `kept`.
 */
export interface DrainApi {
    /** The cloud and cluster, for messages ("AWS cluster mara-dev in us-east-1"). */
    readonly target: string;
    /**
     * Resources of this cluster that still exist. The first call decides which they are (while the
     * cluster's Services still hold their load balancers); later calls only say which of those remain.
     */
    list(): Promise<LeftoverResource[]>;
    /** Deletes one resource; called only for resources `list` returned. */
    remove(resource: LeftoverResource): Promise<void>;
    /** What was found and is kept (retained, imported, or not proven this cluster's); filled as `list` learns it. */
    readonly kept: readonly KeptResource[];
}

/** Timing and side effects of {@link drain}, injectable for tests. */
export interface DrainOptions {
    /** Give up after this long. Default 15 minutes. */
    timeoutMs?: number;
    /** Let the cluster's controllers clean up on their own this long before deleting leftovers. Default 2 minutes. */
    graceMs?: number;
    /** Time between checks. Default 15 s. */
    pollMs?: number;
    /** First wait after a transient fault of the cloud's API; it doubles on each fault in a row, up to {@link MAX_BACKOFF_MS}. Default 1 s. */
    backoffMs?: number;
    /**
     * Runs once, right after the first successful look, before any waiting: the caller asks Kubernetes to
     * delete the LoadBalancer Services here, once the drain knows which load balancers are this cluster's.
     */
    afterFirstLook?: () => Promise<void>;
    /** Progress messages (Pulumi's log during `pulumi destroy`). */
    log?: (message: string) => void;
    sleep?: (ms: number) => Promise<void>;
    now?: () => number;
}

/** What the drain did. */
export interface DrainReport {
    /** Resources deleted by the drain itself. */
    readonly deleted: readonly LeftoverResource[];
    /** Resources found and left alone, with the reason. */
    readonly kept: readonly KeptResource[];
    /** Polls made. */
    readonly rounds: number;
}

const describe = (r: { kind: string; id: string; name?: string; waitingFor?: string }) =>
    `${r.kind} ${r.name ? `${r.name} (${r.id})` : r.id}${r.waitingFor ? ` [waits for ${r.waitingFor}]` : ""}`;

/** The longest wait between two attempts after transient faults in a row (unless the API asks for longer). */
export const MAX_BACKOFF_MS = 60_000;

const minutes = (ms: number) => Math.round(ms / 60_000);

/**
 * Waits until `api` lists nothing. After `graceMs` it deletes every deletable leftover (a failed delete
 * is retried on the next round: a load balancer's interfaces, for example, can only go once it is gone;
 * a delete answered "not found" is done). A transient fault of a list is retried with exponential backoff
 * (or after the `Retry-After` the API sent) until the deadline. Throws after `timeoutMs`, naming what is
 * left and why the cluster cannot be deleted yet, and at once on a fault no retry can fix.
 */
export async function drain(api: DrainApi, opts: DrainOptions = {}): Promise<DrainReport> {
    const timeoutMs = opts.timeoutMs ?? 15 * 60_000;
    const graceMs = opts.graceMs ?? 2 * 60_000;
    const pollMs = opts.pollMs ?? 15_000;
    const backoffMs = opts.backoffMs ?? 1_000;
    const log = opts.log ?? (() => undefined);
    const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const now = opts.now ?? Date.now;
    const start = now();
    const deleted: LeftoverResource[] = [];
    const attempted = new Set<string>();
    const reported = new Set<string>();
    let rounds = 0;
    let faultsInARow = 0;
    let lastSeen: LeftoverResource[] | undefined;
    let afterFirstLook = opts.afterFirstLook;

    /** One look at the cloud; undefined after a transient fault (it has already waited before the next try). */
    const look = async (): Promise<LeftoverResource[] | undefined> => {
        try {
            const left = await api.list();
            faultsInARow = 0;
            return left;
        } catch (e) {
            if (classify(e) === "fatal") throw new Error(`${api.target}: the cloud's API refused a list call, which no retry can fix: ${describeError(e)}`, { cause: e });
            faultsInARow++;
            const wait = Math.max(retryAfterMs(e, now()) ?? 0, Math.min(backoffMs * 2 ** (faultsInARow - 1), MAX_BACKOFF_MS));
            if (now() + wait - start >= timeoutMs) {
                const still = lastSeen?.length ? ` Last seen still there: ${lastSeen.map(describe).join(", ")}.` : "";
                throw new Error(
                    `${api.target}: the cloud's API kept failing for ${minutes(timeoutMs)} min (last: ${describeError(e)}), so the drain cannot tell whether what this cluster created is gone.${still} ` +
                        `Run \`pulumi destroy\` again once the API answers.`,
                    { cause: e },
                );
            }
            log(`${api.target}: could not list its resources (${describeError(e)}); trying again in ${Math.ceil(wait / 1000)} s`);
            await sleep(wait);
            return undefined;
        }
    };

    for (;;) {
        rounds++;
        const left = await look();
        if (!left) continue;
        lastSeen = left;
        for (const k of api.kept.filter((k) => !reported.has(`${k.kind}/${k.id}`))) {
            reported.add(`${k.kind}/${k.id}`);
            log(`${api.target}: keeps ${describe(k)}: ${k.reason}`);
        }
        if (afterFirstLook) {
            const hook = afterFirstLook;
            afterFirstLook = undefined;
            await hook();
            continue;
        }
        if (left.length === 0) {
            log(`${api.target}: nothing this cluster created is left${api.kept.length ? ` (${api.kept.length} resource(s) kept, listed above)` : ""}; the cluster can be deleted.`);
            return { deleted, kept: [...api.kept], rounds };
        }
        const elapsed = now() - start;
        if (elapsed >= timeoutMs) {
            throw new Error(
                `${api.target}: ${left.length} cloud resource(s) created by Kubernetes still exist after ${minutes(timeoutMs)} min: ` +
                    `${left.map(describe).join(", ")}. They keep the cluster's network from being deleted. ` +
                    `Delete them in the cloud console or CLI, then run \`pulumi destroy\` again.`,
            );
        }
        if (elapsed < graceMs) {
            log(`${api.target}: waiting for Kubernetes to remove ${left.length} resource(s): ${left.map(describe).join(", ")}`);
        } else {
            for (const r of left.filter((x) => x.deletable)) {
                try {
                    await api.remove(r);
                    if (!attempted.has(r.id)) deleted.push(r);
                    attempted.add(r.id);
                    log(`${api.target}: deleted leftover ${describe(r)}`);
                } catch (e) {
                    if (classify(e) === "gone") log(`${api.target}: ${describe(r)} is already gone`);
                    else log(`${api.target}: could not delete ${describe(r)} yet (${describeError(e)}); will retry`);
                }
            }
            const waiting = left.filter((x) => !x.deletable);
            if (waiting.length) log(`${api.target}: waiting for ${waiting.map(describe).join(", ")} to be released`);
        }
        await sleep(pollMs);
    }
}
