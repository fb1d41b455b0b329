/**
 * The plan's shape, derived from what the program registered: components nested by parent, each
 * sibling group in dependency order (what MARA's `show-execution` printed as a fixed list), the
 * dependencies between components, and resource counts. Pure functions over recorded resources.
 */
import type { RecordedResource } from "../../offline/run";

/** A component of the program, with what it contains and what it waits for. */
export interface ComponentNode {
    readonly urn: string;
    readonly type: string;
    readonly name: string;
    /** The name without the `<parent>-` prefix children carry (a Platform named `platform` has `platform-secrets`). */
    readonly shortName: string;
    /** Child components, in dependency order. */
    readonly children: ComponentNode[];
    /** Resources directly inside (custom resources and provider-implemented components). */
    readonly ownResources: number;
    /** Resources in the whole subtree. */
    readonly totalResources: number;
    /** Its step among its siblings: 1 waits for no sibling; one step deploys in parallel. */
    readonly step: number;
    /** Siblings this component waits for, in order. */
    readonly after: ComponentNode[];
    /** Components outside its parent that it waits for (named at the level where the branches meet). */
    readonly alsoAfter: ComponentNode[];
}

/** The whole plan. */
export interface Plan {
    /** Top-level components, in dependency order. */
    readonly roots: ComponentNode[];
    /** Top-level resources outside any component (providers). */
    readonly topLevel: RecordedResource[];
    /** Dependencies between components (to leaf components): [dependency URN, dependent URN], without implied edges. */
    readonly edges: [string, string][];
    /** Resource counts by type, largest first. */
    readonly typeCounts: [string, number][];
    /** Components implemented inside their provider: their own children are created at deploy time. */
    readonly remoteComponents: RecordedResource[];
}

/** A component registered by the program itself (a remote component counts as a resource). */
const isLocalComponent = (r: RecordedResource) => !r.custom && !r.remote;

/** Short display name of a type token: `mara:infra:Vpc` → `Vpc`. */
export function shortType(type: string): string {
    return type.split(":").pop() ?? type;
}

/** Label of a component: its type, and its (short) name when that says something the type does not. */
export function label(node: { type: string; name: string; shortName?: string }): string {
    const short = shortType(node.type);
    const kebab = short.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
    const name = node.shortName ?? node.name;
    return name === kebab ? short : `${short}: ${name}`;
}

/** A child's name without its parent's `<parent>-` prefix. */
function withoutParentName(name: string, parentName: string | undefined): string {
    return parentName !== undefined && name.startsWith(`${parentName}-`) ? name.slice(parentName.length + 1) : name;
}

