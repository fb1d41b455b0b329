/**
 * The tier's pod pace measured side by side (kubeletStages.ts): `pulumi up` from empty and `pulumi destroy` of the
 * existing-cluster stack, on a cluster whose pods move at kwok's own pace and on one at the tier's brisk pace, in
 * alternating order round by round so both meet the same load. Reports wall and CPU seconds (median of the rounds) and
 * the ratio kwok ÷ brisk, into bench/results/engine-pace.json.
 *
 *   node -r sucrase/register/ts test/engine/benchPace.ts [rounds=1]
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ROOT, startCluster } from "./cluster";
import type { PodPace } from "./kubeletStages";
import { pulumiSandbox } from "./pulumiEnv";
import { median, Timing, timed } from "./timedPulumi";
import { airGappedCharts, baseConfig, createStack } from "./stack";

async function round(pace: PodPace, id: string): Promise<{ up: Timing; destroy: Timing }> {
    const cluster = await startCluster({ podPace: pace });
    const sandbox = pulumiSandbox();
    const charts = airGappedCharts();
    const stack = await createStack(sandbox, `pace-${pace}-${id}`, baseConfig(cluster, charts));
    try {
        const base = ["--stack", stack.name, "--non-interactive"];
        const up = await timed(["up", "--yes", "--skip-preview", ...base], sandbox.env);
        const destroy = await timed(["destroy", "--yes", ...base], sandbox.env);
        return { up, destroy };
    } finally {
        stack.dispose();
        sandbox.dispose();
        fs.rmSync(charts, { recursive: true, force: true });
        await cluster.stop();
    }
}

async function main(): Promise<void> {
    const given = process.argv[2] ?? "1";
    const rounds = Number(given);
    // Each round deploys the platform from nothing (minutes): a count past 20 is a typo, not a plan.
    if (!/^\d+$/.test(given) || rounds < 1 || rounds > 20) throw new Error(`rounds must be a whole number from 1 to 20 (each round deploys the platform from nothing); got "${given}". Run: npm run ${process.argv[1]?.includes("benchPace") ? "bench:engine:pace" : "bench:engine"} 3`);
    fs.mkdirSync(path.join(ROOT, "bench", "results"), { recursive: true });
    const runs: Record<PodPace, { up: Timing; destroy: Timing }[]> = { kwok: [], brisk: [] };
    const load: number[] = [];
    for (let i = 0; i < rounds; i++) {
        // Alternate which pace goes first, so neither always meets the machine warmer or busier.
        for (const pace of (i % 2 === 0 ? ["kwok", "brisk"] : ["brisk", "kwok"]) as PodPace[]) {
            load.push(os.loadavg()[0]!);
            const r = await round(pace, `${process.pid}-${i}`);
            runs[pace].push(r);
            console.error(`round ${i + 1}/${rounds}, ${pace}: up ${r.up.wall.toFixed(1)} s, destroy ${r.destroy.wall.toFixed(1)} s`);
        }
    }
    const figure = (pace: PodPace, step: "up" | "destroy") => ({ wallSeconds: median(runs[pace].map((r) => r[step].wall)), cpuSeconds: median(runs[pace].map((r) => r[step].cpu)) });
    const steps = (["up", "destroy"] as const).map((step) => {
        const kwok = figure("kwok", step);
        const brisk = figure("brisk", step);
        return { step, kwok, brisk, ratio: { wall: kwok.wallSeconds / brisk.wallSeconds, cpu: kwok.cpuSeconds / brisk.cpuSeconds } };
    });
    const measuredOn = { date: new Date().toISOString().slice(0, 10), host: `${os.cpus().length} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GiB`, loadAverage: { min: Math.min(...load), max: Math.max(...load) }, rounds };
    fs.writeFileSync(path.join(ROOT, "bench", "results", "engine-pace.json"), `${JSON.stringify({ measuredOn, steps, runs }, null, 2)}\n`);
    console.log(`${measuredOn.date}, ${measuredOn.host}, ${rounds} round(s), load average ${measuredOn.loadAverage.min.toFixed(1)}-${measuredOn.loadAverage.max.toFixed(1)} (1 min, at each run's start)\n`);
    console.log("| step | kwok's pace (wall s, CPU s) | brisk (wall s, CPU s) | kwok ÷ brisk, wall | kwok ÷ brisk, CPU |\n|---|---|---|---|---|");
    for (const s of steps) console.log(`| \`pulumi ${s.step}\` | ${s.kwok.wallSeconds.toFixed(1)}, ${s.kwok.cpuSeconds.toFixed(1)} | ${s.brisk.wallSeconds.toFixed(1)}, ${s.brisk.cpuSeconds.toFixed(1)} | ${s.ratio.wall.toFixed(2)}× | ${s.ratio.cpu.toFixed(2)}× |`);
}

main().catch((e) => {
    console.error((e as Error).message);
    process.exit(1);
});
