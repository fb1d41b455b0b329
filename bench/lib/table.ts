/** Plain-text tables for the console and Markdown tables for docs. */

/** Column-aligned text table; the first row is the header. */
export function textTable(rows: (string | number)[][]): string {
    const cells = rows.map((r) => r.map(String));
    const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
    const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ").trimEnd();
    return [line(cells[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

/** Markdown table; the first row is the header. */
export function markdownTable(rows: (string | number)[][]): string {
    const cells = rows.map((r) => r.map((c) => String(c).replace(/\|/g, "\\|")));
    return [`| ${cells[0]!.join(" | ")} |`, `|${cells[0]!.map(() => "---").join("|")}|`, ...cells.slice(1).map((r) => `| ${r.join(" | ")} |`)].join("\n");
}

/** A figure against its target: "0.63 ✗ (≤ 0.60)". */
export function against(value: number, target: number, digits = 2): string {
    return `${value.toFixed(digits)} ${value <= target ? "✓" : "✗"}`;
}

export const fmt = (x: number, digits = 1) => x.toFixed(digits);

/** Minutes as the tables show them: whole minutes plainly, fractions to two places. */
export const minutes = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2));
