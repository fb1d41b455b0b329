/**
 * The child processes mara runs (credential plugins, docker version, the Pulumi CLI's queries) end within their
 * deadline whatever they do: a process that never exits is killed with the children it started (its process group),
 * one that writes without end is stopped at the cap, one that exits but leaves a child holding its output open does
 * not keep mara waiting for that child. Small shell scripts stand in for the tools.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { ProcessFailure, runBounded } from "../../host/boundedProcess";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-bounded-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const script = (name: string, body: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    return file;
};
const run = (file: string, over: { deadlineMs?: number; maxStdoutBytes?: number; stdin?: string } = {}) =>
    runBounded({ file, args: [], env: process.env, deadlineMs: over.deadlineMs ?? 30_000, maxStdoutBytes: over.maxStdoutBytes ?? 1024 * 1024, stdin: over.stdin });
const failure = async (p: Promise<unknown>) => {
    const e = await p.then(
        () => undefined,
        (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(ProcessFailure);
    return e as ProcessFailure;
};
/** Whether the process has ended (gone, or a zombie for a parent that is not us). */
const gone = (pid: number) => {
    try {
        process.kill(pid, 0);
    } catch {
        return true;
    }
    const stat = fs.existsSync(`/proc/${pid}/stat`) ? fs.readFileSync(`/proc/${pid}/stat`, "utf8") : "";
    return / Z /.test(stat.slice(stat.lastIndexOf(")")));
};

describe("runBounded", () => {
    it("returns the exit code, standard output and the end of standard error; standard input is given when asked", async () => {
        const r = await run(script("ok", `read line; echo "got $line"; echo "one" >&2; echo "two" >&2; exit 4`), { stdin: "hello\n" });
        expect(r).toEqual({ code: 4, signal: null, stdout: "got hello\n", stderrTail: "one\ntwo\n" });
    });

    it("keeps only the end of a long standard error", async () => {
        const r = await runBounded({ file: script("noisy", `head -c 100000 /dev/zero | tr '\\0' 'a' >&2; echo "the end" >&2`), args: [], env: process.env, deadlineMs: 30_000, maxStdoutBytes: 1024, stderrTailBytes: 64 });
        expect(r.stderrTail).toHaveLength(64);
        expect(r.stderrTail.endsWith("the end\n")).toBe(true);
    });

    it("a process that never exits: killed at the deadline with what it started", async () => {
        const pidFile = path.join(dir, "sleeper.pid");
        // Only the deadline can end this run (the script waits an hour): its message says it did.
        const e = await failure(run(script("hang", `sleep 3600 &\necho $! > "${pidFile}"\necho "still waiting" >&2\nwait`), { deadlineMs: 500 }));
        expect(e.kind).toBe("timeout");
        expect(e.message).toBe("did not finish within 0.5 s");
        expect(e.stderrTail).toBe("still waiting\n");
        // The child was killed with the group: it goes (the kill is asynchronous, so this waits for it), long before
        // its hour; were it left running, the test's timeout would fail the test.
        const pid = Number(fs.readFileSync(pidFile, "utf8"));
        while (!gone(pid)) await new Promise((r) => setTimeout(r, 100));
    }, 60_000);

    it("a process that writes without end: stopped at the cap", async () => {
        const e = await failure(run(script("flood", "cat /dev/zero"), { maxStdoutBytes: 1024 * 1024 }));
        expect(e.kind).toBe("too-much-output");
        expect(e.message).toBe("wrote more than 1048576 bytes on standard output");
    });

    it("a process that exits but leaves a child holding its output open: done soon after it exits, not at the deadline", async () => {
        const pidFile = path.join(dir, "orphan.pid");
        // A deadline of an hour and a child that holds the output for an hour: a run that waited for either would meet
        // the test's timeout instead. It ends with the process's own exit code, not a timeout, and the child it left
        // is stopped with its group.
        const r = await run(script("orphan", `echo "answer"\nsleep 3600 &\necho $! > "${pidFile}"\nexit 0`), { deadlineMs: 3_600_000 });
        expect(r).toMatchObject({ code: 0, stdout: "answer\n" });
        const pid = Number(fs.readFileSync(pidFile, "utf8"));
        while (!gone(pid)) await new Promise((r) => setTimeout(r, 100));
    }, 60_000);

    it("no such executable, and one that cannot be run", async () => {
        expect((await failure(run(path.join(dir, "missing")))).kind).toBe("not-found");
        const file = script("noexec", "exit 0");
        fs.chmodSync(file, 0o644);
        expect((await failure(run(file))).kind).toBe("not-executable");
    });
});
