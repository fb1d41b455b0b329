/**
 * The engine benchmarks' arguments (test/engine/bench.ts, benchSideBySide.ts), run as `npm run bench:engine*` runs
 * them: each round deploys the platform from nothing, so a wrong comparison or round count is refused with the values
 * allowed and a command to run, before any cluster starts (the refusal comes before any binary is looked for: these
 * run where the engine binaries were never built).
 */
import { spawnSync } from "child_process";
import * as path from "path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..", "..");
const run = (script: string, ...args: string[]) => spawnSync(process.execPath, ["-r", "sucrase/register/ts", path.join(ROOT, "test", "engine", script), ...args], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });

describe("the engine benchmarks' arguments", () => {
    it.each(["bogus", "constructor", "__proto__", ""])("benchSideBySide refuses the comparison %j, naming those that exist", (comparison) => {
        const r = run("benchSideBySide.ts", comparison, "1");
        expect(r.status).toBe(1);
        expect(r.stderr).toContain(`the comparison must be one of pace, checkpoints; got "${comparison}". Run: npm run bench:engine:pace 3`);
        expect(r.stderr).not.toMatch(/\n\s+at /);
    });

    it.each(["0", "21", "2x", "-1", "1e1"])("refuses the round count %j before any cluster starts", (rounds) => {
        const side = run("benchSideBySide.ts", "checkpoints", rounds);
        expect(side.status).toBe(1);
        expect(side.stderr).toContain(`rounds must be a whole number from 1 to 20 (each round deploys the platform from nothing); got "${rounds}". Run: npm run bench:engine:checkpoints 3`);
        const bench = run("bench.ts", rounds);
        expect(bench.status).toBe(1);
        expect(bench.stderr).toContain(`got "${rounds}". Run: npm run bench:engine 3`);
    });
});
