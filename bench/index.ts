/**
 * `npm run bench`: how long `mara` takes to start, how `pulumi up` loads the program (the loader
 * candidates side by side, and Pulumi.yaml's loader on every infrastructure type, against the floor of
 * loading the SDKs it needs), the deploy critical path against MARA's sequential order, and scaling.
 * Every measurement runs in a fresh child process; this script only orchestrates, prints the tables and
 * writes bench/results/latest.json (and latest.md).
 *
 * Environment:
 *   BENCH_PARTS          which parts to run (default cli,loaders,cost,deploy,scaling)
 *   BENCH_REPEAT         fresh processes per program-cost figure; the median is reported (default 3)
 *   BENCH_CLI_REPEAT     fresh processes per `mara` command line (default 5)
 *   BENCH_MS_PER_MINUTE  wall milliseconds per simulated minute in the deploy part (default 200)
 *   BENCH_INSTANCES      application counts for the scaling part (default 1,10,50)
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { benchScript, runChild } from "./lib/child";
import { CliMeasurement, measureCli } from "./lib/cliStart";
import { durationTable, measuredDurations } from "./lib/durations";
import { FINDINGS } from "./lib/findings";
import { chosenLoaderCost, compareLoaders, InfraCost, LoaderResult, profileChosen, projectSettings, TimeBreakdown } from "./lib/programCost";
import { BenchInfra, INFRA_TYPES, REPO } from "./lib/stacks";
import { against, fmt, markdownTable, minutes, textTable } from "./lib/table";

const MS_PER_MINUTE = Number(process.env.BENCH_MS_PER_MINUTE ?? 200);
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 3));
const CLI_REPEAT = Math.max(1, Number(process.env.BENCH_CLI_REPEAT ?? 5));
const INSTANCES = (process.env.BENCH_INSTANCES ?? "1,10,50").split(",").map(Number);
const PARTS = new Set((process.env.BENCH_PARTS ?? "cli,loaders,cost,deploy,scaling").split(","));

/** Targets of the issue. */
const TARGETS = { oursOverMara: 0.6, oursOverCriticalPath: 1.1, programOverFloor: 1.5, perInstanceSpread: 0.25, linearFitR2: 0.99 };

// ---- Result shapes (what the children emit) ----------------------------------------------------

interface PathStep { type: string; name: string; minutes: number; finishesAt: number; via: string }
interface DeployResult {
    infra: BenchInfra;
    registrations: number;
    workRegistrations: number;
    fallbackDurations: string[];
    sumOfDurationsMinutes: number;
    sdkOnlyMs: number;
    ours: { wallMs: number; declareMs: number; minutes: number };
    mara: { minutes: number; computedMinutes: number; notModelled: string[]; unmapped: string[]; promotions: { resource: string; maraProject: string; runsIn: string; because: string }[] };
    criticalPath: { minutes: number; path: PathStep[] };
    ratios: { oursOverMara: number; oursOverCriticalPath: number; computedCriticalPathOverMara: number };
    findings: { id: string; present: boolean; onCriticalPath: boolean; savesMinutes: number; predictedOursOverMara: number }[];
    withoutFindings: { criticalPathMinutes: number; predictedOursOverMara: number; criticalPath: PathStep[] };
    checks: { ingressReleaseWaitsForImagePush?: boolean; imagePushStartsAtMinutes?: number };
    unexplainedWaits: { name: string; type: string; minutes: number }[];
}
interface Scaling { instances: number; registrations: number; loadMs: number; loadMaxRssMb: number; evalMs: number; evalCpuMs: number; ms: number; maxRssMb: number; liveHeapMb: number }

const log = (s = "") => process.stdout.write(`${s}\n`);

// ---- 1. Deploy critical path --------------------------------------------------------------------

function deployPart(): DeployResult[] {
    return INFRA_TYPES.map((infra) => {
        process.stderr.write(`deploy: ${infra}…\n`);
        return runChild<DeployResult>([...benchScript("deploy", "run.ts"), infra, String(MS_PER_MINUTE)]);
    });
}

function chain(path: PathStep[]): string {
    return path.map((s) => `${s.name} ${minutes(s.minutes)}${s.via ? ` (${s.via})` : ""}`).join(" → ");
}

