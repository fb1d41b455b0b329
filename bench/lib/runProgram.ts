/** Runs a Pulumi program function under the bench mocks, as `pulumi up` would on an empty stack. */
import { performance } from "perf_hooks";
import type * as pulumi from "@pulumi/pulumi";
import { BenchMockOptions, BenchRegistration, installBenchMocks, settle } from "./mocks";
import type { RawConfig } from "../../config";

/** What one run produced. */
export interface ProgramRun {
    readonly registrations: BenchRegistration[];
    readonly warnings: string[];
    /** Wall milliseconds from calling the program until every registration was answered. */
    readonly wallMs: number;
    /** Wall milliseconds the program function itself took (declaring resources; no registration is answered before it returns). */
    readonly declareMs: number;
    /** Mock clock (registration timestamps) at the moment the program had declared everything. */
    readonly declaredAtMs: number;
}

/** Runs `program` under fresh mocks built from `raw` and waits until the deployment has settled. */
export async function runUnderMocks(
    program: () => Record<string, pulumi.Input<unknown>> | void,
    raw: RawConfig,
    opts: Omit<BenchMockOptions, "config" | "secretKeys" | "project" | "stack">,
): Promise<ProgramRun> {
    const mocks = await installBenchMocks({ ...opts, config: { ...raw.values }, secretKeys: [...raw.secretKeys], project: raw.project, stack: raw.stack });
    const start = mocks.now();
    program();
    const declaredAtMs = mocks.now();
    await settle();
    const wallMs = mocks.now() - start;
    return { registrations: mocks.registrations, warnings: mocks.warnings, wallMs, declareMs: declaredAtMs - start, declaredAtMs };
}

/** Writes a child's result where the parent looks for it (one line, after everything else). */
export function emitResult(result: unknown): void {
    process.stdout.write(`\nBENCH_RESULT ${JSON.stringify(result)}\n`);
}

/** Milliseconds since process start, CPU milliseconds used so far, peak resident memory and heap in use, now. */
export function measure() {
    const cpu = process.cpuUsage();
    return {
        ms: performance.now(),
        cpuMs: (cpu.user + cpu.system) / 1000,
        maxRssMb: process.resourceUsage().maxRSS / 1024,
        heapUsedMb: process.memoryUsage().heapUsed / 1024 / 1024,
    };
}
