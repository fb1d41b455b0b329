/**
 * The drain loop, free of any cloud: given a view of the cloud resources Kubernetes created for one
 * cluster, wait for them to disappear, delete what is left once the cluster's own controllers had their
 * chance, and give up after a bounded time with a list of what remains. Each cloud supplies a
 * {@link DrainApi}; tests supply in-memory fakes.
 */

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
    /** Resources of this cluster that still exist. */
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

const describe = (r: { kind: string; id: string; name?: string }) => `${r.kind} ${r.name ? `${r.name} (${r.id})` : r.id}`;

/**
 * Waits until `api` lists nothing. After `graceMs` it deletes every deletable leftover (a failed delete
 * is retried on the next round: a load balancer's interfaces, for example, can only go once it is gone).
 * Throws after `timeoutMs`, naming what is left and why the cluster cannot be deleted yet.
 */
export async function drain(api: DrainApi, opts: DrainOptions = {}): Promise<DrainReport> {
    const timeoutMs = opts.timeoutMs ?? 15 * 60_000;
    const graceMs = opts.graceMs ?? 2 * 60_000;
    const pollMs = opts.pollMs ?? 15_000;
    const log = opts.log ?? (() => undefined);
    const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const now = opts.now ?? Date.now;
    const start = now();
    const deleted: LeftoverResource[] = [];
    const attempted = new Set<string>();
    const reported = new Set<string>();
    let rounds = 0;

    for (;;) {
        rounds++;
        const left = await api.list();
        for (const k of api.kept.filter((k) => !reported.has(`${k.kind}/${k.id}`))) {
            reported.add(`${k.kind}/${k.id}`);
            log(`${api.target}: keeps ${describe(k)}: ${k.reason}`);
        }
        if (left.length === 0) {
            log(`${api.target}: nothing this cluster created is left${api.kept.length ? ` (${api.kept.length} resource(s) kept, listed above)` : ""}; the cluster can be deleted.`);
            return { deleted, kept: [...api.kept], rounds };
        }
        const elapsed = now() - start;
        if (elapsed >= timeoutMs) {
            throw new Error(
                `${api.target}: ${left.length} cloud resource(s) created by Kubernetes still exist after ${Math.round(timeoutMs / 60_000)} min: ` +
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
                    log(`${api.target}: could not delete ${describe(r)} yet (${(e as Error).message}); will retry`);
                }
            }
            const waiting = left.filter((x) => !x.deletable);
            if (waiting.length) log(`${api.target}: waiting for ${waiting.map(describe).join(", ")} to be released`);
        }
        await sleep(pollMs);
    }
}