function deployTables(results: DeployResult[]) {
    const rows: (string | number)[][] = [["infra", "ours (min)", "MARA order (min)", "critical path (min)", `ours÷MARA (≤ ${TARGETS.oursOverMara})`, `ours÷critical path (≤ ${TARGETS.oursOverCriticalPath})`]];
    for (const r of results) {
        rows.push([r.infra, fmt(r.ours.minutes), fmt(r.mara.minutes), fmt(r.criticalPath.minutes), against(r.ratios.oursOverMara, TARGETS.oursOverMara), against(r.ratios.oursOverCriticalPath, TARGETS.oursOverCriticalPath)]);
    }
    const findingRows: (string | number)[][] = [["finding", ...results.map((r) => `${r.infra}: saves (min) → ours÷MARA`)]];
    for (const f of FINDINGS) {
        findingRows.push([
            f.id,
            ...results.map((r) => {
                const x = r.findings.find((y) => y.id === f.id)!;
                return x.present ? `${fmt(x.savesMinutes)} → ${x.predictedOursOverMara.toFixed(2)}` : "absent";
            }),
        ]);
    }
    findingRows.push(["all of them", ...results.map((r) => `${fmt(r.criticalPath.minutes - r.withoutFindings.criticalPathMinutes)} → ${r.withoutFindings.predictedOursOverMara.toFixed(2)}`)]);
    return { rows, findingRows };
}

// ---- 2. Program cost: loaders, and Pulumi.yaml's loader on every stack -------------------------

const ratio = (a: number, b: number) => (a / b).toFixed(2);

function loaderTable(results: LoaderResult[], floor: InfraCost | undefined) {
    const chosen = projectSettings().runtime;
    const isChosen = (r: LoaderResult) => (r.runtime.typescript ?? true) === (chosen.typescript ?? true) && (r.runtime.nodeargs ?? "") === (chosen.nodeargs ?? "");
    const rows: (string | number)[][] = [["loader (Pulumi.yaml runtime.options)", "runs", "wall ms (÷ floor)", "CPU ms (÷ floor)", "peak MB (÷ floor)", "providers load", "needs"]];
    for (const r of results) {
        const name = `${r.label}${isChosen(r) ? " ← Pulumi.yaml" : ""}`;
        if (!r.measured) {
            rows.push([name, `✗ ${r.failure ?? ""}`.slice(0, 90), "", "", "", "", r.needs]);
            continue;
        }
        const m = r.measured;
        const f = floor?.floor;
        rows.push([
            name,
            `✓ ${r.registrations}`,
            f ? `${fmt(m.ms, 0)} (${ratio(m.ms, f.ms)})` : fmt(m.ms, 0),
            f ? `${fmt(m.cpuMs, 0)} (${ratio(m.cpuMs, f.cpuMs)})` : fmt(m.cpuMs, 0),
            f ? `${fmt(m.maxRssMb, 0)} (${ratio(m.maxRssMb, f.maxRssMb)})` : fmt(m.maxRssMb, 0),
            r.providersLoad ? "✓" : `✗ ${r.providersNote ?? ""}`,
            r.needs,
        ]);
    }
    return rows;
}

function costTable(rows: InfraCost[]) {
    const out: (string | number)[][] = [
        ["infra", "registrations", "program ms", "floor ms", `time ÷ floor (≤ ${TARGETS.programOverFloor})`, "CPU ÷ floor", "program MB", "floor MB", `memory ÷ floor (≤ ${TARGETS.programOverFloor})`, "Pulumi runtime, no resources: ms, MB (÷ floor)"],
    ];
    for (const r of rows) {
        out.push([
            r.infra,
            r.registrations,
            fmt(r.program.ms, 0),
            fmt(r.floor.ms, 0),
            against(r.program.ms / r.floor.ms, TARGETS.programOverFloor),
            ratio(r.program.cpuMs, r.floor.cpuMs),
            fmt(r.program.maxRssMb, 0),
            fmt(r.floor.maxRssMb, 0),
            against(r.program.maxRssMb / r.floor.maxRssMb, TARGETS.programOverFloor),
            `${fmt(r.emptyProgram.ms, 0)} (${ratio(r.emptyProgram.ms, r.floor.ms)}), ${fmt(r.emptyProgram.maxRssMb, 0)} (${ratio(r.emptyProgram.maxRssMb, r.floor.maxRssMb)})`,
        ]);
    }
    return out;
}

