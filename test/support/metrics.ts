/**
 * The metric lists of test/fixtures/metrics/ (what each exporter serves, with its source) and the metric names a
 * PromQL expression reads: what the dashboards and the alert rules are checked against.
 */
import * as fs from "fs";
import * as path from "path";

export const METRICS = path.join(__dirname, "..", "fixtures", "metrics");

/** A metric list: names by section (`[section]` lines; `#` lines are provenance). */
export function metricList(file: string): Map<string, Set<string>> {
    const sections = new Map<string, Set<string>>();
    let current: Set<string> | undefined;
    for (const line of fs.readFileSync(path.join(METRICS, file), "utf8").split("\n")) {
        const header = /^\[([^\]]+)\]/.exec(line);
        if (header) sections.set(header[1]!, (current = new Set()));
        else if (line.trim() && !line.startsWith("#")) current!.add(line.trim());
    }
    return sections;
}
export const union = (...sets: Set<string>[]) => new Set(sets.flatMap((s) => [...s]));

const KEYWORDS = new Set(["by", "without", "on", "ignoring", "group_left", "group_right", "bool", "offset", "and", "or", "unless", "inf", "nan", "Inf", "NaN"]);

/** Metric names a PromQL expression selects (functions, keywords, labels, strings, ranges and variables left out). */
export function metricNames(expr: string): string[] {
    let s = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
    s = s.replace(/\{[^}]*\}/g, "").replace(/\[[^\]]*\]/g, "");
    s = s.replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ");
    s = s.replace(/\$\{?\w+\}?/g, " ");
    // Numbers and durations (offset 5m, 1e3).
    s = s.replace(/(^|[^a-zA-Z0-9_:])\d+(\.\d+)?([eE][+-]?\d+)?(ms|[smhdwy])?(?![a-zA-Z0-9_:])/g, "$1 ");
    const out: string[] = [];
    for (const m of s.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
        const rest = s.slice(m.index! + m[0].length).trimStart();
        if (rest.startsWith("(") || KEYWORDS.has(m[0])) continue;
        out.push(m[0]);
    }
    return out;
}

