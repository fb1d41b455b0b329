/**
 * Where a platform `up` and `destroy` spend the Pulumi CLI's CPU, and what makes the state large. Deploys the
 * existing-cluster stack on a fresh test cluster, then reports:
 *
 * - the state's size (compact JSON, as the self-managed backend writes it) by resource type, and its largest resources;
 * - for `up` and `destroy`: wall and CPU seconds of the whole command, and, from the CLI's own CPU profile
 *   (`pulumi --profiling`, read with `go tool pprof`), the CLI's CPU and the share spent saving the checkpoint
 *   (`SnapshotManager.saveSnapshot`: the whole state serialized, hashed and written after every step).
 *
 * Writes bench/results/engine-state.json and prints a Markdown table for docs/benchmarks.md.
 *
 *   npm run bench:engine:state
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ENGINE_BIN, ROOT, startCluster } from "./cluster";
import { pulumiSandbox, STATE_SAVED_AT_EVERY_STEP } from "./pulumiEnv";
import { Timing, timed } from "./timedPulumi";
import { airGappedCharts, baseConfig, createStack } from "./stack";

/** What the CLI's CPU profile says: its CPU seconds, and those under saveSnapshot. */
interface CliProfile {
    readonly cliCpuSeconds: number;
    readonly saveSnapshotSeconds: number;
}

/** Reads a Go CPU profile with `go tool pprof` (Go builds the tier, so it is there). */
function readProfile(file: string): CliProfile {
    const top = execFileSync("go", ["tool", "pprof", "-top", "-cum", "-nodecount=1000", file], { encoding: "utf8", maxBuffer: 64 << 20, timeout: 120_000 });
    const total = /Total samples = ([\d.]+)(m?s)/.exec(top);
    const seconds = (v: string, unit: string) => Number(v) / (unit === "ms" ? 1000 : 1);
    const save = top.split("\n").find((l) => l.includes("backend.(*SnapshotManager).saveSnapshot"));
    // A row is "flat flat% sum% cum cum% name"; cum is the fourth column.
    const cum = save?.trim().split(/\s+/)[3];
    const m = cum ? /^([\d.]+)(m?s)$/.exec(cum) : null;
    if (!total) throw new Error(`go tool pprof printed no total for ${file}`);
    return { cliCpuSeconds: seconds(total[1]!, total[2]!), saveSnapshotSeconds: m ? seconds(m[1]!, m[2]!) : 0 };
}

/** The size of each resource of an exported state, as compact JSON. */
function stateSizes(exported: string): { total: number; byType: [string, number][]; largest: { type: string; name: string; bytes: number }[]; resources: number } {
    const state = JSON.parse(exported) as { deployment: { resources?: { urn: string; type: string }[] } };
    const resources = state.deployment.resources ?? [];
    const sized = resources.map((r) => ({ type: r.type, name: r.urn.split("::").pop()!, bytes: Buffer.byteLength(JSON.stringify(r)) }));
    const byType = new Map<string, number>();
    for (const s of sized) byType.set(s.type, (byType.get(s.type) ?? 0) + s.bytes);
    return {
        total: Buffer.byteLength(JSON.stringify(state)),
        byType: [...byType.entries()].sort((a, b) => b[1] - a[1]),
        largest: sized.sort((a, b) => b.bytes - a.bytes).slice(0, 8),
        resources: resources.length,
    };
}

async function main(): Promise<void> {
    fs.mkdirSync(path.join(ROOT, "bench", "results"), { recursive: true });
    const profiles = fs.mkdtempSync(path.join(os.tmpdir(), "mara-state-profile-"));
    const cluster = await startCluster();
    const sandbox = pulumiSandbox(STATE_SAVED_AT_EVERY_STEP);
    const charts = airGappedCharts();
    const stack = await createStack(sandbox, `state-${process.pid}`, baseConfig(cluster, charts));
    const load = [os.loadavg()[0]!];
    try {
        const base = ["--stack", stack.name, "--non-interactive"];
        const step = async (name: "up" | "destroy", args: string[]): Promise<Timing & CliProfile> => {
            const t = await timed([...args, "--profiling", path.join(profiles, name), ...base], sandbox.env);
            load.push(os.loadavg()[0]!);
            const file = fs.readdirSync(profiles).find((f) => f.startsWith(`${name}.`) && f.endsWith(".cpu"));
            if (!file) throw new Error(`pulumi ${name} --profiling wrote no CPU profile`);
            return { ...t, ...readProfile(path.join(profiles, file)) };
        };
        const up = await step("up", ["up", "--yes", "--skip-preview"]);
        const exported = execFileSync(path.join(ENGINE_BIN, "pulumi"), ["stack", "export", ...base], { env: sandbox.env, cwd: ROOT, maxBuffer: 1 << 30, timeout: 120_000 }).toString();
        const state = stateSizes(exported);
        const destroy = await step("destroy", ["destroy", "--yes"]);
        const measuredOn = { date: new Date().toISOString().slice(0, 10), host: `${os.cpus().length} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GiB`, loadAverage: { min: Math.min(...load), max: Math.max(...load) } };
        fs.writeFileSync(path.join(ROOT, "bench", "results", "engine-state.json"), `${JSON.stringify({ measuredOn, up, destroy, state }, null, 2)}\n`);
        const mb = (b: number) => (b / 2 ** 20).toFixed(2);
        console.log(`${measuredOn.date}, ${measuredOn.host}, load average ${measuredOn.loadAverage.min.toFixed(1)}-${measuredOn.loadAverage.max.toFixed(1)}\n`);
        console.log(`State: ${state.resources} resources, ${mb(state.total)} MB as compact JSON. By type:\n`);
        console.log("| resource type | MB | share |\n|---|---|---|");
        for (const [type, bytes] of state.byType.slice(0, 6)) console.log(`| \`${type}\` | ${mb(bytes)} | ${((100 * bytes) / state.total).toFixed(0)} % |`);
        console.log(`\nLargest: ${state.largest.map((r) => `${r.name} ${mb(r.bytes)} MB`).join(", ")}\n`);
        console.log("| step | wall s | CPU s (command) | the CLI's CPU s | of it saving the checkpoint |\n|---|---|---|---|---|");
        for (const [name, s] of [["up", up], ["destroy", destroy]] as const) {
            console.log(`| \`pulumi ${name}\` | ${s.wall.toFixed(1)} | ${s.cpu.toFixed(1)} | ${s.cliCpuSeconds.toFixed(1)} | ${s.saveSnapshotSeconds.toFixed(1)} s (${((100 * s.saveSnapshotSeconds) / s.cliCpuSeconds).toFixed(0)} %) |`);
        }
    } finally {
        stack.dispose();
        sandbox.dispose();
        fs.rmSync(charts, { recursive: true, force: true });
        fs.rmSync(profiles, { recursive: true, force: true });
        await cluster.stop();
    }
}

main().catch((e) => {
    console.error((e as Error).message);
    process.exit(1);
});
