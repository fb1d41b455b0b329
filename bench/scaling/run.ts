/**
 * Child process: evaluates the scaling variant (bench/scaling/program.ts) with N applications under
 * mocks, in a fresh process, with the loader Pulumi.yaml gives the program (Sucrase).
 *
 *   node --expose-gc -r sucrase/register/ts bench/scaling/run.ts <N> [infra]
 */
import { performance } from "perf_hooks";
import { emitResult, measure, runUnderMocks } from "../lib/runProgram";
import { benchStack, clearProgramEnv, isBenchInfra } from "../lib/stacks";
import { scalingProgram } from "./program";

async function main() {
    const n = Number(process.argv[2]);
    const infra = process.argv[3] ?? "kubeconfig";
    if (!Number.isInteger(n) || n < 1 || !isBenchInfra(infra)) throw new Error(`usage: run.ts <instances ≥ 1> [infra]`);
    clearProgramEnv();
    const raw = benchStack(infra);
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const loadMs = performance.now();
    const loadMaxRssMb = process.resourceUsage().maxRSS / 1024;
    const loadedHeapMb = process.memoryUsage().heapUsed / 1024 / 1024;
    const keep: unknown[] = [];
    const cpu = process.cpuUsage();
    const run = await runUnderMocks(scalingProgram(n, keep as never[]), raw, { msPerMinute: 0, recordInputs: "none" });
    const used = process.cpuUsage(cpu);
    const measured = measure();
    // The heap the evaluated program holds (run with --expose-gc): live objects after a full collection,
    // while the component tree is still referenced, less the heap before the program ran. Unlike peak
    // RSS it does not depend on when V8 chose to collect.
    gc?.();
    const liveHeapMb = process.memoryUsage().heapUsed / 1024 / 1024 - loadedHeapMb;
    emitResult({
        instances: n,
        infra,
        registrations: run.registrations.length,
        kept: keep.length,
        loadMs,
        loadMaxRssMb,
        evalMs: run.wallMs,
        // CPU time of the evaluation: less disturbed than wall time when other processes share the cores.
        evalCpuMs: (used.user + used.system) / 1000,
        ...measured,
        liveHeapMb,
    });
}

main().catch((e) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
});
