/** The drain loop against an in-memory cloud: waiting, deleting after the grace period, retrying, giving up, reporting what it keeps. */
import { describe, expect, it } from "vitest";
import { drain, DrainApi, KeptResource, LeftoverResource, MAX_BACKOFF_MS } from "../../../components/drain/engine";
import { HttpStatusError } from "../../../components/drain/faults";
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

    it("retries a list that fails transiently, doubling the wait, and runs the first-look step once, after the first answer", async () => {
        const clock = fakeClock();
        const sleeps: number[] = [];
        const events: string[] = [];
        let failures = 3;
        const api = fakeApi([{ kind: "load balancer", id: "lb-1", deletable: false, goneAt: 0 }], clock);
        const list = api.list.bind(api);
        api.list = async () => {
            if (failures-- > 0) {
                events.push("fault");
                throw new HttpStatusError("503 Service Unavailable", 503);
            }
            events.push("list");
            return list();
        };
        const report = await drain(api, {
            ...clock,
            sleep: async (ms) => {
                sleeps.push(ms);
                await clock.sleep(ms);
            },
            afterFirstLook: async () => void events.push("first look done"),
        });
        expect(events).toEqual(["fault", "fault", "fault", "list", "first look done", "list"]);
        expect(sleeps).toEqual([1_000, 2_000, 4_000]);
        expect(report.deleted).toEqual([]);
    });

    it("waits as long as the API's Retry-After asks, and never longer than the backoff's cap otherwise", async () => {
        const clock = fakeClock();
        const sleeps: number[] = [];
        const faults = [new HttpStatusError("429 Too Many Requests", 429, 42_000), ...Array.from({ length: 8 }, () => new HttpStatusError("502 Bad Gateway", 502))];
        const api = fakeApi([], clock);
        api.list = async () => {
            const f = faults.shift();
            if (f) throw f;
            return [];
        };
        await drain(api, { ...clock, sleep: async (ms) => void sleeps.push(ms) });
        expect(sleeps[0]).toBe(42_000);
        // The count restarts at 1 s after the Retry-After wait (it was the first fault in a row) and stops at the cap.
        expect(sleeps.slice(1)).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, MAX_BACKOFF_MS, MAX_BACKOFF_MS, MAX_BACKOFF_MS]);
    });

    it("fails at once on a fault no retry can fix, and at the deadline when transient faults never stop", async () => {
        const refused = fakeApi([], fakeClock());
        refused.list = async () => {
            throw Object.assign(new Error("Unable to authenticate you"), { status: 401 });
        };
        await expect(drain(refused, { ...fakeClock() })).rejects.toThrow("test cluster: the cloud's API refused a list call, which no retry can fix: Unable to authenticate you");

        const clock = fakeClock();
        const down = fakeApi([], clock);
        down.list = async () => {
            throw Object.assign(new Error("fetch failed"), { cause: { code: "ECONNRESET" } });
        };
        await expect(drain(down, { ...clock, timeoutMs: 120_000 })).rejects.toThrow(/test cluster: the cloud's API kept failing for 2 min \(last: ECONNRESET: fetch failed\)/);
        expect(clock.now()).toBeLessThan(120_000);
    });

    it("counts a delete answered 'not found' as done, not as a failure to retry", async () => {
        const clock = fakeClock();
        const log: string[] = [];
        const api = fakeApi([{ kind: "volume", id: "vol-1", deletable: true, goneAt: 200_000 }], clock);
        api.remove = async () => {
            throw Object.assign(new Error("The volume 'vol-1' does not exist."), { name: "InvalidVolume.NotFound" });
        };
        const report = await drain(api, { ...clock, graceMs: 120_000, pollMs: 15_000, log: (m) => log.push(m) });
        expect(log).toContain("test cluster: volume vol-1 is already gone");
        expect(log.some((m) => m.includes("will retry"))).toBe(false);
        expect(report.deleted).toEqual([]);
    });
});
