/** Runs the benchmark's child processes, one measurement each, and reads their results. */
import { spawnSync } from "child_process";
import * as path from "path";
import { REPO } from "./stacks";

/** Node arguments that load a TypeScript file with the hook Pulumi.yaml gives the program (Sucrase's). */
export const TS_LOADER = ["-r", "sucrase/register/ts"];

/** Runs `node <args>` in the repository and returns the object the child passed to `emitResult`. */
export function runChild<T>(args: string[], env: Record<string, string> = {}): T {
    const res = spawnSync(process.execPath, args, {
        cwd: REPO,
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, ...env },
    });
    const line = res.stdout?.split("\n").reverse().find((l) => l.startsWith("BENCH_RESULT "));
    if (res.status !== 0 || !line) {
        throw new Error(`bench child failed (node ${args.join(" ")}), exit ${res.status}:\n${res.stderr || res.stdout}`);
    }
    return JSON.parse(line.slice("BENCH_RESULT ".length)) as T;
}

/** A TypeScript child under bench/. */
export const benchScript = (...parts: string[]) => [...TS_LOADER, path.join(REPO, "bench", ...parts)];

/**
 * The floor: a fresh plain-node process that only requires the given packages, then reports the
 * same measures as the program children (milliseconds since process start, CPU time, peak RSS).
 */
export function floorScript(packages: string[]): string[] {
    const code = [
        `const { performance } = require("perf_hooks");`,
        `for (const p of ${JSON.stringify(packages)}) require(p);`,
        `const cpu = process.cpuUsage();`,
        `const r = { packages: ${JSON.stringify(packages)}, ms: performance.now(), cpuMs: (cpu.user + cpu.system) / 1000, maxRssMb: process.resourceUsage().maxRSS / 1024, heapUsedMb: process.memoryUsage().heapUsed / 1048576 };`,
        `process.stdout.write("\\nBENCH_RESULT " + JSON.stringify(r) + "\\n");`,
    ].join("\n");
    return ["-e", code];
}

/** Median of numbers. */
export function median(xs: number[]): number {
    const s = [...xs].sort((a, b) => a - b);
    const m = Math.floor(s.length / 2);
    return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
