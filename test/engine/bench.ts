/**
 * The Kubernetes layer measured with the real engine: `pulumi up` from empty, a no-change `preview`, `refresh` and
 * `destroy` of the existing-cluster stack on the real-engine tier's test cluster (test/engine), wall and CPU
 * seconds (the CLI and everything it starts: language host, program, providers), median of N rounds.
 *
 *   node -r sucrase/register/ts test/engine/bench.ts [rounds=3]
 *
 * Each round gets a fresh cluster and stack, so every `up` starts from empty. Writes bench/results/engine.json,
 * and bench/data/k8s-durations.json: each Kubernetes resource's creation time from the engine's event log, median
 * per kind of resource over the rounds, which `npm run bench` then uses for the Kubernetes layer (commit it).
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as os from "os";
import { creationsFromEventLog, Creation, figuresOf, MEASURED_FILE, MeasuredDurations } from "../../bench/lib/measuredDurations";
import { ENGINE_BIN, ROOT, startCluster } from "./cluster";
import { pulumiSandbox } from "./pulumiEnv";
import { airGappedCharts, baseConfig, createStack } from "./stack";

interface Timing {
    wall: number;
    cpu: number;
}

/** Runs `pulumi <args>` under /usr/bin/time: wall, and user + system CPU of the whole process tree. */
function timed(args: string[], env: NodeJS.ProcessEnv): Promise<Timing> {
    return new Promise((resolve, reject) => {
        const out = path.join(ROOT, "bench", "results", `.time-${process.pid}`);
        const child = spawn("/usr/bin/time", ["-f", "%e %U %S", "-o", out, path.join(ENGINE_BIN, "pulumi"), ...args], { cwd: ROOT, env, stdio: ["ignore", "ignore", "pipe"] });
        let err = "";
        child.stderr.on("data", (c: Buffer) => (err += c.toString()));
        child.on("exit", (code) => {
            const [wall, user, sys] = fs.readFileSync(out, "utf8").trim().split(/\s+/).slice(-3).map(Number);
            fs.rmSync(out, { force: true });
            if (code !== 0) reject(new Error(`pulumi ${args.join(" ")} failed (${code}): ${err.split("\n").slice(-20).join("\n")}`));
            else resolve({ wall: wall!, cpu: user! + sys! });
        });
    });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
    const rounds = Number(process.argv[2] ?? 3);
    fs.mkdirSync(path.join(ROOT, "bench", "results"), { recursive: true });
    const steps: Record<string, Timing[]> = { up: [], preview: [], refresh: [], destroy: [] };
    const creations: Creation[] = [];
    for (let i = 0; i < rounds; i++) {
        const cluster = await startCluster();
        const sandbox = pulumiSandbox();
        const charts = airGappedCharts();
        const stack = await createStack(sandbox, `bench-${process.pid}-${i}`, baseConfig(cluster, charts));
        try {
            const base = ["--stack", stack.name, "--non-interactive"];
            const eventLog = path.join(sandbox.dir, "up-events.jsonl");
            // The CLI offers --event-log only with PULUMI_DEBUG_COMMANDS set (pkg/cmd/pulumi/operations/up.go).
            steps.up!.push(await timed(["up", "--yes", "--skip-preview", "--event-log", eventLog, ...base], { ...sandbox.env, PULUMI_DEBUG_COMMANDS: "true" }));
            creations.push(...creationsFromEventLog(fs.readFileSync(eventLog, "utf8")));
            steps.preview!.push(await timed(["preview", "--expect-no-changes", ...base], sandbox.env));
            steps.refresh!.push(await timed(["refresh", "--yes", "--expect-no-changes", ...base], sandbox.env));
            steps.destroy!.push(await timed(["destroy", "--yes", ...base], sandbox.env));
            console.error(`round ${i + 1}/${rounds}: ${Object.entries(steps).map(([k, v]) => `${k} ${v.at(-1)!.wall.toFixed(1)} s`).join(", ")}`);
        } finally {
            stack.dispose();
            sandbox.dispose();
            fs.rmSync(charts, { recursive: true, force: true });
            await cluster.stop();
        }
    }
    const result = Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, { wallSeconds: median(v.map((t) => t.wall)), cpuSeconds: median(v.map((t) => t.cpu)), rounds: v }]));
    fs.writeFileSync(path.join(ROOT, "bench", "results", "engine.json"), `${JSON.stringify(result, null, 2)}\n`);
    const measured: MeasuredDurations = {
        measured: {
            date: new Date().toISOString().slice(0, 10),
            rounds,
            host: `${os.cpus().length} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GiB, load average ${os.loadavg()[0]!.toFixed(1)} at the end`,
            note: "kwok nodes: no image pulls, no container start-up, no operator acting on its custom resources",
        },
        figures: figuresOf(creations),
    };
    fs.mkdirSync(path.dirname(MEASURED_FILE), { recursive: true });
    fs.writeFileSync(MEASURED_FILE, `${JSON.stringify(measured, null, 2)}\n`);
    console.log("| step | wall (s, median) | CPU (s, median) |\n|---|---|---|");
    for (const [k, v] of Object.entries(result)) console.log(`| ${k} | ${v.wallSeconds.toFixed(1)} | ${v.cpuSeconds.toFixed(1)} |`);
}

main().catch((e) => {
    console.error((e as Error).message);
    process.exit(1);
});
