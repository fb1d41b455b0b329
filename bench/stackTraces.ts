/**
 * The SDK's stack trace per promise, side by side: offline runs of the program with short traces (the default,
 * offline/stackTraces.ts) against full ones (PULUMI_DEBUG_PROMISE_LEAKS set, which keeps every frame). Two commands,
 * each run once per setting per round, the settings alternating which goes first so both see the same machine:
 *   - `mara plan` on the AWS benchmark stack, as a user runs it;
 *   - `test/program/providers.test.ts` under vitest (the program under mocks on every infra type), as `npm test` runs it (its frames mapped to the sources).
 * Each command's CPU is read from what this process's finished children used (Linux: /proc/self/stat, cutime and
 * cstime), so it counts the command's own children too. Prints the medians and the ratios, full ÷ short, and writes
 * bench/results/stack-traces.json. Usage: `npm run bench:traces [-- rounds]` (default 3, at most 20).
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { median } from "./lib/child";
import { REPO } from "./lib/stacks";
import { fmt, textTable } from "./lib/table";

const arg = process.argv[2] ?? "3";
const rounds = Number(arg);
if (!/^\d+$/.test(arg) || rounds < 1 || rounds > 20) {
    console.error(`rounds: "${arg}" is not a whole number from 1 to 20; run, for example: npm run bench:traces -- 3`);
    process.exit(2);
}
if (!fs.existsSync("/proc/self/stat")) {
    console.error("bench:traces reads its children's CPU time from /proc/self/stat, which only Linux has");
    process.exit(2);
}

/** The CPU seconds this process's finished (and waited for) children have used, with theirs. */
function childrenCpuSeconds(): number {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    // Fields after the command name (which may hold spaces) start at the state, field 3; cutime and cstime are 16 and 17.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[13]) + Number(fields[14]);
    const hz = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;
    return ticks / hz;
}

const COMMANDS = {
    "mara plan (AWS stack)": [path.join(REPO, "bin", "mara.js"), "plan", "-c", path.join(REPO, "bench", "stacks", "Pulumi.aws.yaml")],
    "providers.test.ts under vitest": [path.join(REPO, "node_modules", "vitest", "vitest.mjs"), "run", "--project", "mara", "test/program/providers.test.ts"],
} as const;
const SETTINGS = { short: {}, full: { PULUMI_DEBUG_PROMISE_LEAKS: "1" } } as const;
type Setting = keyof typeof SETTINGS;

/** Runs the command with the setting; its wall and CPU seconds. */
function runOnce(args: readonly string[], setting: Setting): { wall: number; cpu: number } {
    const env: NodeJS.ProcessEnv = { ...process.env, ...SETTINGS[setting] };
    if (setting === "short") delete env.PULUMI_DEBUG_PROMISE_LEAKS;
    // A limit inherited from the caller's NODE_OPTIONS would keep both settings' traces alike (offline/stackTraces.ts).
    if (env.NODE_OPTIONS) env.NODE_OPTIONS = env.NODE_OPTIONS.split(/\s+/).filter((o) => !o.startsWith("--stack-trace-limit")).join(" ");
    const cpuBefore = childrenCpuSeconds();
    const start = process.hrtime.bigint();
    const res = spawnSync(process.execPath, args, { cwd: REPO, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: 20 * 60_000 });
    const wall = Number(process.hrtime.bigint() - start) / 1e9;
    if (res.status !== 0) throw new Error(`node ${args.map((a) => path.relative(REPO, a) || a).join(" ")} (${setting} traces) ended with ${res.status ?? res.signal}:\n${(res.stderr || res.stdout).slice(-2000)}`);
    return { wall, cpu: childrenCpuSeconds() - cpuBefore };
}

const load: number[] = [];
const runs = new Map<string, Record<Setting, { wall: number; cpu: number }[]>>();
for (let round = 0; round < rounds; round++) {
    for (const [name, args] of Object.entries(COMMANDS)) {
        const order: Setting[] = round % 2 === 0 ? ["short", "full"] : ["full", "short"];
        const byName = runs.get(name) ?? { short: [], full: [] };
        for (const setting of order) {
            load.push(os.loadavg()[0]!);
            const r = runOnce(args, setting);
            byName[setting].push(r);
            console.log(`round ${round + 1}, ${name}, ${setting} traces: ${r.wall.toFixed(1)} s wall, ${r.cpu.toFixed(1)} s CPU`);
        }
        runs.set(name, byName);
    }
}

const rows: (string | number)[][] = [["command", "short: wall s, CPU s", "full: wall s, CPU s", "full ÷ short, wall", "full ÷ short, CPU"]];
const summary = [...runs].map(([name, r]) => {
    const f = (s: Setting) => ({ wall: median(r[s].map((x) => x.wall)), cpu: median(r[s].map((x) => x.cpu)) });
    const [short, full] = [f("short"), f("full")];
    rows.push([name, `${fmt(short.wall)}, ${fmt(short.cpu)}`, `${fmt(full.wall)}, ${fmt(full.cpu)}`, `${(full.wall / short.wall).toFixed(2)}×`, `${(full.cpu / short.cpu).toFixed(2)}×`]);
    return { command: name, short, full, ratio: { wall: full.wall / short.wall, cpu: full.cpu / short.cpu } };
});
console.log(`\nMedians of ${rounds} round(s), load average ${Math.min(...load).toFixed(1)} to ${Math.max(...load).toFixed(1)}:\n`);
console.log(textTable(rows));
const out = path.join(REPO, "bench", "results", "stack-traces.json");
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify({ measuredOn: { date: new Date().toISOString().slice(0, 10), host: `${os.cpus().length} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GiB`, rounds }, summary }, null, 2)}\n`);
console.log(`\nwritten: ${path.relative(REPO, out)}`);
