/**
 * Child process: the deploy critical path for one infrastructure type.
 *
 *   node -r sucrase/register/ts bench/deploy/run.ts <aws|digitalocean|linode|kubeconfig> <ms per simulated minute>
 *
 * 1. The program with every creation answered at once: the SDK's own cost (and the resource set).
 * 2. The program with simulated creation times: "ours", the wall time the SDK's concurrency gives.
 * 3. The same registrations forced into MARA's order: each MARA project's resources wait until every
 *    resource of the projects before it has finished.
 * From the graph recorded in 2: the critical path, MARA's schedule computed, and the findings.
 */
import { FINDINGS, findingEdges } from "../lib/findings";
import { buildGraph, criticalPath, edgeKey, Graph, maraSchedule, Node, placeInOrder, unexplainedWaits, waitsFor } from "../lib/graph";
import { MARA_ONLY, MARA_ORDER, maraProject, Mappable } from "../lib/maraOrder";
import type { BenchRegistration } from "../lib/mocks";
import { sdksOf } from "../lib/modules";
import { emitResult, runUnderMocks } from "../lib/runProgram";
import { benchStack, clearProgramEnv, isBenchInfra } from "../lib/stacks";

async function main() {
    // The SDK captures a stack trace for every promise it makes (runtime/debuggable.js), which Pulumi's
    // source-map support turns into most of the CPU time. Here, where minutes are compressed into
    // milliseconds, that CPU time would stretch every step of the schedule; the program cost part
    // measures it as Pulumi runs the program. Traces are only used for leak diagnostics.
    Error.stackTraceLimit = 0;
    const [infra, scaleArg] = process.argv.slice(2);
    if (!isBenchInfra(infra)) throw new Error(`usage: run.ts <aws|digitalocean|linode|kubeconfig> <ms per minute>; got ${infra}`);
    const msPerMinute = Number(scaleArg ?? "200");
    clearProgramEnv();
    const raw = benchStack(infra);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const program: () => Record<string, unknown> = require("../../index");

    // 1. No simulated time: what the SDK itself costs.
    const instant = await runUnderMocks(program, raw, { msPerMinute: 0, recordInputs: "durations" });

    // 2. Ours: the SDK schedules, every creation takes its simulated time.
    const ours = await runUnderMocks(program, raw, { msPerMinute });
    const graph = buildGraph(ours.registrations);
    const cp = criticalPath(graph);

    // MARA's project of every registration, and where it must run when projects run in order.
    const order = MARA_ORDER[infra];
    const byUrn = new Map<string, Mappable>(ours.registrations.map((r) => [r.urn, r]));
    const unmapped = new Set<string>();
    const placement = placeInOrder(graph, (node) => {
        const project = maraProject(infra, node.reg, byUrn, unmapped);
        if (project === undefined) return undefined;
        const i = order.indexOf(project);
        if (i < 0) throw new Error(`bench: project ${project} is not in MARA's ${infra} order`);
        return i;
    });
    const computedMara = maraSchedule(graph, placement, order.length);

    // 3. MARA's order, measured: a barrier per project.
    const remaining = new Array<number>(order.length).fill(0);
    for (const [urn, p] of placement) if (graph.get(urn)!.work) remaining[p.effective]!++;
    const firstIncomplete = () => {
        const k = remaining.findIndex((n) => n > 0);
        return k < 0 ? order.length : k;
    };
    const phaseEndMs = order.map(() => -1);
    const waiters: { k: number; resolve: () => void }[] = [];
    const sequential = await runUnderMocks(program, raw, {
        msPerMinute,
        gate: (reg: BenchRegistration) => {
            if (!(reg.custom || reg.remote)) return;
            const p = placement.get(reg.urn);
            if (!p) throw new Error(`bench: ${reg.urn} was not registered in the concurrent run`);
            if (p.effective <= firstIncomplete()) return;
            return new Promise<void>((resolve) => waiters.push({ k: p.effective, resolve }));
        },
        onFinish: (reg: BenchRegistration) => {
            if (!(reg.custom || reg.remote)) return;
            const k = placement.get(reg.urn)!.effective;
            remaining[k]!--;
            const open = firstIncomplete();
            for (let j = 0; j < open && j < order.length; j++) if (phaseEndMs[j]! < 0) phaseEndMs[j] = reg.finishedMs;
            for (let i = waiters.length - 1; i >= 0; i--) {
                if (waiters[i]!.k <= open) {
                    waiters[i]!.resolve();
                    waiters.splice(i, 1);
                }
            }
        },
    });
    if (waiters.length) throw new Error(`bench: ${waiters.length} registrations never passed MARA's barriers`);

    // Findings: present? on the critical path? what removing them would give.
    // The deployment is timed from the moment the program has declared its resources: declaring is CPU
    // work of a second or so (measured in the program-cost part) that the compressed time scale would
    // otherwise turn into simulated minutes.
    const oursMin = (ours.wallMs - ours.declareMs) / msPerMinute;
    const maraMin = (sequential.wallMs - sequential.declareMs) / msPerMinute;
    const measuredOverCp = oursMin / cp.minutes;
    const findings = FINDINGS.map((f) => {
        const edges = findingEdges(f, graph);
        const dropped = new Set(edges);
        const cpWithout = edges.length ? criticalPath(graph, dropped).minutes : cp.minutes;
        return {
            id: f.id,
            present: edges.length > 0,
            edges: edges.length,
            onCriticalPath: cp.minutes - cpWithout > 1e-9,
            criticalPathWithoutMinutes: cpWithout,
            savesMinutes: cp.minutes - cpWithout,
            predictedOursOverMara: (cpWithout * measuredOverCp) / maraMin,
        };
    });
    const allDropped = new Set(FINDINGS.flatMap((f) => findingEdges(f, graph)));
    const cpWithoutAll = criticalPath(graph, allDropped);
    const placementWithoutAll = placeInOrder(dropEdges(graph, allDropped), (node) => placement.get(node.reg.urn)?.own);
    const maraWithoutAll = maraSchedule(dropEdges(graph, allDropped), placementWithoutAll, order.length);

    // Promotions of resources that take time (generated passwords follow their grouping component).
    const promotions = [...placement].filter(([urn, p]) => p.promotedBy && graph.get(urn)!.reg.minutes > 0).map(([urn, p]) => ({
        resource: `${graph.get(urn)!.reg.type} ${graph.get(urn)!.reg.name}`,
        maraProject: order[p.own!],
        runsIn: order[p.effective],
        because: `${graph.get(p.promotedBy!)!.reg.type} ${graph.get(p.promotedBy!)!.reg.name}`,
    }));

    const work = ours.registrations.filter((r) => r.custom || r.remote);
    const imageNode = [...graph.values()].find((n) => n.reg.type === "docker:index/registryImage:RegistryImage");
    emitResult({
        infra,
        msPerMinute,
        registrations: ours.registrations.length,
        workRegistrations: work.length,
        packages: sdksOf(ours.registrations.map((r) => r.type)),
        fallbackDurations: [...new Set(work.filter((r) => r.fallback).map((r) => r.type))],
        sumOfDurationsMinutes: work.reduce((s, r) => s + r.minutes, 0),
        sdkOnlyMs: instant.wallMs,
        ours: { wallMs: ours.wallMs, declareMs: ours.declareMs, minutes: oursMin },
        mara: {
            wallMs: sequential.wallMs,
            declareMs: sequential.declareMs,
            minutes: maraMin,
            computedMinutes: computedMara.minutes,
            phases: order.map((project, k) => ({
                project,
                computedStart: computedMara.phases[k]!.start,
                computedEnd: computedMara.phases[k]!.end,
                measuredEnd: phaseEndMs[k]! < 0 ? undefined : (phaseEndMs[k]! - sequential.declaredAtMs) / msPerMinute,
                resources: [...placement].filter(([urn, p]) => p.effective === k && graph.get(urn)!.work).length,
            })),
            notModelled: MARA_ONLY[infra],
            // Registrations bench/lib/maraOrder.ts does not map yet (placed by their dependencies).
            unmapped: [...unmapped],
            promotions,
        },
        criticalPath: cp,
        ratios: { oursOverMara: oursMin / maraMin, oursOverCriticalPath: measuredOverCp, computedCriticalPathOverMara: cp.minutes / computedMara.minutes },
        checks: {
            // README: "the ingress controller [waits] for its image". Does its Helm release wait for the push?
            ingressReleaseWaitsForImagePush: imageNode
                ? waitsFor(graph, urnNamed(graph, "ingress-controller-release"), (n) => n.reg.type === "docker:index/registryImage:RegistryImage")
                : undefined,
            imagePushStartsAtMinutes: imageNode ? (imageNode.reg.startedMs - ours.declaredAtMs) / msPerMinute : undefined,
        },
        timeline: ours.registrations
            .filter((r) => r.custom || r.remote)
            .map((r) => ({ type: r.type, name: r.name, minutes: r.minutes, start: (r.startedMs - ours.declaredAtMs) / msPerMinute, end: (r.finishedMs - ours.declaredAtMs) / msPerMinute })),
        findings,
        withoutFindings: {
            criticalPathMinutes: cpWithoutAll.minutes,
            maraComputedMinutes: maraWithoutAll.minutes,
            // Ours is predicted from the critical path, with this run's measured overhead over it.
            predictedOursOverMara: (cpWithoutAll.minutes * measuredOverCp) / maraMin,
            criticalPath: cpWithoutAll.path,
        },
        unexplainedWaits: unexplainedWaits(graph, msPerMinute).slice(0, 10),
        warnings: ours.warnings,
    });
}

/** URN of the registration with this name. */
function urnNamed(graph: Graph, name: string): string {
    // The Platform names its children after itself (`platform-ingress-controller-release`).
    for (const n of graph.values()) if (n.reg.name === name || n.reg.name.endsWith(`-${name}`)) return n.reg.urn;
    throw new Error(`bench: no registration named ${name}`);
}

/** A copy of the graph without some edges. */
function dropEdges(graph: Graph, dropped: ReadonlySet<string>): Graph {
    const out = new Map<string, Node>();
    for (const [urn, n] of graph) out.set(urn, { ...n, edges: n.edges.filter((e) => !dropped.has(edgeKey(urn, e.to))) });
    return out;
}

main().catch((e) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
});
