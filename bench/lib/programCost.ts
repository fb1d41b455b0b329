/**
 * Program cost as `pulumi up` pays it: the program's process started the way the language host starts it
 * (bench/lib/pulumiHost.ts), once per loader candidate and infrastructure type, each measure the median of
 * several fresh processes, against the floor of loading only the SDKs the path's registrations come from.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parse } from "yaml";
import { floorScript, median, runChild } from "./child";
import { LOADERS, LoaderVariant, removeProject } from "./loaders";
import { packageOf, sdksOf } from "./modules";
import { hostedFailure, HostedProgram, HostedRun, NodejsRuntimeOptions, runHosted, runtimeOptionsOf } from "./pulumiHost";
import { BenchInfra, benchStack, REPO } from "./stacks";

/** Medians of one measured configuration. */
export interface Measured {
    /** Wall milliseconds from process start to exit. */
    readonly ms: number;
    readonly cpuMs: number;
    readonly maxRssMb: number;
    /** Each run's wall milliseconds, to show the spread. */
    readonly msRuns: number[];
}

/** The floor: a plain node process that only requires the packages. */
export interface Floor extends Measured {
    readonly packages: string[];
}

/** One loader candidate on the AWS stack. */
export interface LoaderResult {
    readonly id: LoaderVariant["id"];
    readonly label: string;
    readonly needs: string;
    readonly runtime: NodejsRuntimeOptions;
    /** Why it does not run the program, when it does not. */
    readonly failure?: string;
    readonly measured?: Measured;
    readonly registrations?: number;
    /** Whether both serialized dynamic providers load in plain node, as Pulumi's dynamic-provider host loads them. */
    readonly providersLoad?: boolean;
    readonly providersNote?: string;
}

/** The chosen loader (Pulumi.yaml's) on one infrastructure type. */
export interface InfraCost {
    readonly infra: BenchInfra;
    readonly registrations: number;
    readonly usedPackages: string[];
    /** @pulumi/* packages the process loaded that no registration came from. */
    readonly unusedPackages: string[];
    readonly program: Measured;
    readonly floor: Floor;
    /** Pulumi's runtime with the same SDKs loaded and no resource registered. */
    readonly emptyProgram: Measured;
}

/** Pulumi.yaml's `main` and runtime options: what `pulumi up` uses. */
export function projectSettings(): { main: string; runtime: NodejsRuntimeOptions } {
    const project = parse(fs.readFileSync(path.join(REPO, "Pulumi.yaml"), "utf8")) as { main?: string; runtime?: unknown };
    return { main: project.main ?? ".", runtime: runtimeOptionsOf(project) };
}

function medians(runs: { ms: number; cpuMs: number; maxRssMb: number }[]): Measured {
    return {
        ms: median(runs.map((r) => r.ms)),
        cpuMs: median(runs.map((r) => r.cpuMs)),
        maxRssMb: median(runs.map((r) => r.maxRssMb)),
        msRuns: runs.map((r) => Math.round(r.ms)),
    };
}

/** Runs the program `repeat` times; throws with the program's errors when a run fails. */
async function measureHosted(p: Omit<HostedProgram, "config"> & { infra: BenchInfra }, repeat: number): Promise<{ measured: Measured; last: HostedRun }> {
    const runs: HostedRun[] = [];
    for (let i = 0; i < repeat; i++) {
        const run = await runHosted({ ...p, config: benchStack(p.infra) });
        if (run.exitCode !== 0 || !run.report) throw new Error(hostedFailure(run));
        runs.push(run);
    }
    return { measured: medians(runs.map((r) => r.report!)), last: runs[runs.length - 1]! };
}

/** The floor for a set of packages: median of `repeat` fresh plain-node processes. */
export function measureFloor(packages: string[], repeat: number): Floor {
    const runs = Array.from({ length: repeat }, () => runChild<{ ms: number; cpuMs: number; maxRssMb: number }>(floorScript(packages)));
    return { packages, ...medians(runs) };
}

/**
 * Whether a serialized provider loads as Pulumi's dynamic-provider host loads it (require-from-string in a
 * plain node process in the project directory) and has the methods the drain needs.
 */
