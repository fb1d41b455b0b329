/**
 * Two settings of the tier measured side by side: `pulumi up` from empty and `pulumi destroy` of the existing-cluster
 * stack under each, in alternating order round by round so both meet the same load. Reports wall and CPU seconds
 * (median of the rounds) and the ratio A ÷ B, into bench/results/engine-<comparison>.json.
 *
 * - `pace`: pods at kwok's own pace (A) against the tier's brisk pace (B) (kubeletStages.ts).
 * - `checkpoints`: the state saved after every step, as a user's run saves it (A), against saved once when the run
 *   ends, as the tier's tests that do not kill a run save it (B) (pulumiEnv.ts).
 *
 *   node -r sucrase/register/ts test/engine/benchSideBySide.ts <pace|checkpoints> [rounds=1]
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ROOT, startCluster } from "./cluster";
import type { PodPace } from "./kubeletStages";
import { pulumiSandbox, STATE_SAVED_AT_EVERY_STEP } from "./pulumiEnv";
import { median, Timing, timed } from "./timedPulumi";
import { airGappedCharts, baseConfig, createStack } from "./stack";

/** One side of a comparison: its name in the table, the cluster's pod pace and the CLI's environment. */
interface Setting {
    readonly name: string;
    readonly podPace: PodPace;
    readonly env: NodeJS.ProcessEnv;
}

const COMPARISONS: Record<string, readonly [Setting, Setting]> = {
    pace: [
        { name: "kwok's pace", podPace: "kwok", env: STATE_SAVED_AT_EVERY_STEP },
        { name: "brisk", podPace: "brisk", env: STATE_SAVED_AT_EVERY_STEP },
    ],
    checkpoints: [
        { name: "saved every step", podPace: "brisk", env: STATE_SAVED_AT_EVERY_STEP },
        { name: "saved at the end", podPace: "brisk", env: {} },
    ],
};

async function round(setting: Setting, id: string): Promise<{ up: Timing; destroy: Timing }> {
    const cluster = await startCluster({ podPace: setting.podPace });
    const sandbox = pulumiSandbox(setting.env);
    const charts = airGappedCharts();
    const stack = await createStack(sandbox, `side-${id}`, baseConfig(cluster, charts));
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
    const comparison = process.argv[2] ?? "";
    // Own keys only: "constructor" or "__proto__" is no comparison.
    const pair = Object.hasOwn(COMPARISONS, comparison) ? COMPARISONS[comparison] : undefined;
    const given = process.argv[3] ?? "1";
    const rounds = Number(given);
    if (!pair) throw new Error(`the comparison must be one of ${Object.keys(COMPARISONS).join(", ")}; got "${comparison}". Run: npm run bench:engine:pace 3`);
    // Each round deploys the platform from nothing, twice (minutes): a count past 20 is a typo, not a plan.
    if (!/^\d+$/.test(given) || rounds < 1 || rounds > 20) throw new Error(`rounds must be a whole number from 1 to 20 (each round deploys the platform from nothing); got "${given}". Run: npm run bench:engine:${comparison} 3`);
    fs.mkdirSync(path.join(ROOT, "bench", "results"), { recursive: true });
    const runs = new Map<Setting, { up: Timing; destroy: Timing }[]>(pair.map((s) => [s, []]));
    const load: number[] = [];
    for (let i = 0; i < rounds; i++) {
        // Alternate which setting goes first, so neither always meets the machine warmer or busier.
        for (const [j, setting] of (i % 2 === 0 ? pair : [...pair].reverse()).entries()) {
            load.push(os.loadavg()[0]!);
            const r = await round(setting, `${process.pid}-${i}-${j}`);
            runs.get(setting)!.push(r);
            console.error(`round ${i + 1}/${rounds}, ${setting.name}: up ${r.up.wall.toFixed(1)} s, destroy ${r.destroy.wall.toFixed(1)} s`);
        }
    }
    const figure = (setting: Setting, step: "up" | "destroy") => ({ wallSeconds: median(runs.get(setting)!.map((r) => r[step].wall)), cpuSeconds: median(runs.get(setting)!.map((r) => r[step].cpu)) });
    const [a, b] = pair;
    const steps = (["up", "destroy"] as const).map((step) => {
        const fa = figure(a, step);
        const fb = figure(b, step);
        return { step, [a.name]: fa, [b.name]: fb, ratio: { wall: fa.wallSeconds / fb.wallSeconds, cpu: fa.cpuSeconds / fb.cpuSeconds } };
    });
    const measuredOn = { date: new Date().toISOString().slice(0, 10), host: `${os.cpus().length} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GiB`, loadAverage: { min: Math.min(...load), max: Math.max(...load) }, rounds };
    const byName = Object.fromEntries([...runs].map(([s, r]) => [s.name, r]));
    fs.writeFileSync(path.join(ROOT, "bench", "results", `engine-${comparison}.json`), `${JSON.stringify({ measuredOn, steps, runs: byName }, null, 2)}\n`);
    console.log(`${measuredOn.date}, ${measuredOn.host}, ${rounds} round(s), load average ${measuredOn.loadAverage.min.toFixed(1)}-${measuredOn.loadAverage.max.toFixed(1)} (1 min, at each run's start)\n`);
    console.log(`| step | ${a.name} (wall s, CPU s) | ${b.name} (wall s, CPU s) | A ÷ B, wall | A ÷ B, CPU |\n|---|---|---|---|---|`);
    for (const s of steps) {
        const [fa, fb] = [s[a.name] as { wallSeconds: number; cpuSeconds: number }, s[b.name] as { wallSeconds: number; cpuSeconds: number }];
        console.log(`| \`pulumi ${s.step}\` | ${fa.wallSeconds.toFixed(1)}, ${fa.cpuSeconds.toFixed(1)} | ${fb.wallSeconds.toFixed(1)}, ${fb.cpuSeconds.toFixed(1)} | ${s.ratio.wall.toFixed(2)}× | ${s.ratio.cpu.toFixed(2)}× |`);
    }
}

main().catch((e) => {
    console.error((e as Error).message);
    process.exit(1);
});
