/**
 * The Kubernetes layer measured with the real engine: `pulumi up` from empty, a no-change `preview`, a no-change
 * `up`, `refresh` and `destroy` of the existing-cluster stack on the real-engine tier's test cluster (test/engine),
 * wall and CPU seconds (the CLI and everything it starts: language host, program, providers), median of N rounds.
 * Beside them, in the same rounds and on the same cluster, the floor: the no-change `preview` and `up` of a program
 * that registers only a Kubernetes provider (floorProgram.ts) with the same CLI, plugins and kind of backend, and
 * the ratios of the platform's to the floor's. One traced no-change preview and `up` of each (`--otel-traces`)
 * says where the platform's extra time goes (traceBreakdown.ts).
 *
 *   node -r sucrase/register/ts test/engine/bench.ts [rounds=3]
 *
 * Each round gets a fresh cluster and stack, so every `up` starts from empty. Writes bench/results/engine.json,
 * and bench/data/k8s-durations.json: each Kubernetes resource's creation time from the engine's event log, median
 * per kind of resource over the rounds, which `npm run bench` then uses for the Kubernetes layer (commit it).
 */
import * as fs from "fs";
import * as path from "path";
import * as os from "os";
import { creationsFromEventLog, Creation, figuresOf, MEASURED_FILE, MeasuredDurations } from "../../bench/lib/measuredDurations";
import { ROOT, startCluster } from "./cluster";
import { floorProject } from "./floorProgram";
import { pulumiSandbox, STATE_SAVED_AT_EVERY_STEP } from "./pulumiEnv";
import { median, Timing, timed } from "./timedPulumi";
import { airGappedCharts, baseConfig, createStack } from "./stack";
import { traceBreakdown, TraceBreakdown } from "./traceBreakdown";