function cliTable({ floor, results }: CliMeasurement) {
    const rows: (string | number)[][] = [["command", "wall s (median)", "÷ node -e 0", "target", "", "CPU s (÷ node -e 0)", "peak MB", "runs (s)"]];
    rows.push(["node -e 0 (the floor)", floor.wallS.toFixed(3), "1", "", "", `${floor.cpuS.toFixed(3)} (1)`, fmt(floor.maxRssMb, 0), floor.runsS.join(" ")]);
    for (const r of results) {
        rows.push([`mara ${r.args.join(" ")}`, r.wallS.toFixed(3), r.wallX.toFixed(2), `≤ ${r.targetX}`, r.wallX <= r.targetX ? "✓" : "✗", `${r.cpuS.toFixed(3)} (${r.cpuX.toFixed(2)})`, fmt(r.maxRssMb, 0), r.runsS.join(" ")]);
    }
    return rows;
}

// ---- 3. Scaling ---------------------------------------------------------------------------------

function scalingPart(): Scaling[] {
    return INSTANCES.map((n) => {
        process.stderr.write(`scaling: ${n} application(s)…\n`);
        return runChild<Scaling>(["--expose-gc", ...benchScript("scaling", "run.ts"), String(n), "kubeconfig"]);
    });
}

/** Least-squares line through (x, y), with R². */
function fit(xs: number[], ys: number[]) {
    const n = xs.length;
    const mx = xs.reduce((a, b) => a + b, 0) / n;
    const my = ys.reduce((a, b) => a + b, 0) / n;
    let sxy = 0;
    let sxx = 0;
    let syy = 0;
    for (let i = 0; i < n; i++) {
        sxy += (xs[i]! - mx) * (ys[i]! - my);
        sxx += (xs[i]! - mx) ** 2;
        syy += (ys[i]! - my) ** 2;
    }
    const slope = sxy / sxx;
    return { slope, intercept: my - slope * mx, r2: syy ? (sxy * sxy) / (sxx * syy) : 1 };
}

/** Per-instance increments between consecutive N, and whether they agree within ±spread of the first. */
function linearity(results: Scaling[], pick: (s: Scaling) => number) {
    const xs = results.map((r) => r.instances);
    const ys = results.map(pick);
    const increments = xs.slice(1).map((x, i) => (ys[i + 1]! - ys[i]!) / (x - xs[i]!));
    const ratios = increments.map((d) => d / increments[0]!);
    const f = fit(xs, ys);
    const byRatio = ratios.every((r) => Math.abs(r - 1) <= TARGETS.perInstanceSpread);
    return { ...f, increments, ratios, byRatio, byFit: f.r2 >= TARGETS.linearFitR2, linear: byRatio || f.r2 >= TARGETS.linearFitR2 };
}

// ---- Main ---------------------------------------------------------------------------------------

