/** The drain loop against an in-memory cloud: waiting, deleting after the grace period, retrying, giving up, reporting what it keeps. */
import { describe, expect, it } from "vitest";
import { drain, DrainApi, KeptResource, LeftoverResource } from "../../../components/drain/engine";
import { fakeClock } from "../../support/fakeClouds";

/** A cloud whose leftovers disappear by themselves at `goneAt`, or only when deleted. */
function fakeApi(
    resources: (LeftoverResource & { goneAt?: number })[],
    clock: { now: () => number },
    opts: { failFirstDelete?: boolean; kept?: KeptResource[] } = {},
): DrainApi & { removed: string[] } {
    const removed: string[] = [];
    let failed = false;
    return {
        target: "test cluster",
        removed,
        kept: opts.kept ?? [],
        async list() {
            return resources.filter((r) => !removed.includes(r.id) && (r.goneAt === undefined || clock.now() < r.goneAt));
        },
        async remove(r) {
            if (opts.failFirstDelete && !failed) {
                failed = true;
                throw new Error("DependencyViolation");
            }
            removed.push(r.id);
        },
    };
}

describe("drain engine", () => {
    it("waits while Kubernetes removes its load balancers itself, deleting nothing", async () => {
        const clock = fakeClock();
        const api = fakeApi([{ kind: "load balancer", id: "lb-1", deletable: true, goneAt: 60_000 }], clock);
        const log: string[] = [];
        const report = await drain(api, { ...clock, graceMs: 120_000, pollMs: 15_000, log: (m) => log.push(m) });
        expect(api.removed).toEqual([]);
        expect(report.deleted).toEqual([]);
        expect(log[0]).toBe("test cluster: waiting for Kubernetes to remove 1 resource(s): load balancer lb-1");
        expect(log.at(-1)).toBe("test cluster: nothing this cluster created is left; the cluster can be deleted.");
    });

    it("deletes leftovers after the grace period, retrying a delete that fails, and only deletable ones", async () => {
        const clock = fakeClock();
        const api = fakeApi(
            [
                { kind: "load balancer", id: "lb-1", deletable: true },
                { kind: "network interface", id: "eni-1", deletable: false, goneAt: 200_000 },
            ],
            clock,
            { failFirstDelete: true },
        );
        const report = await drain(api, { ...clock, graceMs: 120_000, pollMs: 15_000 });
        expect(api.removed).toEqual(["lb-1"]);
        expect(report.deleted.map((r) => r.id)).toEqual(["lb-1"]);
    });

    it("reports each kept resource once, with its reason, and returns them", async () => {
        const clock = fakeClock();
        const kept = [{ kind: "volume", id: "vol-9", name: "PersistentVolume pvc-9", reason: "its PersistentVolume's reclaim policy is Retain" }];
        const log: string[] = [];
        const report = await drain(fakeApi([{ kind: "volume", id: "vol-1", deletable: false, goneAt: 30_000 }], clock, { kept }), { ...clock, pollMs: 15_000, log: (m) => log.push(m) });
        expect(log.filter((m) => m.includes("vol-9"))).toEqual(["test cluster: keeps volume PersistentVolume pvc-9 (vol-9): its PersistentVolume's reclaim policy is Retain"]);
        expect(log.at(-1)).toBe("test cluster: nothing this cluster created is left (1 resource(s) kept, listed above); the cluster can be deleted.");
        expect(report.kept).toEqual(kept);
    });

    it("gives up after the timeout, naming what is left and what to do", async () => {
        const clock = fakeClock();
        const api = fakeApi([{ kind: "network interface", id: "eni-9", name: "ELB net/a1b2/123", deletable: false }], clock);
        await expect(drain(api, { ...clock, timeoutMs: 300_000, graceMs: 0, pollMs: 15_000 })).rejects.toThrow(
            "test cluster: 1 cloud resource(s) created by Kubernetes still exist after 5 min: network interface ELB net/a1b2/123 (eni-9). " +
                "They keep the cluster's network from being deleted. Delete them in the cloud console or CLI, then run `pulumi destroy` again.",
        );
    });
});
