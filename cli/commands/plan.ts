/**
 * `mara plan`: what `pulumi up` would create, offline. The real program runs under Pulumi mocks in
 * preview mode from a stack file; the recorded registrations give the component tree in dependency
 * order (MARA's `show-execution`, but derived rather than hard-coded), resource counts, every Helm release
 * with its chart@version and every container image with its tag, and the dependency graph as Mermaid or DOT.
 */
import * as fs from "fs";
import * as path from "path";
import program from "../../index";
import { ConfigError, MaraConfig, RawConfig, Redactor } from "../../config";
import { shownPath } from "../../config/localPaths";
import type { CommandContext } from "../kernel/command";
import { buildPlan, Plan } from "../plan/graph";
import { CliError, CliIo, EXIT, line, Writer } from "../kernel/io";
import { runOffline } from "../../offline/run";
import { makeDirs, outputFileProblem } from "../../host/outputPath";
import { checkPolicies } from "../plan/policyCheck";
import { printPolicyReport, readPolicyConfig } from "../plan/policyReport";
import { renderCounts, renderTree, toDot, toMermaid } from "../plan/output";
import { Inventory, inventory } from "../plan/inventory";
import { ConfigTarget, configTarget } from "../stack/configTarget";
import { checkConfig, printProblems, printWarnings } from "../kernel/report";
import { locateStackFile, readStackFile, StackFileChoice } from "../stack/stackSource";

/** Options of {@link plan}. */
export interface PlanOptions extends StackFileChoice {
    /** Write the dependency graph as Mermaid to this file, or to standard output with `-`. */
    readonly mermaid?: string;
    /** Write the dependency graph as Graphviz DOT to this file, or to standard output with `-`. */
    readonly dot?: string;
    /** Print the plan as JSON on standard output, for scripts. */
    readonly json?: boolean;
    /** Run the policy pack over what the program registers; mandatory violations make the command fail. */
    readonly policy?: boolean;
    /** The pack's configuration (levels and settings per rule), as `pulumi preview --policy-pack-config` takes it; implies `policy`. */
    readonly policyConfig?: string;
}

/** Standard output as a file name. */
const STDOUT = "-";

/**
 * Validates the stack file, runs the program offline and prints the plan; writes the graph files.
 *
 * @returns 0 on success, 1 when the configuration is invalid, the program fails or (with `--policy`) a mandatory rule
 *   is broken, 2 for unusable options.
 */
export async function plan(opts: PlanOptions, ctx: CommandContext): Promise<number> {
    const { io } = ctx;
    // Where the output goes is checked before anything runs: a mistake here should not cost a program run.
    const graphs = checkTargets(opts, io);
    const withPolicy = opts.policy === true || opts.policyConfig !== undefined;
    const policyConfig = readPolicyConfig(opts.policyConfig, io.cwd);
    const file = locateStackFile(opts, io.cwd, io.projectDir);
    const raw = readStackFile(file, io.env, io.projectDir);
    // Validate first so every problem is listed, and nothing runs on a bad config.
    const target = configTarget(file, io.projectDir);
    const result = checkConfig(io, raw, file.path, target);
    if (!result) return EXIT.failed;

    const run = await runOffline(raw, program, io.projectDir);
    const redactor = Redactor.of(raw);
    // The program logs the same validation warnings; print only what is new.
    printWarnings(io, run.logs.filter((l) => l.severity === "warn" && !result.warnings.includes(l.message)).map((l) => redactor.redact(l.message)), target);
    for (const l of run.logs.filter((x) => x.severity === "error")) line(io.stderr, `error: ${redactor.redact(l.message)}`);
    if (run.error !== undefined) return programFailed(io, run.error, file.path, redactor, target);

    const p = buildPlan(run.resources);
    const inv = inventory(run.resources, result.config);
    // With the plan or a graph on standard output, the human-readable plan goes to standard error.
    const toStdout = opts.json === true || graphs.some((g) => g.target === STDOUT);
    const human = toStdout ? io.stderr : io.stdout;
    const policy = withPolicy ? await checkPolicies(run.resources, policyConfig) : undefined;
    if (opts.json) line(io.stdout, JSON.stringify({ ...(planJson(p, inv, raw, file.path, result.config, run.unansweredInvokes) as object), ...(policy ? { policy } : {}) }, null, 2));
    else printPlan(human, p, inv, raw, file.path);
    if (policy) {
        line(human);
        printPolicyReport(human, policy);
    }
    for (const g of graphs) writeGraph(io, g.target, g.render(p), g.kind);
    if (run.unansweredInvokes.length > 0) {
        line(io.stderr, `note: lookups answered with empty placeholders offline: ${run.unansweredInvokes.join(", ")}`);
    }
    return policy?.violations.some((v) => v.level === "mandatory") ? EXIT.failed : EXIT.ok;
}

