/**
 * The Pulumi CLI's queries (version, stack selection, configuration, outputs) run within their bound, in a process
 * group the deadline kills, with the Automation API's own errors; the operations (`up` and the others) are not
 * bounded by it, as a deploy takes as long as the cloud takes. A `pulumi` script stands in for the CLI: one that
 * hangs on every query.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulumiCli, withBoundedQueries } from "../../cli/stack/pulumi";
import { UNBOUNDED_PULUMI_COMMANDS } from "../../host/pulumiLimits";
import { outputsFromPulumi } from "../../render/stackOutputs";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-pulumi-"));
const bin = path.join(dir, "bin");
let savedPath: string | undefined;

/** Writes the stand-in `pulumi`: `body` is a shell `case` on its first argument. */
function standIn(body: string): void {
    fs.writeFileSync(path.join(bin, "pulumi"), `#!/bin/sh\ncase "$1" in\n${body}\nesac\n`, { mode: 0o755 });
}

beforeAll(() => {
    fs.mkdirSync(bin);
    savedPath = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${process.env.PATH}`;
});
afterAll(() => {
    process.env.PATH = savedPath;
    fs.rmSync(dir, { recursive: true, force: true });
});

type Runner = { run(args: string[], cwd: string, env: Record<string, string>): Promise<{ stdout: string }> };

describe("the Pulumi CLI's queries", () => {
    it("`pulumi version` that never answers: refused at the bound, as a pre-flight failure", async () => {
        // The stand-in sleeps an hour: only the bound can end the query, and the message says it did.
        standIn(`version) sleep 3600;;`);
        await expect(pulumiCli(500)).rejects.toMatchObject({ exitCode: 3, message: expect.stringContaining("`pulumi version` did not finish within 0.5 s; is the Pulumi CLI working?") });
    });

    it("a query that never answers (a state backend that hangs): stopped at the bound, with the API's own error type", async () => {
        standIn(`version) echo v3.200.0;;\n*) sleep 3600;;`);
        const cmd = (await pulumiCli(500)) as unknown as Runner;
        const e = await cmd.run(["stack", "output", "--json", "--stack", "dev"], dir, {}).then(
            () => undefined,
            (err: unknown) => err as Error & { commandResult?: { stderr: string } },
        );
        expect(e?.name).toBe("CommandError");
        expect(e?.commandResult?.stderr).toContain("`pulumi stack output` did not finish within 0.5 s and was stopped; is the state backend reachable?");
    });

    it("a failing query keeps the API's error classes (a missing stack is a StackNotFoundError)", async () => {
        standIn(`version) echo v3.200.0;;\n*) echo "error: no stack named 'dev' found" >&2; exit 255;;`);
        const cmd = (await pulumiCli(5000)) as unknown as Runner;
        await expect(cmd.run(["stack", "select", "--stack", "dev"], dir, {})).rejects.toMatchObject({ name: "StackNotFoundError" });
    });

    it("the operations are not bounded by it: an `up` longer than the query bound runs to its end", async () => {
        standIn(`version) echo v3.200.0;;\nup) sleep 1; echo deployed;;`);
        const cmd = withBoundedQueries(await pulumiCli(5000), 200) as unknown as Runner;
        expect((await cmd.run(["up", "--yes"], dir, {})).stdout).toContain("deployed");
        expect(UNBOUNDED_PULUMI_COMMANDS).toEqual(["up", "preview", "destroy", "refresh", "import"]);
    });

    it("render's `pulumi stack output` that prints something other than JSON: says where it stops being JSON", async () => {
        standIn(`stack) echo "warning: the update check failed"; echo '{}';;`);
        await expect(outputsFromPulumi("dev", dir, process.env)).rejects.toThrow("the output of `pulumi stack output --json --stack dev` is not JSON (from line 1, column 1)");
    });
});
