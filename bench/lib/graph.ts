/**
 * The recorded dependency graph: every registration waits for its dependencies (explicit and through
 * inputs), its parent and its provider. From it: the critical path (the longest chain by simulated
 * duration, i.e. the least time any scheduler could deploy in), MARA's one-project-after-another
 * schedule, and what-if variants with some edges removed.
 */
import type { BenchRegistration } from "./mocks";

/** How a registration came to wait for another. */
export type EdgeKind = "input" | "dependsOn" | "parent" | "provider";

/** A dependency of a node. */
export interface Edge {
    readonly to: string;
    readonly kind: EdgeKind;
    /** The input property carrying the dependency, for `input` edges. */
    readonly property?: string;
}

/** A registration in the graph. */
export interface Node {
    readonly reg: BenchRegistration;
    /** Whether the engine does work for it (custom resources and remote components); only these are gated. */
    readonly work: boolean;
    readonly edges: Edge[];
}

/** The graph, by URN. */
export type Graph = ReadonlyMap<string, Node>;

/** Builds the graph from recorded registrations. Edges to URNs that were never registered are dropped. */
export function buildGraph(regs: readonly BenchRegistration[]): Graph {
    const urns = new Set(regs.map((r) => r.urn));
    const graph = new Map<string, Node>();
    for (const reg of regs) {
        const edges = new Map<string, Edge>();
        const add = (to: string, kind: EdgeKind, property?: string) => {
            if (to && to !== reg.urn && urns.has(to) && !edges.has(to)) edges.set(to, { to, kind, ...(property ? { property } : {}) });
        };
        for (const [property, deps] of Object.entries(reg.propertyDependencies)) for (const d of deps) add(d, "input", property);
        for (const d of reg.dependencies) add(d, "dependsOn");
        add(reg.parent, "parent");
        add(reg.provider, "provider");
        for (const p of Object.values(reg.providers)) add(p, "provider");
        graph.set(reg.urn, { reg, work: reg.custom || reg.remote, edges: [...edges.values()] });
    }
    return graph;
}

/** Edges to leave out, as "dependentUrn -> dependencyUrn". */
export type DroppedEdges = ReadonlySet<string>;
export const edgeKey = (from: string, to: string) => `${from} -> ${to}`;

/** Earliest finish (simulated minutes) of every node when each starts as soon as its dependencies finish. */
export function earliestFinish(graph: Graph, dropped: DroppedEdges = new Set(), gate?: (node: Node) => number): Map<string, number> {
    const finish = new Map<string, number>();
    const visiting = new Set<string>();
    const visit = (urn: string): number => {
        const known = finish.get(urn);
        if (known !== undefined) return known;
        if (visiting.has(urn)) throw new Error(`bench: dependency cycle through ${urn}`);
        visiting.add(urn);
        const node = graph.get(urn)!;
        let start = gate ? gate(node) : 0;
        for (const e of node.edges) if (!dropped.has(edgeKey(urn, e.to))) start = Math.max(start, visit(e.to));
        visiting.delete(urn);
        const f = start + node.reg.minutes;
        finish.set(urn, f);
        return f;
    };
    for (const urn of graph.keys()) visit(urn);
    return finish;
}

/** One step of the critical path. */
export interface PathStep {
    readonly type: string;
    readonly name: string;
    readonly minutes: number;
    /** Simulated minute at which it finishes. */
    readonly finishesAt: number;
    /**
     * How it waits for the previous step: the edge kinds (and input properties) through any
     * zero-time components or providers in between ("" for the first step).
     */
    readonly via: string;
}

/** The longest chain through the graph, by simulated duration; zero-time steps are folded into `via`. */
export function criticalPath(graph: Graph, dropped: DroppedEdges = new Set()): { minutes: number; path: PathStep[] } {
    const finish = earliestFinish(graph, dropped);
    let cur = "";
    let minutes = 0;
    for (const [urn, f] of finish) if (f > minutes) [cur, minutes] = [urn, f];
    // Walk back along the dependency that finished last (the one each step waited for).
    const chain: { urn: string; edge?: Edge }[] = [];
    while (cur) {
        const node = graph.get(cur)!;
        let prev: Edge | undefined;
        for (const e of node.edges) {
            if (dropped.has(edgeKey(cur, e.to))) continue;
            if (!prev || finish.get(e.to)! > finish.get(prev.to)!) prev = e;
        }
        const binding = prev && finish.get(prev.to)! > 0 ? prev : undefined;
        chain.push({ urn: cur, edge: binding });
        cur = binding ? binding.to : "";
    }
    chain.reverse();
    const path: PathStep[] = [];
    let via: string[] = [];
    for (let i = 0; i < chain.length; i++) {
        const { urn, edge } = chain[i]!;
        const node = graph.get(urn)!;
        if (edge) via.push(describeEdge(edge));
        if (node.reg.minutes > 0 || i === chain.length - 1) {
            path.push({ type: node.reg.type, name: node.reg.name, minutes: node.reg.minutes, finishesAt: finish.get(urn)!, via: via.join(" ") });
            via = [];
        } else {
            via.push(`[${node.reg.name}]`);
        }
    }
    return { minutes, path };
}