/** Builds the plan from the registrations of one run. */
export function buildPlan(resources: readonly RecordedResource[]): Plan {
    const byUrn = new Map(resources.filter((r) => r.urn).map((r) => [r.urn, r]));
    const order = new Map(resources.map((r, i) => [r.urn, i]));
    const components = resources.filter(isLocalComponent);
    const componentUrns = new Set(components.map((c) => c.urn));

    /** The nearest component at or above a resource: what owns it in the tree. */
    const owner = (urn: string): string | undefined => {
        let cur = byUrn.get(urn);
        while (cur && !componentUrns.has(cur.urn)) cur = cur.parent ? byUrn.get(cur.parent) : undefined;
        return cur?.urn;
    };
    const ancestors = (urn: string): string[] => {
        const out: string[] = [];
        for (let cur = byUrn.get(urn); cur?.parent; cur = byUrn.get(cur.parent)) out.push(cur.parent);
        return out;
    };
    const related = (a: string, b: string) => ancestors(a).includes(b) || ancestors(b).includes(a);

    // Dependencies between owners. A custom resource also waits for its provider, which the engine
    // treats as a dependency even though the SDK does not list it.
    const deps = new Map<string, Set<string>>(components.map((c) => [c.urn, new Set()]));
    for (const r of resources) {
        const from = owner(r.urn);
        if (!from) continue;
        for (const d of [...r.dependencies, ...(r.custom && r.provider ? [r.provider] : [])]) {
            const to = owner(d);
            if (to && to !== from && !related(from, to)) deps.get(from)!.add(to);
        }
    }

    const childrenOf = (parent: string) => components.filter((c) => c.parent === parent);
    const nodes = new Map<string, ComponentNode>();
    const build = (siblings: RecordedResource[], parent: string): ComponentNode[] => {
        const urns = new Set(siblings.map((s) => s.urn));
        /** The sibling at or above `urn`, if it is in this group. */
        const sibling = (urn: string) => [urn, ...ancestors(urn)].find((u) => urns.has(u));
        const waits = new Map(siblings.map((s) => [s.urn, new Set<string>()]));
        const outside = new Map(siblings.map((s) => [s.urn, new Set<string>()]));
        const enclosing = [parent, ...ancestors(parent), ""];
        for (const [from, tos] of deps) {
            const a = sibling(from);
            if (!a) continue;
            for (const to of tos) {
                const b = sibling(to);
                if (b && b !== a) waits.get(a)!.add(b);
                // Outside this group: name the component at the level where the two branches meet.
                else if (!b) outside.get(a)!.add([to, ...ancestors(to)].find((u) => enclosing.includes(byUrn.get(u)?.parent ?? "-")) ?? to);
            }
        }
        const steps = waves(siblings.map((s) => s.urn), waits, (u) => order.get(u) ?? 0);
        const made = [...steps].map(([urn, step]) => {
            const r = byUrn.get(urn)!;
            const children = build(childrenOf(urn), urn);
            const own = resources.filter((x) => !isLocalComponent(x) && x.parent !== "" && owner(x.parent) === urn).length;
            const node: ComponentNode = {
                urn,
                type: r.type,
                name: r.name,
                shortName: withoutParentName(r.name, byUrn.get(parent)?.name),
                step,
                children,
                ownResources: own,
                totalResources: own + children.reduce((n, c) => n + c.totalResources, 0),
                after: [],
                alsoAfter: [],
            };
            nodes.set(urn, node);
            return node;
        });
        // Fill the dependencies once every node they name exists.
        for (const node of made) {
            node.after.push(...made.filter((m) => waits.get(node.urn)!.has(m.urn)));
            pendingOutside.push([node, [...outside.get(node.urn)!]]);
        }
        return made;
    };
    const pendingOutside: [ComponentNode, string[]][] = [];
    const roots = build(childrenOf(""), "");
    for (const [node, urns] of pendingOutside) node.alsoAfter.push(...urns.map((u) => nodes.get(u)).filter((n): n is ComponentNode => n !== undefined));

    const leaves = components.filter((c) => !components.some((x) => x.parent === c.urn)).map((c) => c.urn);
    const leafEdges: [string, string][] = [];
    for (const [from, tos] of deps) {
        for (const to of tos) {
            // A dependency on a parent component stands for its children; draw it to the leaves it contains.
            const targets = leaves.includes(to) ? [to] : leaves.filter((l) => ancestors(l).includes(to));
            for (const t of targets) leafEdges.push([t, from]);
        }
    }

    const counted = resources.filter((r) => !isLocalComponent(r));
    const counts = new Map<string, number>();
    for (const r of counted) counts.set(r.type, (counts.get(r.type) ?? 0) + 1);
    return {
        roots,
        topLevel: resources.filter((r) => r.custom && !r.parent),
        edges: sortEdges(transitiveReduction(dedupe(leafEdges)), flatten(roots).map((n) => n.urn)),
        typeCounts: [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
        remoteComponents: resources.filter((r) => r.remote),
    };
}

/**
 * Groups components into steps: step 1 needs nothing from its siblings, step n waits only for earlier
 * steps, so everything in one step can deploy in parallel. Within a step, registration order (the
 * program's order). A cycle, which the engine would reject, is broken in registration order.
 *
 * @returns each id with its step, in display order.
 */
export function waves(ids: string[], waitsFor: Map<string, Set<string>>, rank: (id: string) => number): Map<string, number> {
    const step = new Map<string, number>();
    const remaining = new Set(ids);
    for (let n = 1; remaining.size > 0; n++) {
        let ready = [...remaining].filter((id) => ![...(waitsFor.get(id) ?? [])].some((d) => remaining.has(d)));
        if (ready.length === 0) ready = [[...remaining].sort((a, b) => rank(a) - rank(b))[0]!];
        for (const id of ready.sort((a, b) => rank(a) - rank(b))) {
            step.set(id, n);
            remaining.delete(id);
        }
    }
    return step;
}

/** Edges in the order their nodes are shown (dependent first, then dependency), so the output is stable. */
function sortEdges(edges: [string, string][], shown: string[]): [string, string][] {
    const at = (u: string) => shown.indexOf(u);
    return [...edges].sort((a, b) => at(a[1]) - at(b[1]) || at(a[0]) - at(b[0]));
}

function dedupe(edges: [string, string][]): [string, string][] {
    const seen = new Set<string>();
    return edges.filter(([a, b]) => {
        const k = `${a}\u0000${b}`;
        if (seen.has(k) || a === b) return false;
        seen.add(k);
        return true;
    });
}

/** Drops an edge a→c when a→…→c exists another way: the graph then shows only direct steps. */
export function transitiveReduction(edges: [string, string][]): [string, string][] {
    const next = new Map<string, string[]>();
    for (const [a, b] of edges) next.set(a, [...(next.get(a) ?? []), b]);
    const reachableAvoiding = (from: string, to: string): boolean => {
        const stack = (next.get(from) ?? []).filter((n) => n !== to);
        const seen = new Set(stack);
        while (stack.length > 0) {
            const cur = stack.pop()!;
            if (cur === to) return true;
            for (const n of next.get(cur) ?? []) {
                if (!seen.has(n)) {
                    seen.add(n);
                    stack.push(n);
                }
            }
        }
        return false;
    };
    return edges.filter(([a, b]) => !reachableAvoiding(a, b));
}

/** Every component in the tree, depth first, in order. */
export function flatten(nodes: readonly ComponentNode[]): ComponentNode[] {
    return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}
