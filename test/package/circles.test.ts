/**
 * No import circle anywhere in the package, type-only imports included (issue: "No circles, type-only imports
 * included, checked by a test"). A circle of type-only imports costs nothing at run time, but it is still two
 * modules that cannot be read, moved or tested one without the other; and one value import added later turns it
 * into a load-order bug (`undefined` at import time). The graph's strongly connected components are the circles.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { files, imports, resolveImport, ROOT } from "./imports";

/** The package's own sources (the examples are packages of their own, with their own imports). */
const SOURCES = ["contracts", "config", "policy", "components", "providers", "program", "host", "offline", "render", "cli", "tools", "bench", "test", "index.ts"].filter((m) => fs.existsSync(path.join(ROOT, m)));

type Graph = ReadonlyMap<string, readonly string[]>;

function graphOf(roots: readonly string[]): Graph {
    const graph = new Map<string, string[]>();
    for (const f of roots.flatMap(files)) graph.set(f, [...new Set(imports(f).flatMap((s) => resolveImport(f, s) ?? []))]);
    return graph;
}

/** Tarjan's algorithm, iterative (the graph is deep enough to make recursion a risk): every component of more than one file, or a file importing itself. */
export function circles(graph: Graph): string[][] {
    let next = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const onStack = new Set<string>();
    const stack: string[] = [];
    const found: string[][] = [];
    const visit = (node: string) => {
        index.set(node, next);
        low.set(node, next++);
        stack.push(node);
        onStack.add(node);
    };
    for (const start of graph.keys()) {
        if (index.has(start)) continue;
        const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
        visit(start);
        while (work.length) {
            const frame = work[work.length - 1]!;
            const edges = graph.get(frame.node) ?? [];
            if (frame.edge < edges.length) {
                const to = edges[frame.edge++]!;
                if (!index.has(to)) {
                    visit(to);
                    work.push({ node: to, edge: 0 });
                } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
                continue;
            }
            work.pop();
            if (work.length) {
                const parent = work[work.length - 1]!.node;
                low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
            }
            if (low.get(frame.node) === index.get(frame.node)) {
                const component: string[] = [];
                let member: string;
                do {
                    member = stack.pop()!;
                    onStack.delete(member);
                    component.push(member);
                } while (member !== frame.node);
                if (component.length > 1 || edges.includes(frame.node)) found.push(component.sort());
            }
        }
    }
    return found;
}

describe("import circles", () => {
    it("there are none in the package, type-only imports included", () => {
        const graph = graphOf(SOURCES);
        expect(graph.size).toBeGreaterThan(300);
        expect(circles(graph).map((c) => c.join(" -> "))).toEqual([]);
    });

    it("finds a circle of type-only imports, a longer one, and a self-import, and nothing in a chain", () => {
        const g = (edges: Record<string, string[]>): Graph => new Map(Object.entries(edges));
        expect(circles(g({ a: ["b"], b: ["a"] }))).toEqual([["a", "b"]]);
        expect(circles(g({ a: ["b"], b: ["c"], c: ["a"], d: ["a"] }))).toEqual([["a", "b", "c"]]);
        expect(circles(g({ a: ["a"], b: [] }))).toEqual([["a"]]);
        expect(circles(g({ a: ["b"], b: ["c"], c: [] }))).toEqual([]);
    });

    it("reads type-only imports, `export ... from`, folder imports and `import()` types as arrows", () => {
        const graph = graphOf(["components", "contracts"]);
        // components/index.ts re-exports the units through their folders (`./certManager` is certManager/index.ts).
        expect(graph.get(path.join("components", "index.ts"))).toContain(path.join("components", "certManager", "index.ts"));
        const typeOnly = [...graph.keys()].filter((f) => /^import type .* from "\./m.test(fs.readFileSync(path.join(ROOT, f), "utf8")));
        expect(typeOnly.length).toBeGreaterThan(0);
        expect(typeOnly.every((f) => graph.get(f)!.length > 0)).toBe(true);
    });
});
