/**
 * `npm run test:load`: runs a command (the offline tiers: `vitest run`) with CPU-bound processes running beside it, as
 * on a laptop or a CI machine shared with other work, so a test that only passes on an idle machine fails here rather
 * than for a user. The busy processes end when the command ends, whatever ends it: its own exit, Ctrl-C, a signal to
 * this script. Each one also watches its parent and stops by itself when this script is gone (killed with SIGKILL,
 * which no handler sees). The exit code is the command's.
 *
 * Usage: node -r sucrase/register/ts test/support/underLoad.ts <command> [args...]
 * Environment: TEST_LOAD_PROCESSES, how many busy processes (default 2, one per core of the machine CI runs on).
 */
import { ChildProcess, spawn } from "child_process";
import * as os from "os";
import * as path from "path";

const ROOT = path.join(__dirname, "..", "..");

/**
 * What each busy process runs: a loop that never sleeps, looking up from it every 50 ms only to see whether the
 * process that started it is still its parent (Node reads the parent's id from the system each time).
 */
const BUSY_LOOP = `const parent = Number(process.argv[1]);
for (;;) {
    const until = Date.now() + 50;
    while (Date.now() < until);
    if (process.ppid !== parent) process.exit(0);
}`;

/** How many busy processes: TEST_LOAD_PROCESSES, a whole number from 0 to 64; 2 when unset. */
function processCount(value: string | undefined): number {
    if (value === undefined || value === "") return 2;
    if (!/^\d+$/.test(value) || Number(value) > 64) {
        process.stderr.write(`test:load: TEST_LOAD_PROCESSES is "${value}"; give a whole number from 0 to 64 (the number of CPU-bound processes), or leave it unset for 2.\n`);
        process.exit(2);
    }
    return Number(value);
}

function main(argv: readonly string[]): void {
    if (argv.length === 0) {
        process.stderr.write("usage: node -r sucrase/register/ts test/support/underLoad.ts <command> [args...]\n");
        process.exit(2);
    }
    const count = processCount(process.env.TEST_LOAD_PROCESSES);
    const busy: ChildProcess[] = Array.from({ length: count }, () => spawn(process.execPath, ["-e", BUSY_LOOP, String(process.pid)], { stdio: "ignore" }));
    const running = (b: ChildProcess) => b.exitCode === null && b.signalCode === null;
    const stopBusy = () => {
        for (const b of busy) if (running(b)) b.kill("SIGKILL");
    };
    /** Stops the busy processes and resolves once every one has exited. */
    const busyStopped = () => {
        const exits = busy.filter(running).map((b) => new Promise((resolve) => b.once("exit", resolve)));
        stopBusy();
        return Promise.all(exits);
    };
    // Whatever ends this process (an exception in this script included) ends the busy ones first.
    process.on("exit", stopBusy);
    const started = Date.now();
    const load = () => os.loadavg().map((l) => l.toFixed(1)).join(" ");
    process.stderr.write(`test:load: ${count} CPU-bound processes (pids ${busy.map((b) => b.pid).join(", ") || "none"}) beside: ${argv.join(" ")}; load average ${load()}\n`);

    // npm puts node_modules/.bin on PATH for its scripts; run directly, this script does the same.
    const env = { ...process.env, PATH: `${path.join(ROOT, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}` };
    const command = spawn(argv[0]!, argv.slice(1), { stdio: "inherit", env });
    // Ctrl-C reaches the command too (the same process group); this script waits for it to finish, then exits with
    // its code. A signal sent to this script alone is passed on.
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
        process.on(signal, () => {
            stopBusy();
            if (command.exitCode === null) command.kill(signal);
        });
    }
    command.on("error", (err) => {
        process.stderr.write(`test:load: cannot start ${argv[0]}: ${err.message}\n`);
        process.exit(127);
    });
    command.on("exit", (code, signal) => {
        const exitCode = code ?? 128 + (signal ? os.constants.signals[signal] : 0);
        const seconds = Math.round((Date.now() - started) / 1000);
        void busyStopped().then(() => {
            process.stderr.write(`test:load: ${argv[0]} exited ${signal ? `on ${signal}` : code} after ${seconds} s beside ${count} CPU-bound processes, now stopped; load average ${load()}\n`);
            process.exit(exitCode);
        });
    });
}

main(process.argv.slice(2));
