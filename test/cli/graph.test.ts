/** The plan's tree, order and graph, from hand-made registrations (pure functions, no Pulumi). */
import { describe, expect, it } from "vitest";
import { buildPlan, label, transitiveReduction, waves } from "../../cli/plan/graph";
import type { RecordedResource } from "../../offline/run";
import { renderCounts, renderTree, toDot, toMermaid } from "../../cli/plan/output";

const urn = (type: string, name: string) => `urn:pulumi:dev::mara::${type}::${name}`;
function res(type: string, name: string, o: Partial<RecordedResource> = {}): RecordedResource {
    return { type, name, urn: urn(type, name), parent: "", custom: true, remote: false, provider: "", dependencies: [], ...o };
}
const comp = (type: string, name: string, parent = "") => res(type, name, { custom: false, parent });

const P = res("pulumi:providers:test", "p");
const A = comp("mara:infra:Alpha", "alpha");
const a1 = res("test:index:Thing", "a1", { parent: A.urn, provider: P.urn });
const R = res("other:index:Remote", "r", { custom: false, remote: true, parent: A.urn });
const B = comp("mara:infra:Beta", "beta");
const b1 = res("test:index:Thing", "b1", { parent: B.urn, dependencies: [a1.urn] });
const C = comp("mara:platform:Group", "group");
const C1 = comp("mara:addons:First", "first", C.urn);
const c11 = res("test:index:Thing", "c11", { parent: C1.urn, dependencies: [b1.urn] });
const C2 = comp("mara:addons:Second", "the-second", C.urn);
const c21 = res("test:index:Other", "c21", { parent: C2.urn, dependencies: [c11.urn, a1.urn] });
// Registration order deliberately differs from dependency order.
const ALL = [C, C2, c21, B, b1, P, A, a1, R, C1, c11];

describe("buildPlan", () => {
    const plan = buildPlan(ALL);

    it("orders siblings by dependency, in steps, and nests children", () => {
        expect(plan.roots.map((n) => [n.name, n.step])).toEqual([["alpha", 1], ["beta", 2], ["group", 3]]);
        expect(plan.roots[2]!.children.map((n) => [n.name, n.step])).toEqual([["first", 1], ["the-second", 2]]);
        expect(plan.roots[1]!.after.map((n) => n.name)).toEqual(["alpha"]);
    });

    it("names dependencies outside the parent at the level where the branches meet", () => {
        const [first, second] = plan.roots[2]!.children;
        expect(first!.alsoAfter.map((n) => n.name)).toEqual(["beta"]);
        expect(second!.after.map((n) => n.name)).toEqual(["first"]);
        expect(second!.alsoAfter.map((n) => n.name)).toEqual(["alpha"]);
    });

    it("counts a provider-implemented component as a resource of its parent", () => {
        expect(plan.roots[0]).toMatchObject({ ownResources: 2, totalResources: 2 });
        expect(plan.roots[2]).toMatchObject({ ownResources: 0, totalResources: 2 });
        expect(plan.remoteComponents.map((r) => r.name)).toEqual(["r"]);
        expect(plan.topLevel.map((r) => r.name)).toEqual(["p"]);
        expect(plan.typeCounts).toEqual([["test:index:Thing", 3], ["other:index:Remote", 1], ["pulumi:providers:test", 1], ["test:index:Other", 1]]);
    });

    it("keeps only direct dependencies in the graph, in display order", () => {
        expect(plan.edges).toEqual([[A.urn, B.urn], [B.urn, C1.urn], [C1.urn, C2.urn]]);
    });

    it("renders the tree, counts, Mermaid and DOT", () => {
        expect(renderTree(plan)).toBe(
            [
                "1. Alpha  (mara:infra:Alpha, 2 resources)",
                "2. Beta  (mara:infra:Beta, 1 resource)  after Alpha",
                "3. Group  (mara:platform:Group, 2 resources in all)  after Alpha, Beta",
                "   ├─ 1. First  (mara:addons:First, 1 resource)  after Beta",
                "   └─ 2. Second: the-second  (mara:addons:Second, 1 resource)  after First, Alpha",
            ].join("\n"),
        );
        expect(renderCounts(plan).split("\n").at(-1)).toBe("6  total");
        expect(toMermaid(plan)).toBe(
            [
                "flowchart TD",
                '    alpha["Alpha"]',
                '    beta["Beta"]',
                '    subgraph group["Group"]',
                '        first["First"]',
                "        the_second[\"Second: the-second\"]",
                "    end",
                "    alpha --> beta",
                "    beta --> first",
                "    first --> the_second",
                "",
            ].join("\n"),
        );
        expect(toDot(plan)).toContain('    subgraph "cluster_group" {\n        label="Group";\n        "first" [label="First\\nmara:addons:First"];');
        expect(toDot(plan)).toContain('    "first" -> "the_second";\n}\n');
    });
});

describe("helpers", () => {
    it("waves: steps of things that can run together; a cycle falls back to registration order", () => {
        const w = waves(["c", "b", "a"], new Map([["c", new Set(["a"])], ["b", new Set(["a"])]]), (id) => "cba".indexOf(id));
        expect([...w]).toEqual([["a", 1], ["c", 2], ["b", 2]]);
        const cycle = waves(["x", "y"], new Map([["x", new Set(["y"])], ["y", new Set(["x"])]]), (id) => (id === "x" ? 0 : 1));
        expect([...cycle]).toEqual([["x", 1], ["y", 2]]);
    });

    it("transitiveReduction drops edges implied by a longer path", () => {
        expect(transitiveReduction([["a", "b"], ["b", "c"], ["a", "c"], ["c", "d"]])).toEqual([["a", "b"], ["b", "c"], ["c", "d"]]);
    });

    it("labels a component by type, adding the name only when it says more", () => {
        expect(label({ type: "mara:addons:IngressController", name: "ingress-controller" })).toBe("IngressController");
        expect(label({ type: "mara:app:Application", name: "bank-of-sirius" })).toBe("Application: bank-of-sirius");
        // A child named after its parent (`platform-ingress-controller` in `platform`) is labelled by the rest of its name.
        expect(label({ type: "mara:addons:IngressController", name: "platform-ingress-controller", shortName: "ingress-controller" })).toBe("IngressController");
        expect(label({ type: "mara:addons:IngressController", name: "edge-ingress", shortName: "ingress" })).toBe("IngressController: ingress");
    });
});