/** The graph files asked for, each checked: a directory or a missing parent that is a file is a usage error. */
function checkTargets(opts: PlanOptions, io: CliIo): { target: string; kind: string; render: (p: Plan) => string }[] {
    const graphs = [
        { option: "--mermaid", target: opts.mermaid, kind: "Mermaid", render: toMermaid },
        { option: "--dot", target: opts.dot, kind: "DOT", render: toDot },
    ].filter((g): g is typeof g & { target: string } => g.target !== undefined);
    const onStdout = graphs.filter((g) => g.target === STDOUT).map((g) => g.option);
    if (onStdout.length + (opts.json ? 1 : 0) > 1) {
        throw new CliError(`only one of ${[...onStdout, ...(opts.json ? ["--json"] : [])].join(", ")} can write to standard output; give the others a file name`, EXIT.usage);
    }
    for (const g of graphs) {
        if (g.target === STDOUT) continue;
        const file = path.resolve(io.cwd, g.target);
        if (g.target.endsWith("/") || g.target.endsWith(path.sep) || isDirectory(file)) {
            throw new CliError(`${g.option} ${shownPath(g.target)} is a directory; give a file name, such as ${path.join(g.target, g.kind === "DOT" ? "plan.dot" : "plan.mmd")}, or - for standard output`, EXIT.usage);
        }
        const problem = outputFileProblem(file, g.target);
        if (problem) throw new CliError(`${g.option} ${shownPath(g.target)}: ${problem}`, EXIT.usage);
    }
    return graphs;
}

const isDirectory = (p: string) => {
    try {
        return fs.statSync(p).isDirectory();
    } catch {
        return false;
    }
};

function programFailed(io: CliIo, error: unknown, where: string, redactor: Redactor, target: ConfigTarget): number {
    if (error instanceof ConfigError) {
        printProblems(io, error.problems, where, target);
    } else {
        // The message only, never a stack trace; and no secret of the stack, whatever the message holds.
        line(io.stderr, `error: the program stopped before completing the plan: ${redactor.redact((error as Error)?.message ?? String(error))}`);
    }
    return EXIT.failed;
}

function printPlan(out: Writer, p: Plan, inv: Inventory, raw: RawConfig, where: string): void {
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
    line(out);
    line(out, "Helm releases (chart@version):");
    const width = Math.max(...inv.releases.map((r) => r.resource.length), 0);
    for (const r of inv.releases) {
        const from = r.repository ?? r.archive;
        const where = [r.namespace ? `namespace ${r.namespace}` : undefined, from ? `from ${from}` : undefined].filter(Boolean).join(", ");
        line(out, `  ${r.resource.padEnd(width)}  ${r.chart}@${r.version}${where ? `  (${where})` : ""}`);
    }
    line(out);
    line(out, "Container images:");
    for (const i of inv.images) line(out, `  ${i.image}  (${i.usedBy.join(", ")})`);
    if (inv.unlistedCharts.length > 0) {
        line(out, `  (and the images of ${inv.unlistedCharts.join(", ")}: chart versions other than the pins, whose images are not recorded offline)`);
    }
}

/** The plan for scripts: the tree, counts, releases, images and what was approximated. */
function planJson(p: Plan, inv: Inventory, raw: RawConfig, where: string, cfg: MaraConfig, unanswered: string[]): unknown {
    const node = (n: Plan["roots"][number]): unknown => ({
        type: n.type,
        name: n.name,
        step: n.step,
        resources: n.totalResources,
        after: n.after.map((a) => a.name),
        alsoAfter: n.alsoAfter.map((a) => a.name),
        children: n.children.map(node),
    });
    return {
        stack: raw.stack,
        stackFile: where,
        infraType: cfg.infra.type,
        components: p.roots.map(node),
        resourcesByType: Object.fromEntries(p.typeCounts),
        helmReleases: inv.releases,
        images: inv.images,
        unlistedCharts: inv.unlistedCharts,
        offlinePlaceholders: unanswered,
    };
}

function writeGraph(io: CliIo, target: string, text: string, kind: string): void {
    if (target === STDOUT) {
        io.stdout.write(text);
        return;
    }
    const file = path.resolve(io.cwd, target);
    makeDirs(path.dirname(file));
    fs.writeFileSync(file, text);
    line(io.stderr, `Wrote the dependency graph (${kind}) to ${target}`);
}