async function main() {
    const started = Date.now();
    const timings: Record<string, number> = {};
    const progress = (msg: string) => void process.stderr.write(`${msg}\n`);
    const timed = async <T>(part: string, run: () => T | Promise<T>, skipped: T): Promise<T> => {
        // The profile goes with the cost part.
        if (!PARTS.has(part === "profile" ? "cost" : part)) return skipped;
        const t = Date.now();
        const result = await run();
        timings[part] = (Date.now() - t) / 1000;
        return result;
    };
    const cli = await timed("cli", () => {
        progress("cli: mara start-up…");
        return measureCli(CLI_REPEAT);
    }, undefined as CliMeasurement | undefined);
    const cost = await timed("cost", () => chosenLoaderCost(INFRA_TYPES, REPEAT, progress), [] as InfraCost[]);
    const profile = await timed("profile", () => profileChosen("aws"), undefined as TimeBreakdown | undefined);
    const loaders = await timed("loaders", () => compareLoaders(REPEAT, progress), [] as LoaderResult[]);
    const deploy = await timed("deploy", deployPart, []);
    const scaling = await timed("scaling", scalingPart, []);
    const md: string[] = [];
    const section = (title: string, table: (string | number)[][]) => {
        log(`\n${title}\n${textTable(table)}`);
        md.push(`\n### ${title}\n\n${markdownTable(table)}`);
    };
    const note = (text: string) => {
        log(text);
        md.push(`\n${text}`);
    };

    log(`\nMARA benchmarks — ${new Date().toISOString()} — node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join("/")}`);
    if (cli) {
        section(`0. mara start-up: wall time of a fresh \`node bin/mara.js ...\` in the repository against \`node -e 0\`, started in turn; median of ${CLI_REPEAT} rounds (after one warm-up)`, cliTable(cli));
        const missed = cli.results.filter((r) => r.wallX > r.targetX);
        note(missed.length ? `Missed: ${missed.map((r) => `mara ${r.args.join(" ")} (${r.wallX.toFixed(2)}× > ${r.targetX}×)`).join(", ")}.` : "Every command line meets its target.");
    }
    if (loaders.length) {
        section(`1. Loading the program: each loader candidate on the AWS stack, through Pulumi's cmd/run; median of ${REPEAT}; ratios to the floor of table 2`, loaderTable(loaders, cost.find((r) => r.infra === "aws")));
    }
    if (cost.length) {
        const { runtime } = projectSettings();
        section(
            `2. Program cost: the program as \`pulumi up\` runs it (Pulumi's cmd/run, Pulumi.yaml runtime.options ${JSON.stringify(runtime)}) vs loading only the SDKs the path uses; median of ${REPEAT}`,
            costTable(cost),
        );
        for (const r of cost) note(`${r.infra}: loads ${r.unusedPackages.length ? `${r.unusedPackages.join(", ")} without using ${r.unusedPackages.length > 1 ? "them" : "it"}` : "only the SDKs it uses"} (${r.usedPackages.join(", ")}); wall times of the runs: ${r.program.msRuns.join(", ")} ms.`);
    }
    if (profile) {
        const floor = cost.find((r) => r.infra === "aws");
        const rows: (string | number)[][] = [["where the CPU time goes (aws, one run with --cpu-prof)", "ms", "share"]];
        for (const r of profile.rows) rows.push([r.what, fmt(r.ms, 0), `${((100 * r.ms) / profile.totalMs).toFixed(0)} %`]);
        rows.push(["total (without idle)", fmt(profile.totalMs, 0), "100 %"]);
        section("2b. Where Pulumi.yaml's loader spends the program's time", rows);
        if (floor) note(`For scale: the floor (loading ${floor.floor.packages.join(", ")}) takes ${fmt(floor.floor.cpuMs, 0)} ms of CPU; 1.5× of it is ${fmt(1.5 * floor.floor.cpuMs, 0)} ms.`);
    }
    if (deploy.length) {
        const { rows, findingRows } = deployTables(deploy);
        section(`3. Deploy critical path (simulated minutes; ${MS_PER_MINUTE} ms of wall time per minute)`, rows);
        for (const r of deploy) note(`critical path, ${r.infra}: ${chain(r.criticalPath.path)}`);
        section("Unnecessary dependencies: minutes saved on the critical path → predicted ours÷MARA once removed", findingRows);
        for (const f of FINDINGS) note(`- ${f.id}: ${f.waiter} waits for ${f.waitsFor}. Fix: ${f.fix}`);
        const promoted = [...new Set(deploy.flatMap((r) => r.mara.promotions.filter((p) => p.maraProject !== p.runsIn && /Release/.test(p.resource)).map((p) => `${p.resource} (MARA: ${p.maraProject}) runs in ${p.runsIn} because of ${p.because}`)))];
        for (const p of promoted) note(`In MARA's order: ${p}.`);
        const noWait = deploy.filter((r) => r.checks.ingressReleaseWaitsForImagePush === false).map((r) => r.infra);
        if (noWait.length) note(`Check (${noWait.join(", ")}): the ingress controller's Helm release does not wait for the image push (IngressControllerImage.repository, .tag and .digest should derive from the docker.RegistryImage push).`);
        const unmapped = [...new Set(deploy.flatMap((r) => r.mara.unmapped))];
        if (unmapped.length) note(`Not mapped to a MARA project yet (placed after what they depend on; extend bench/lib/maraOrder.ts): ${unmapped.join(", ")}`);
        const unexplained = deploy.flatMap((r) => r.unexplainedWaits.filter((w) => w.type !== "mara:infra:Kubeconfig" && !w.type.startsWith("pulumi:providers:")).map((w) => `${r.infra}: ${w.type} ${w.name} +${fmt(w.minutes, 2)} min`));
        if (unexplained.length) note(`Waits the recorded graph does not explain: ${unexplained.join("; ")}`);
    }
    let lin: Record<"time" | "cpu" | "rss" | "heap", ReturnType<typeof linearity>> | undefined;
    if (scaling.length > 1) {
        lin = {
            time: linearity(scaling, (s) => s.evalMs),
            cpu: linearity(scaling, (s) => s.evalCpuMs),
            rss: linearity(scaling, (s) => s.maxRssMb),
            heap: linearity(scaling, (s) => s.liveHeapMb),
        };
        const rows: (string | number)[][] = [["applications", "registrations", "evaluation (ms)", "evaluation CPU (ms)", "peak RSS (MB)", "peak RSS while loading (MB)", "live heap of the program (MB)"]];
        for (const s of scaling) rows.push([s.instances, s.registrations, fmt(s.evalMs, 0), fmt(s.evalCpuMs, 0), fmt(s.maxRssMb, 0), fmt(s.loadMaxRssMb, 0), fmt(s.liveHeapMb, 0)]);
        section("4. Scaling: the platform once and N Bank of Sirius applications (kubeconfig stack), fresh process each", rows);
        const verdict = (name: string, l: ReturnType<typeof linearity>, unit: string) =>
            note(
                `${name}: per application ${l.increments.map((d) => `${fmt(d, 1)} ${unit}`).join(", then ")} (ratio ${l.ratios.slice(1).map((r) => r.toFixed(2)).join(", ")}: ${l.byRatio ? "✓" : "✗"} within ±${TARGETS.perInstanceSpread * 100}%); ` +
                    `fit ${fmt(l.slope, 1)} ${unit}/app + ${fmt(l.intercept, 0)}, R² ${l.r2.toFixed(3)} (${l.byFit ? "✓" : "✗"} ≥ ${TARGETS.linearFitR2}) → ${l.linear ? "linear ✓" : "not linear ✗"}`,
            );
        verdict("evaluation time", lin.time, "ms");
        verdict("evaluation CPU time", lin.cpu, "ms");
        verdict("peak RSS", lin.rss, "MB");
        verdict("live heap", lin.heap, "MB");
    }
    // The duration table goes into latest.md only (it is long), for docs/benchmarks.md.
    const measured = measuredDurations();
    md.push(`\n### Simulated creation times\n\nKubernetes layer: ${measured ? `measured by the real engine on the real-engine tier (${measured.measured.date}, ${measured.measured.rounds} rounds; no image pulls or container start-up)` : "the sourced estimates (BENCH_K8S_DURATIONS=estimates, or nothing measured yet)"}.\n\n${markdownTable([["what", "minutes", "source"], ...durationTable().map((d) => [d.what, minutes(d.minutes), d.source])])}`);
    const seconds = (Date.now() - started) / 1000;
    log(`\n(${fmt(seconds, 0)} s: ${Object.entries(timings).map(([k, v]) => `${k} ${fmt(v, 0)} s`).join(", ")})`);

    const out = path.join(REPO, "bench", "results");
    fs.mkdirSync(out, { recursive: true });
    const result = {
        date: new Date().toISOString(),
        node: process.version,
        cores: os.cpus().length,
        loadAverage: os.loadavg(),
        seconds,
        partSeconds: timings,
        settings: { msPerMinute: MS_PER_MINUTE, repeat: REPEAT, cliRepeat: CLI_REPEAT, instances: INSTANCES },
        targets: TARGETS,
        durations: durationTable(),
        deploy,
        findings: FINDINGS.map(({ id, waiter, waitsFor, why, fix }) => ({ id, waiter, waitsFor, why, fix })),
        cli,
        loaders,
        cost,
        profile,
        scaling: scaling.length ? { runs: scaling, linearity: lin } : undefined,
    };
    fs.writeFileSync(path.join(out, "latest.json"), `${JSON.stringify(result, null, 2)}\n`);
    fs.writeFileSync(path.join(out, "latest.md"), `<!-- npm run bench, ${result.date} -->\n${md.join("\n")}\n`);
    log(`Results: ${path.relative(process.cwd(), path.join(out, "latest.json"))}, latest.md`);
}

main().catch((e: unknown) => {
    console.error((e as Error)?.stack ?? e);
    process.exit(1);
});
