/**
 * `npm run bench:traces`'s round count (bench/stackTraces.ts), run as npm runs it: each round runs `mara plan` and a
 * test file twice, so a count that is not a whole number from 1 to 20 is refused with a command to run, before any.
 */
import { spawnSync } from "child_process";
import * as path from "path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..", "..");

describe("bench:traces's arguments", () => {
    it.each(["0", "21", "2x", "-1", "1e1", ""])("refuses the round count %j before it runs anything", (rounds) => {
        const r = spawnSync(process.execPath, ["-r", "sucrase/register/ts", path.join(ROOT, "bench", "stackTraces.ts"), rounds], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
        expect(r.status).toBe(2);
        expect(r.stderr).toContain(`rounds: "${rounds}" is not a whole number from 1 to 20; run, for example: npm run bench:traces -- 3`);
        expect(r.stderr).not.toMatch(/\n\s+at /);
        expect(r.stdout).not.toContain("round 1");
    });
});