function describeEdge(e: Edge): string {
    return e.kind === "input" ? `input '${e.property}'` : e.kind;
}

/** A node's MARA project position after promotion (see {@link maraSchedule}). */
export interface Placement {
    /** Index in MARA's order of the project that created it (undefined for pure grouping components). */
    readonly own?: number;
    /** Index it runs at: its own, or later when it depends on something MARA created later. */
    readonly effective: number;
    /** The dependency that pushed it later, when it was promoted. */
    readonly promotedBy?: string;
}

/**
 * Places every node in MARA's order. A resource that depends on something a later MARA project
 * created cannot run in its own project when projects run one after another; it runs in that later
 * project (MARA itself had no such dependency: each is reported as a promotion).
 */
export function placeInOrder(graph: Graph, ownIndex: (node: Node) => number | undefined): Map<string, Placement> {
    const placed = new Map<string, Placement>();
    const visit = (urn: string): Placement => {
        const known = placed.get(urn);
        if (known) return known;
        const node = graph.get(urn)!;
        // Grouping components create nothing: they take the position of their dependencies only.
        const own = node.work ? ownIndex(node) : undefined;
        let effective = own ?? 0;
        let promotedBy: string | undefined;
        for (const e of node.edges) {
            const p = visit(e.to);
            if (p.effective > effective) {
                effective = p.effective;
                promotedBy = e.to;
            }
        }
        const placement: Placement = { own, effective, ...(own !== undefined && effective > own ? { promotedBy } : {}) };
        placed.set(urn, placement);
        return placement;
    };
    for (const urn of graph.keys()) visit(urn);
    return placed;
}

/**
 * MARA's schedule, computed: project k's resources start only when every resource of projects
 * before it has finished; within a project, each starts when its dependencies have finished.
 * Returns the total and each project's start and end (simulated minutes).
 */
export function maraSchedule(graph: Graph, placement: ReadonlyMap<string, Placement>, projects: number): { minutes: number; phases: { start: number; end: number }[] } {
    const projectEnd: number[] = [];
    const endOf = (k: number): number => {
        if (k < 0) return 0;
        if (projectEnd[k] !== undefined) return projectEnd[k]!;
        let end = endOf(k - 1);
        for (const [urn, p] of placement) if (p.effective === k && graph.get(urn)!.work) end = Math.max(end, finish.get(urn)!);
        projectEnd[k] = end;
        return end;
    };
    // A resource's gate is the end of the project before its own; resolved lazily through `endOf`.
    const finish = new Map<string, number>();
    const visit = (urn: string): number => {
        const known = finish.get(urn);
        if (known !== undefined) return known;
        const node = graph.get(urn)!;
        let start = node.work ? endOf(placement.get(urn)!.effective - 1) : 0;
        for (const e of node.edges) start = Math.max(start, visit(e.to));
        const f = start + node.reg.minutes;
        finish.set(urn, f);
        return f;
    };
    // Visit project by project so each project's end is known before the next one needs it.
    for (let k = 0; k < projects; k++) for (const [urn, p] of placement) if (p.effective === k) visit(urn);
    for (const urn of graph.keys()) visit(urn);
    const phases = Array.from({ length: projects }, (_, k) => ({ start: endOf(k - 1), end: endOf(k) }));
    return { minutes: endOf(projects - 1), phases };
}

/**
 * Registrations the SDK sent noticeably later than their last recorded dependency finished: a wait
 * the recorded graph does not explain (e.g. through an invoke's result). Thresholds in simulated minutes.
 */
export function unexplainedWaits(graph: Graph, msPerMinute: number, thresholdMinutes = 0.25): { name: string; type: string; minutes: number }[] {
    const out: { name: string; type: string; minutes: number }[] = [];
    for (const node of graph.values()) {
        // Components register as soon as the SDK gets to them; only resources that do work can be held up.
        if (!node.work || node.reg.type.startsWith("pulumi:providers:")) continue;
        let ready = 0;
        for (const e of node.edges) ready = Math.max(ready, graph.get(e.to)!.reg.finishedMs);
        const late = (node.reg.requestedMs - ready) / msPerMinute;
        if (late > thresholdMinutes) out.push({ name: node.reg.name, type: node.reg.type, minutes: late });
    }
    return out.sort((a, b) => b.minutes - a.minutes);
}

/** Whether `from` waits, directly or transitively, for a node matching `target`. */
export function waitsFor(graph: Graph, from: string, target: (n: Node) => boolean): boolean {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length) {
        const urn = stack.pop()!;
        for (const e of graph.get(urn)?.edges ?? []) {
            if (seen.has(e.to)) continue;
            seen.add(e.to);
            if (target(graph.get(e.to)!)) return true;
            stack.push(e.to);
        }
    }
    return false;
}