async function main(): Promise<void> {
    const given = process.argv[2] ?? "3";
    const rounds = Number(given);
    // Each round deploys the platform from nothing (minutes): a count past 20 is a typo, not a plan.
    if (!/^\d+$/.test(given) || rounds < 1 || rounds > 20) throw new Error(`rounds must be a whole number from 1 to 20 (each round deploys the platform from nothing); got "${given}". Run: npm run bench:engine 3`);
    fs.mkdirSync(path.join(ROOT, "bench", "results"), { recursive: true });
    const steps: Record<string, Timing[]> = { up: [], preview: [], "up (no change)": [], refresh: [], destroy: [], "floor preview": [], "floor up (no change)": [] };
    const creations: Creation[] = [];
    const traces: Record<string, TraceBreakdown> = {};
    const load: number[] = [];
    for (let i = 0; i < rounds; i++) {
        // kwok's own pace: the creation times this writes stand for a cluster's, where pods take seconds to start (kubeletStages.ts).
        const cluster = await startCluster({ podPace: "kwok" });
        const sandbox = pulumiSandbox(STATE_SAVED_AT_EVERY_STEP);
        const charts = airGappedCharts();
        const stack = await createStack(sandbox, `bench-${process.pid}-${i}`, baseConfig(cluster, charts));
        const floor = await floorProject(sandbox, cluster, `floor-${process.pid}-${i}`);
        try {
            const base = ["--stack", stack.name, "--non-interactive"];
            const floorBase = ["--stack", floor.stack, "--non-interactive"];
            const eventLog = path.join(sandbox.dir, "up-events.jsonl");
            load.push(os.loadavg()[0]!);
            // The CLI offers --event-log only with PULUMI_DEBUG_COMMANDS set (pkg/cmd/pulumi/operations/up.go).
            steps.up!.push(await timed(["up", "--yes", "--skip-preview", "--event-log", eventLog, ...base], { ...sandbox.env, PULUMI_DEBUG_COMMANDS: "true" }));
            creations.push(...creationsFromEventLog(fs.readFileSync(eventLog, "utf8")));
            await timed(["up", "--yes", "--skip-preview", ...floorBase], sandbox.env, floor.dir);
            // Side by side: each no-change step of the platform, then the floor's, so both see the same load.
            steps.preview!.push(await timed(["preview", "--expect-no-changes", ...base], sandbox.env));
            steps["floor preview"]!.push(await timed(["preview", "--expect-no-changes", ...floorBase], sandbox.env, floor.dir));
            steps["up (no change)"]!.push(await timed(["up", "--yes", "--skip-preview", "--expect-no-changes", ...base], sandbox.env));
            steps["floor up (no change)"]!.push(await timed(["up", "--yes", "--skip-preview", "--expect-no-changes", ...floorBase], sandbox.env, floor.dir));
            load.push(os.loadavg()[0]!);
            if (i === rounds - 1) {
                // Traced runs apart from the timed ones (tracing adds its own work).
                for (const [name, args, cwd] of [
                    ["preview", ["preview", "--expect-no-changes", ...base], ROOT],
                    ["floor preview", ["preview", "--expect-no-changes", ...floorBase], floor.dir],
                    ["up (no change)", ["up", "--yes", "--skip-preview", "--expect-no-changes", ...base], ROOT],
                    ["floor up (no change)", ["up", "--yes", "--skip-preview", "--expect-no-changes", ...floorBase], floor.dir],
                ] as const) {
                    const file = path.join(sandbox.dir, `trace-${name.replace(/\W+/g, "-")}.json`);
                    await timed([...args, "--otel-traces", `file://${file}`], sandbox.env, cwd);
                    traces[name] = traceBreakdown(file);
                    fs.copyFileSync(file, path.join(ROOT, "bench", "results", path.basename(file)));
                }
            }
            steps.refresh!.push(await timed(["refresh", "--yes", "--expect-no-changes", ...base], sandbox.env));
            steps.destroy!.push(await timed(["destroy", "--yes", ...base], sandbox.env));
            console.error(`round ${i + 1}/${rounds}: ${Object.entries(steps).map(([k, v]) => `${k} ${v.at(-1)!.wall.toFixed(1)} s`).join(", ")}`);
        } finally {
            floor.dispose();
            stack.dispose();
            sandbox.dispose();
            fs.rmSync(charts, { recursive: true, force: true });
            await cluster.stop();
        }
    }
    const result = Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, { wallSeconds: median(v.map((t) => t.wall)), cpuSeconds: median(v.map((t) => t.cpu)), rounds: v }]));
    const ratio = (a: string, b: string) => ({ wall: result[a]!.wallSeconds / result[b]!.wallSeconds, cpu: result[a]!.cpuSeconds / result[b]!.cpuSeconds });
    const ratios = { preview: ratio("preview", "floor preview"), "up (no change)": ratio("up (no change)", "floor up (no change)") };
    const measuredOn = {
        date: new Date().toISOString().slice(0, 10),
        host: `${os.cpus().length} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
        loadAverage: { min: Math.min(...load), max: Math.max(...load) },
    };
    fs.writeFileSync(path.join(ROOT, "bench", "results", "engine.json"), `${JSON.stringify({ measuredOn, steps: result, ratios, traces }, null, 2)}\n`);
    const measured: MeasuredDurations = {
        measured: {
            date: measuredOn.date,
            rounds,
            host: `${measuredOn.host}, load average ${os.loadavg()[0]!.toFixed(1)} at the end`,
            note: "kwok nodes: no image pulls, no container start-up, no operator acting on its custom resources",
        },
        figures: figuresOf(creations),
    };
    fs.mkdirSync(path.dirname(MEASURED_FILE), { recursive: true });
    fs.writeFileSync(MEASURED_FILE, `${JSON.stringify(measured, null, 2)}\n`);
    console.log(`${measuredOn.date}, ${measuredOn.host}, load average ${measuredOn.loadAverage.min.toFixed(1)}-${measuredOn.loadAverage.max.toFixed(1)} (1 min, sampled around the no-change steps)\n`);
    console.log("| step | wall (s, median) | CPU (s, median) |\n|---|---|---|");
    for (const [k, v] of Object.entries(result)) console.log(`| ${k} | ${v.wallSeconds.toFixed(1)} | ${v.cpuSeconds.toFixed(1)} |`);
    console.log("\n| no-change step | platform / floor, wall | platform / floor, CPU |\n|---|---|---|");
    for (const [k, v] of Object.entries(ratios)) console.log(`| ${k} | ${v.wall.toFixed(1)}× | ${v.cpu.toFixed(1)}× |`);
    console.log("\n| traced step | total | until the program runs | program's run | root to first own registration | last registration after | after the program | registrations | plugin starts (s, count) | provider calls (s summed, calls) |\n|---|---|---|---|---|---|---|---|---|---|");
    for (const [k, t] of Object.entries(traces)) {
        const calls = Object.entries(t.providerCalls).sort(([, a], [, b]) => b.seconds - a.seconds).slice(0, 3).map(([m, c]) => `${m} ${c.seconds.toFixed(1)} (${c.calls})`).join(", ");
        console.log(`| ${k} | ${t.total.toFixed(1)} | ${t.untilProgramRuns.toFixed(1)} | ${t.programRun.toFixed(1)} | ${t.rootToFirstOwnRegistration.toFixed(1)} | ${t.programStartToLastRegistration.toFixed(1)} | ${t.afterProgram.toFixed(1)} | ${t.registrations} | ${t.pluginStarts.seconds.toFixed(1)} (${t.pluginStarts.count}) | ${calls} |`);
    }
}

main().catch((e) => {
    console.error((e as Error).message);
    process.exit(1);
});
