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

/** One cloud's view of the cluster's leftovers. Implementations must only ever list resources that carry this cluster's tag or label. */
export interface DrainApi {
    /** The cloud and cluster, for messages ("AWS cluster mara-dev in us-east-1"). */
    readonly target: string;
    /** Resources of this cluster that still exist. */
    list(): Promise<LeftoverResource[]>;
    /** Deletes one resource; called only for resources `list` returned. */
    remove(resource: LeftoverResource): Promise<void>;
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
    /** Polls made. */
    readonly rounds: number;
}

const describe = (r: LeftoverResource) => `${r.kind} ${r.name ? `${r.name} (${r.id})` : r.id}`;

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
    let rounds = 0;

    for (;;) {
        rounds++;
        const left = await api.list();
        if (left.length === 0) {
            log(`${api.target}: no load balancers, interfaces or volumes left; the cluster can be deleted.`);
            return { deleted, rounds };
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
