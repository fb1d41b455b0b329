/** Runs the whole program under mocks from raw config, the way `pulumi up` / `pulumi preview` would. */
import * as pulumi from "@pulumi/pulumi";
import { vi } from "vitest";
import program from "../../index";
import type { RawConfig } from "../../config";
import { TEST_DAY } from "./config";
import { installMocks, Registration, settle } from "./mocks";
import { withShortStackTraces } from "../../offline/stackTraces";

/** Environment variables the program consults; cleared so the host's settings cannot leak into tests. */
const PROGRAM_ENV = ["AWS_REGION", "AWS_DEFAULT_REGION", "DIGITALOCEAN_TOKEN", "LINODE_TOKEN", "MARA_TODAY"];

export interface ProgramRun {
    registrations: Registration[];
    calls: pulumi.runtime.MockCallArgs[];
    outputs?: Record<string, pulumi.Input<unknown>>;
    warnings: string[];
    error?: unknown;
}

/** Runs the program; a thrown error is returned (with what was registered before it), not rethrown. */
export async function runProgram(raw: RawConfig, opts: { preview?: boolean; engineUrns?: boolean } = {}): Promise<ProgramRun> {
    const touched = [...new Set([...PROGRAM_ENV, ...Object.keys(raw.env)])];
    const saved = Object.fromEntries(touched.map((k) => [k, process.env[k]]));
    PROGRAM_ENV.forEach((k) => delete process.env[k]);
    // Rules that depend on the day (which Kubernetes versions a cloud creates) are checked for a fixed one.
    process.env.MARA_TODAY = TEST_DAY;
    Object.entries(raw.env).forEach(([k, v]) => (process.env[k] = v));
    const warnings: string[] = [];
    const warn = vi.spyOn(pulumi.log, "warn").mockImplementation((msg: string) => {
        warnings.push(msg);
        return Promise.resolve();
    });
    try {
        const { registrations, calls } = await installMocks({
            config: { ...raw.values },
            secretKeys: [...raw.secretKeys],
            preview: opts.preview,
            engineUrns: opts.engineUrns,
            project: raw.project,
            stack: raw.stack,
        });
        let outputs: ProgramRun["outputs"];
        let error: unknown;
        // As an offline run of the program does (offline/stackTraces.ts): the SDK's trace of each promise kept short.
        await withShortStackTraces(async () => {
            try {
                outputs = program();
            } catch (e) {
                error = e;
            }
            await settle();
        });
        return { registrations, calls, outputs, warnings, error };
    } finally {
        warn.mockRestore();
        touched.forEach((k) => (saved[k] === undefined ? delete process.env[k] : (process.env[k] = saved[k])));
    }
}