function providerLoads(text: string, dir: string): { ok: boolean; note?: string } {
    const code = `const p = require("require-from-string")(require("fs").readFileSync(0, "utf8")).handler(); if (typeof p.delete !== "function" || typeof p.diff !== "function") throw new Error("no delete/diff");`;
    const res = spawnSync(process.execPath, ["-e", code], { cwd: dir, input: text, encoding: "utf8", env: { PATH: process.env.PATH ?? "" } });
    return res.status === 0 ? { ok: true } : { ok: false, note: (res.stderr || "").split("\n").find((l) => /Error/.test(l)) ?? `exit ${res.status}` };
}

/** Each loader candidate on the AWS stack; the program must register as many resources under each. */
export async function compareLoaders(repeat: number, progress: (s: string) => void): Promise<LoaderResult[]> {
    const out: LoaderResult[] = [];
    for (const v of LOADERS) {
        progress(`loader: ${v.label}…`);
        const base = { id: v.id, label: v.label, needs: v.needs, runtime: v.runtime };
        let dir: string | undefined;
        try {
            dir = v.prepare();
            const probe = await runHosted({ dir, main: v.main, runtime: v.runtime, config: benchStack("aws"), recordInputs: true });
            if (probe.exitCode !== 0) {
                out.push({ ...base, failure: firstError(probe) });
                continue;
            }
            const providers = ["drain-drain", "volume-retention-retain"].map((name) => {
                const inputs = probe.registrations.find((r) => r.type === "pulumi-nodejs:dynamic:Resource" && r.name === name)?.inputs as { __provider?: string } | undefined;
                return inputs?.__provider ? providerLoads(inputs.__provider, dir!) : { ok: false, note: `${name}: no serialized provider` };
            });
            const { measured } = await measureHosted({ dir, main: v.main, runtime: v.runtime, infra: "aws" }, repeat);
            out.push({
                ...base,
                measured,
                registrations: probe.registrations.length,
                providersLoad: providers.every((p) => p.ok),
                providersNote: providers.map((p) => p.note).filter(Boolean).join("; ") || undefined,
            });
        } catch (e) {
            out.push({ ...base, failure: (e as Error).message.split("\n")[0] });
        } finally {
            if (dir) removeProject(dir);
        }
    }
    return out;
}

/** The first line of what a failed run reported, without the runtime's boilerplate. */
function firstError(run: HostedRun): string {
    const text = [...run.logs.filter((l) => l.severity === "error").map((l) => l.message), run.stderr].join("\n");
    const lines = text.split("\n").map((l) => l.replace(/\x1b\[[0-9;]*m/g, "").trim());
    return lines.find((l) => /^[A-Za-z]*Error\b[^(]*:/.test(l)) ?? lines.find((l) => /error:/i.test(l)) ?? `exit ${run.exitCode}`;
}

/** A plain-JavaScript program that loads the given SDKs and registers nothing, in a temporary project. */
function emptyProgram(packages: string[]): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-empty-"));
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "mara-empty", private: true }));
    fs.writeFileSync(path.join(dir, "index.js"), `${packages.map((p) => `require(${JSON.stringify(p)});`).join("\n")}\nmodule.exports = () => ({});\n`);
    fs.symlinkSync(path.join(REPO, "node_modules"), path.join(dir, "node_modules"), "dir");
    return dir;
}

/** Pulumi.yaml's loader on every infrastructure type, with its floor and Pulumi's runtime alone. */
export async function chosenLoaderCost(infras: readonly BenchInfra[], repeat: number, progress: (s: string) => void): Promise<InfraCost[]> {
    const { main, runtime } = projectSettings();
    const out: InfraCost[] = [];
    for (const infra of infras) {
        progress(`program cost: ${infra}…`);
        const { measured, last } = await measureHosted({ dir: REPO, main, runtime, infra, reportLoaded: true }, repeat);
        const usedPackages = sdksOf(last.registrations.map((r) => r.type));
        const loaded = new Set((last.report?.loaded ?? []).map((f) => packageOf(f)).filter((p): p is string => !!p?.startsWith("@pulumi/")));
        const packages = ["@pulumi/pulumi", ...usedPackages];
        const floor = measureFloor(packages, repeat);
        const empty = emptyProgram(packages);
        try {
            const { measured: emptyProgramCost } = await measureHosted({ dir: empty, main: "index.js", runtime: { typescript: false }, infra }, repeat);
            out.push({
                infra,
                registrations: last.registrations.length,
                usedPackages,
                unusedPackages: [...loaded].filter((p) => !packages.includes(p)).sort(),
                program: measured,
                floor,
                emptyProgram: emptyProgramCost,
            });
        } finally {
            fs.rmSync(empty, { recursive: true, force: true });
        }
    }
    return out;
}

