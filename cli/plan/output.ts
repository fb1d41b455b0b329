/** Renders a {@link Plan}: the component tree and counts as text, the dependency graph as Mermaid or DOT. */
import { ComponentNode, flatten, label, Plan } from "./graph";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * The component tree in dependency order, one line per component: what it is, how many resources it
 * holds and which siblings it waits for. Siblings without a path between them deploy in parallel.
 */
export function renderTree(plan: Plan): string {
    const lines: string[] = [];
    const walk = (nodes: readonly ComponentNode[], prefix: string) => {
        nodes.forEach((n, i) => {
            const last = i === nodes.length - 1;
            const branch = prefix === "" && nodes === plan.roots ? "" : last ? "└─ " : "├─ ";
            const count = n.children.length > 0 ? `${plural(n.totalResources, "resource")} in all` : plural(n.ownResources, "resource");
            const waits = [...n.after, ...n.alsoAfter].map(label);
            const after = waits.length > 0 ? `  after ${waits.join(", ")}` : "";
            lines.push(`${prefix}${branch}${n.step}. ${label(n)}  (${n.type}, ${count})${after}`);
            const childPrefix = prefix === "" && nodes === plan.roots ? "   " : `${prefix}${last ? "   " : "│  "}`;
            walk(n.children, childPrefix);
        });
    };
    walk(plan.roots, "");
    return lines.join("\n");
}

/** Resource counts per type, largest first, with the total. */
export function renderCounts(plan: Plan): string {
    const total = plan.typeCounts.reduce((s, [, n]) => s + n, 0);
    const width = String(total).length;
    return [...plan.typeCounts.map(([type, n]) => `${String(n).padStart(width)}  ${type}`), `${String(total).padStart(width)}  total`].join("\n");
}

/** Stable, readable graph node IDs from component names (unique even when names repeat). */
function nodeIds(plan: Plan): Map<string, string> {
    const ids = new Map<string, string>();
    const used = new Set<string>();
    for (const n of flatten(plan.roots)) {
        const base = n.shortName.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^(\d)/, "_$1") || "node";
        let id = base;
        for (let i = 2; used.has(id); i++) id = `${base}_${i}`;
        used.add(id);
        ids.set(n.urn, id);
    }
    return ids;
}

/**
 * The dependency graph between components as a Mermaid flowchart, read top to bottom in deployment
 * order (an arrow points from what is needed to what needs it); parents with child components are
 * subgraphs. Edges implied by others are left out.
 */
export function toMermaid(plan: Plan): string {
    const ids = nodeIds(plan);
    const lines = ["flowchart TD"];
    const walk = (nodes: readonly ComponentNode[], indent: string) => {
        for (const n of nodes) {
            const text = `${label(n).replace(/"/g, "'")}`;
            if (n.children.length > 0) {
                lines.push(`${indent}subgraph ${ids.get(n.urn)}["${text}"]`);
                walk(n.children, `${indent}    `);
                lines.push(`${indent}end`);
            } else {
                lines.push(`${indent}${ids.get(n.urn)}["${text}"]`);
            }
        }
    };
    walk(plan.roots, "    ");
    for (const [from, to] of plan.edges) lines.push(`    ${ids.get(from)} --> ${ids.get(to)}`);
    return `${lines.join("\n")}\n`;
}

/** The same graph in Graphviz DOT; parents with child components are clusters. */
export function toDot(plan: Plan): string {
    const ids = nodeIds(plan);
    const q = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
    const lines = ["digraph mara {", "    rankdir=TB;", '    node [shape=box, fontname="Helvetica"];'];
    const walk = (nodes: readonly ComponentNode[], indent: string) => {
        for (const n of nodes) {
            if (n.children.length > 0) {
                lines.push(`${indent}subgraph ${q(`cluster_${ids.get(n.urn)}`)} {`, `${indent}    label=${q(label(n))};`);
                walk(n.children, `${indent}    `);
                lines.push(`${indent}}`);
            } else {
                lines.push(`${indent}${q(ids.get(n.urn)!)} [label=${q(`${label(n)}\n${n.type}`)}];`);
            }
        }
    };
    walk(plan.roots, "    ");
    for (const [from, to] of plan.edges) lines.push(`    ${q(ids.get(from)!)} -> ${q(ids.get(to)!)};`);
    lines.push("}");
    return `${lines.join("\n")}\n`;
}
