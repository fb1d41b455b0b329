/**
 * `mara doctor`: read-only checks of the live cluster a stack points at, before anything is deployed to it. Each
 * check prints a verdict and, when it is not a pass, the fix. `mara up` runs the same checks first on an
 * existing-cluster stack (cli/operation/run.ts).
 */
import type { MaraConfig } from "../../config";
import type { CommandContext } from "../kernel/command";
import { kubeClient, kubeConfigFrom } from "../doctor/kubeClient";
import { doctorPlan } from "../doctor/plan";
import { doctorExitCode, jsonReport, textReport } from "../doctor/report";
import { DOCTOR_BOUND_MS, runDoctor } from "../doctor/run";
import { DoctorTarget, targetOfConfig, targetOfFile } from "../doctor/target";
import { CliError, CliIo, EXIT, line } from "../kernel/io";
import { checkConfig } from "../kernel/report";
import { locateStackFile, readStackFile } from "../stack/stackSource";

/** Options of {@link doctor}. */
export interface DoctorOptions {
    readonly configFile?: string;
    readonly stack?: string;
    /** A kubeconfig file to use instead of the stack's. */
    readonly kubeconfig?: string;
    /** Its context; default its current context (or the stack's `mara:kubeContext`). */
    readonly context?: string;
    readonly json?: boolean;
}

/**
 * Examines the cluster.
 *
 * @returns 0 when no check failed (warnings allowed), 6 when one did, 7 when the cluster could not be reached or
 *   refused the credentials, 1 for an invalid stack configuration, 2 for a wrong command line.
 */
export async function doctor(opts: DoctorOptions, ctx: CommandContext): Promise<number> {
    const { io } = ctx;
    let cfg: MaraConfig | undefined;
    const explicitStack = opts.configFile !== undefined || opts.stack !== undefined;
    if (explicitStack || !opts.kubeconfig) {
        const file = locateStackFile({ configFile: opts.configFile, stack: opts.stack }, io.cwd);
        const result = checkConfig(io, readStackFile(file, io.env, io.projectDir), file.path);
        if (!result) return EXIT.failed;
        cfg = result.config;
    }
    const target = opts.kubeconfig
        ? targetOfFile(opts.kubeconfig, opts.context ?? (cfg?.infra.type === "kubeconfig" ? cfg.infra.context : undefined), io.cwd, io.env)
        : { ...targetOfConfig(cfg!, io.env, io.projectDir), ...(opts.context ? { context: opts.context } : {}) };
    return examine(target, cfg, io, opts.json === true);
}

/** Runs the checks and prints them; the exit code as {@link doctor} describes it. */
export async function examine(target: DoctorTarget, cfg: MaraConfig | undefined, io: CliIo, json: boolean): Promise<number> {
    let kc;
    try {
        kc = kubeConfigFrom(target.kubeconfig, target.context, target.baseDir);
    } catch (e) {
        throw new CliError(`${target.source}: ${(e as Error).message}`, EXIT.usage);
    }
    const client = kubeClient(kc, { deadline: Date.now() + DOCTOR_BOUND_MS, deadlineName: `mara doctor's ${DOCTOR_BOUND_MS / 1000} s bound`, env: io.env });
    const result = await runDoctor(client, doctorPlan(cfg), today(io.env));
    if (json) io.stdout.write(`${JSON.stringify(jsonReport(result), null, 2)}\n`);
    else for (const l of textReport(result)) line(io.stdout, l);
    return doctorExitCode(result);
}

/** The day the support calendar is read for: `MARA_TODAY` moves it, as for `mara validate`. */
function today(env: Readonly<Record<string, string | undefined>>): Date {
    const today = env.MARA_TODAY;
    return today && /^\d{4}-\d{2}-\d{2}$/.test(today) ? new Date(`${today}T12:00:00Z`) : new Date();
}