/** Where the chosen loader's time goes on one stack: inclusive CPU milliseconds by cause, from one profiled run. */
export interface TimeBreakdown {
    readonly totalMs: number;
    readonly rows: { what: string; ms: number }[];
}

/**
 * Causes, matched on a profile node's function name and file. A sample counts for the innermost frame on
 * its stack that matches one: the TypeScript parser inside the closure serializer is serialization, a
 * package's code run while it is being required is module loading.
 */
const CAUSES: { what: string; match: (fn: string, url: string) => boolean }[] = [
    { what: "the SDK's stack trace for each promise (runtime/debuggable.js), mapped by source-map-support", match: (fn) => fn === "debuggablePromise" },
    { what: "the loader compiling the program's .ts files", match: (_fn, url) => /node_modules\/(sucrase|tsx|esbuild|ts-node)\//.test(url) },
    { what: "serializing the two dynamic providers' code (closure serializer, TypeScript parser)", match: (fn) => /^(serializeFunction|serializeFunctionAsync|parseFunction|computeCapturedVariableNames)$/.test(fn) },
    { what: "loading modules: the SDKs, what they require, the program's files (read, compile, run their top level)", match: (_fn, url) => url.startsWith("node:internal/modules/") },
    { what: "garbage collection", match: (fn) => fn === "(garbage collector)" },
];
const REST = "the rest: the SDK's work per resource (inputs, outputs, gRPC, protobuf), Pulumi's runtime, the program's code";

/** Profiles one run of Pulumi.yaml's loader on a stack and groups the CPU time by cause. */
export async function profileChosen(infra: BenchInfra): Promise<TimeBreakdown> {
    const { main, runtime } = projectSettings();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-profile-"));
    try {
        const nodeargs = `${runtime.nodeargs ?? ""} --cpu-prof --cpu-prof-dir=${dir}`.trim();
        const run = await runHosted({ dir: REPO, main, runtime: { ...runtime, nodeargs }, config: benchStack(infra) });
        if (run.exitCode !== 0) throw new Error(hostedFailure(run));
        const file = fs.readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
        if (!file) throw new Error("no CPU profile was written");
        return breakdown(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as CpuProfile);
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

interface CpuProfile {
    nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
    samples: number[];
    timeDeltas: number[];
}

/** Self time per sample, attributed to the first cause found walking up its stack (else "everything else"). */
export function breakdown(profile: CpuProfile): TimeBreakdown {
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const cause = new Map<number, string>();
    const causeOf = (id: number): string => {
        const known = cause.get(id);
        if (known !== undefined) return known;
        const n = nodes.get(id)!;
        const own = CAUSES.find((c) => c.match(n.callFrame.functionName, n.callFrame.url))?.what;
        const p = parent.get(id);
        const result = own ?? (p === undefined ? "" : causeOf(p));
        cause.set(id, result);
        return result;
    };
    const totals = new Map<string, number>();
    let total = 0;
    profile.samples.forEach((id, i) => {
        const ms = (profile.timeDeltas[i] ?? 0) / 1000;
        const n = nodes.get(id)!;
        if (n.callFrame.functionName === "(idle)") return;
        total += ms;
        const what = causeOf(id) || REST;
        totals.set(what, (totals.get(what) ?? 0) + ms);
    });
    const rows = [...totals].map(([what, ms]) => ({ what, ms })).sort((a, b) => b.ms - a.ms);
    return { totalMs: total, rows };
}
