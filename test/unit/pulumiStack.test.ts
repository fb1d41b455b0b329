/**
 * One stack-name rule: the pattern `mara init`, `--stack` and the Backstage form use gives the verdicts of
 * `operatorStackProblem`, which spells out Pulumi's `validateStackName` part by part.
 */
import { describe, expect, it } from "vitest";
import { operatorStackProblem, STACK_NAME_PATTERN } from "../../contracts/pulumiStack";

const CHARS = "aZ09_.-/ é.";

/** Deterministic names: every string of up to four characters from CHARS, and long parts around 100. */
function names(): string[] {
    const out: string[] = [""];
    let frontier = [""];
    for (let n = 1; n <= 4; n++) {
        frontier = frontier.flatMap((s) => [...CHARS].map((c) => s + c));
        out.push(...frontier);
    }
    for (const len of [99, 100, 101]) {
        const p = "a".repeat(len);
        out.push(p, `org/${p}`, `org/project/${p}`, `${p}/stack`, `${".".repeat(len)}`);
    }
    return out;
}

describe("the stack name rule", () => {
    it("the pattern and the part-by-part check agree on every name of up to four characters and on parts of 99 to 101", () => {
        const all = names();
        expect(all.length).toBeGreaterThan(10_000);
        const disagree = all.filter((name) => STACK_NAME_PATTERN.test(name) !== (operatorStackProblem(name) === undefined));
        expect(disagree).toEqual([]);
    });

    it.each([
        ["dev", true],
        ["acme/platform/prod", true],
        ["a".repeat(100), true],
        ["a".repeat(101), false],
        ["a/b/c/d", false],
        ["..", false],
        ["a/../b", false],
        ["dev stack", false],
    ])("%j: %s", (name, ok) => {
        expect(STACK_NAME_PATTERN.test(name)).toBe(ok);
    });
});
