/**
 * Short stack traces while the program runs offline (offline/stackTraces.ts): three frames inside the run, V8's
 * default restored after it (a failed run too), and a limit of the process's own, or PULUMI_DEBUG_PROMISE_LEAKS, left
 * as it is.
 */
import { afterEach, describe, expect, it } from "vitest";
import { OFFLINE_STACK_FRAMES, withShortStackTraces } from "../../offline/stackTraces";

const DEFAULT = 10;
afterEach(() => {
    Error.stackTraceLimit = DEFAULT;
});

/** How many frames an Error made now carries, called through a chain deeper than any limit here. */
function framesNow(depth = 20): number {
    if (depth > 0) return framesNow(depth - 1);
    return (new Error("here").stack ?? "").split("\n").filter((l) => /^\s+at /.test(l)).length;
}

describe("withShortStackTraces", () => {
    it("keeps the innermost frames while the run lasts, and restores V8's default after it", async () => {
        expect(Error.stackTraceLimit).toBe(DEFAULT);
        const inside = await withShortStackTraces(async () => {
            await Promise.resolve();
            return framesNow();
        }, {});
        expect(inside).toBe(OFFLINE_STACK_FRAMES);
        expect(Error.stackTraceLimit).toBe(DEFAULT);
        expect(framesNow()).toBe(DEFAULT);
    });

    it("restores the limit when the run fails, and passes its error on", async () => {
        await expect(withShortStackTraces(() => Promise.reject(new Error("the program failed")), {})).rejects.toThrow("the program failed");
        expect(Error.stackTraceLimit).toBe(DEFAULT);
    });

    it("reads PULUMI_DEBUG_PROMISE_LEAKS as the SDK does (runtime/debuggable.js: set and not empty), even as \"0\"", async () => {
        expect(await withShortStackTraces(async () => Error.stackTraceLimit, { PULUMI_DEBUG_PROMISE_LEAKS: "" })).toBe(OFFLINE_STACK_FRAMES);
        expect(await withShortStackTraces(async () => Error.stackTraceLimit, { PULUMI_DEBUG_PROMISE_LEAKS: "0" })).toBe(DEFAULT);
    });

    it("leaves every frame with PULUMI_DEBUG_PROMISE_LEAKS, and a limit the process chose", async () => {
        expect(await withShortStackTraces(async () => framesNow(), { PULUMI_DEBUG_PROMISE_LEAKS: "1" })).toBe(DEFAULT);
        Error.stackTraceLimit = 50;
        expect(await withShortStackTraces(async () => Error.stackTraceLimit, {})).toBe(50);
        expect(Error.stackTraceLimit).toBe(50);
    });

    it("leaves the limit to the outermost of nested runs", async () => {
        const seen = await withShortStackTraces(async () => {
            const inner = await withShortStackTraces(async () => Error.stackTraceLimit, {});
            return [inner, Error.stackTraceLimit];
        }, {});
        expect(seen).toEqual([OFFLINE_STACK_FRAMES, OFFLINE_STACK_FRAMES]);
        expect(Error.stackTraceLimit).toBe(DEFAULT);
    });
});
