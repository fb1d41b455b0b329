/**
 * `mara plan`: what `pulumi up` would create, offline. The real program runs under Pulumi mocks in
 * preview mode from a stack file; the recorded registrations give the component tree in dependency
 * order (MARA's `show-execution`, but derived rather than hard-coded), resource counts and the
 * dependency graph as Mermaid or DOT.
 */
import * as fs from "fs";
import * as path from "path";
import program from "../../index";
import { ConfigError, RawConfig } from "../../config";
import type { CommandContext } from "../command";
import { buildPlan, Plan } from "../graph";
import { CliIo, EXIT, line } from "../io";
import { runOffline } from "../offline";
import { renderCounts, renderTree, toDot, toMermaid } from "../planOutput";
import { checkConfig, printProblems, printWarnings } from "../report";
import { locateStackFile, readStackFile, StackFileChoice } from "../stackSource";

/** Options of {@link plan}. */
export interface PlanOptions extends StackFileChoice {
    /** Write the dependency graph as Mermaid to this file. */
    readonly mermaid?: string;
    /** Write the dependency graph as Graphviz DOT to this file. */
    readonly dot?: string;
}

/**
 * Validates the stack file, runs the program offline and prints the plan; writes the graph files.
 *
 * @returns 0 on success, 1 when the configuration is invalid or the program fails.
 */
export async function plan(opts: PlanOptions, ctx: CommandContext): Promise<number> {
    const { io } = ctx;
    const file = locateStackFile(opts, io.cwd);
    const raw = readStackFile(file, io.env);
    // Validate first so every problem is listed, and nothing runs on a bad config.
    const result = checkConfig(io, raw, file.path);
    if (!result) return EXIT.failed;

    const run = await runOffline(raw, program);
    // The program logs the same validation warnings; print only what is new.
    printWarnings(io, run.logs.filter((l) => l.severity === "warn" && !result.warnings.includes(l.message)).map((l) => l.message));
    for (const l of run.logs.filter((x) => x.severity === "error")) line(io.stderr, `error: ${l.message}`);
    if (run.error !== undefined) return programFailed(io, run.error, file.path);

    const p = buildPlan(run.resources);
    printPlan(io, p, raw, file.path);
    if (opts.mermaid) writeGraph(io, opts.mermaid, toMermaid(p), "Mermaid");
    if (opts.dot) writeGraph(io, opts.dot, toDot(p), "DOT");
    if (run.unansweredInvokes.length > 0) {
        line(io.stderr, `note: lookups answered with empty placeholders offline: ${run.unansweredInvokes.join(", ")}`);
    }
    return EXIT.ok;
}

function programFailed(io: CliIo, error: unknown, where: string): number {
    if (error instanceof ConfigError) {
        printProblems(io, error.problems, where);
    } else {
        line(io.stderr, `error: the program stopped before completing the plan: ${(error as Error)?.message ?? String(error)}`);
    }
    return EXIT.failed;
}

function printPlan(io: CliIo, p: Plan, raw: RawConfig, where: string): void {
    const out = io.stdout;
    line(out, `Plan for stack "${raw.stack}" from ${where}`);
    line(out, "(offline: the program ran under Pulumi mocks as a first `pulumi preview`; no CLI, cloud or credentials were used)");
    line(out);
    line(out, "Components in dependency order (a step waits only for earlier steps; components in one step deploy in parallel):");
    line(out, renderTree(p));
    if (p.topLevel.length > 0) line(out, `Top-level providers: ${p.topLevel.map((r) => `${r.name} (${r.type})`).join(", ")}`);
    line(out);
    line(out, "Resources by type:");
    line(out, renderCounts(p));
    if (p.remoteComponents.length > 0) {
        const types = [...new Set(p.remoteComponents.map((r) => r.type))].join(", ");
        line(out, `(${types}: components implemented by their provider package; the resources they create inside appear only in a real preview.)`);
    }
}

function writeGraph(io: CliIo, target: string, text: string, kind: string): void {
    const file = path.resolve(io.cwd, target);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    line(io.stderr, `Wrote the dependency graph (${kind}) to ${target}`);
}
