/**
 * `npm run test:load`'s runner (test/support/underLoad.ts), run for real: the CPU-bound processes it starts are busy
 * while the command runs and gone when it ends, whether the command exits, the runner is told to stop, or the runner
 * is killed with SIGKILL (no handler sees that: each busy process notices its parent gone and stops by itself). The
 * exit code is the command's.
 */
import { ChildProcess, spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.join(__dirname, "..", "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-under-load-"));
const leftOver: number[] = [];
afterAll(() => {
    for (const pid of leftOver) if (!gone(pid)) process.kill(pid, "SIGKILL");
    fs.rmSync(dir, { recursive: true, force: true });
});

/** The state letter of a process in /proc (R running or runnable, S sleeping, Z a zombie), or undefined if gone. */
function state(pid: number): string | undefined {
    try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
        return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    } catch {
        return undefined;
    }
}
/** Gone, or a zombie waiting for a parent that is not us to reap it: no longer running either way. */
const gone = (pid: number) => state(pid) === undefined || state(pid) === "Z";
const untilGone = async (pid: number) => {
    // The kill is asynchronous; the test's timeout is the safety net.
    while (!gone(pid)) await new Promise((r) => setTimeout(r, 50));
};

/** A command that writes its pid to a file and waits an hour; SIGTERM makes it exit 3. */
function waitingCommand(name: string): { args: string[]; pid: () => Promise<number> } {
    const file = path.join(dir, `${name}.pid`);
    const script = `process.on("SIGTERM", () => process.exit(3)); require("fs").writeFileSync(${JSON.stringify(file)}, String(process.pid)); setTimeout(() => {}, 3_600_000);`;
    return {
        args: [process.execPath, "-e", script],
        pid: async () => {
            while (!fs.existsSync(file) || fs.readFileSync(file, "utf8") === "") await new Promise((r) => setTimeout(r, 50));
            const pid = Number(fs.readFileSync(file, "utf8"));
            leftOver.push(pid);
            return pid;
        },
    };
}

/** Starts the runner with `command`; resolves the busy processes' ids from its first line, and how it ended. */
function underLoad(command: string[], env: NodeJS.ProcessEnv = process.env) {
    const runner: ChildProcess = spawn(process.execPath, ["-r", "sucrase/register/ts", path.join(ROOT, "test", "support", "underLoad.ts"), ...command], { cwd: ROOT, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    const busy = new Promise<number[]>((resolve) => {
        runner.stderr!.on("data", (c: Buffer) => {
            stderr += c.toString();
            const m = /pids (none|[\d, ]+)\)/.exec(stderr);
            if (m) resolve(m[1] === "none" ? [] : m[1]!.split(", ").map(Number));
        });
    });
    // When it has exited and its output is closed (the command shares that output, so it must have ended too).
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => runner.on("close", (code, signal) => resolve({ code, signal, stderr })));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => runner.on("exit", (_code, signal) => resolve(signal)));
    return { runner, busy, ended, exited };
}

describe("npm run test:load's runner", () => {
    it("runs two busy processes beside the command, stops them when it exits, and exits with its code", async () => {
        const command = waitingCommand("exits");
        const { busy, ended } = underLoad(command.args);
        const pids = await busy;
        expect(pids).toHaveLength(2);
        // Busy: once started, each is running or waiting for a core, never asleep (the test's timeout is the net).
        for (const pid of pids) while (state(pid) !== "R") await new Promise((r) => setTimeout(r, 50));
        expect(pids.map(state)).toEqual(["R", "R"]);
        // The command exits 3 of its own accord (SIGTERM sent to it alone, not to the runner).
        process.kill(await command.pid(), "SIGTERM");
        const end = await ended;
        expect(end.code, end.stderr).toBe(3);
        expect(end.stderr).toContain("exited 3 after");
        for (const pid of pids) expect(gone(pid), `busy process ${pid} outlived the run`).toBe(true);
    }, 120_000);

    it("told to stop (SIGTERM), passes it on, stops the busy processes, and exits as the command did", async () => {
        const command = waitingCommand("terminated");
        const { runner, busy, ended } = underLoad(command.args);
        const pids = await busy;
        const pid = await command.pid();
        runner.kill("SIGTERM");
        const end = await ended;
        // The command exits 3 on SIGTERM: the runner passed the signal on and took the command's code.
        expect(end.code, end.stderr).toBe(3);
        expect(end.stderr).toContain("exited 3 after");
        await untilGone(pid);
        for (const p of pids) expect(gone(p), `busy process ${p} outlived the run`).toBe(true);
    }, 120_000);

    it("killed with SIGKILL, leaves no busy process behind: each stops by itself", async () => {
        const command = waitingCommand("killed");
        const { runner, busy, exited } = underLoad(command.args);
        const pids = await busy;
        await command.pid();
        runner.kill("SIGKILL");
        expect(await exited).toBe("SIGKILL");
        for (const pid of pids) await untilGone(pid);
    }, 120_000);

    it("takes another number of busy processes from TEST_LOAD_PROCESSES, and refuses one that is not a number", async () => {
        const none = underLoad([process.execPath, "-e", "0"], { ...process.env, TEST_LOAD_PROCESSES: "0" });
        expect(await none.busy).toEqual([]);
        expect((await none.ended).code).toBe(0);
        const wrong = await underLoad([process.execPath, "-e", "0"], { ...process.env, TEST_LOAD_PROCESSES: "two" }).ended;
        expect(wrong.code).toBe(2);
        expect(wrong.stderr).toBe('test:load: TEST_LOAD_PROCESSES is "two"; give a whole number from 0 to 64 (the number of CPU-bound processes), or leave it unset for 2.\n');
    }, 120_000);
});
