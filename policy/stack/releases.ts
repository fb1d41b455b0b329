/** Helm releases as a stack declares them, for the rules that count what the releases install. */
import type { PulumiResource } from "../rule";

/** Type tokens of Helm releases and charts in `@pulumi/kubernetes`. */
export const HELM_TYPES = ["kubernetes:helm.sh/v3:Release", "kubernetes:helm.sh/v4:Chart"];

/** The chart a release installs, by name: the last segment of `repo/chart`, an OCI reference or an archive path. */
export function chartName(r: PulumiResource): string | undefined {
    const chart = r.props.chart;
    if (typeof chart !== "string") return undefined;
    const parts = chart.split("/").filter(Boolean);
    const last = parts[parts.length - 1] ?? "";
    return last.replace(/\.tgz$/, "").replace(/-v?\d+\.\d+\.\d+.*$/, "");
}

/** The value at a dotted path of a release's values, or undefined. */
export function valueAt(r: PulumiResource, path: string): unknown {
    let v: unknown = r.props.values;
    for (const key of path.split(".")) v = v && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined;
    return v;
}

/** A Helm release resource for the examples. */
export const release = (name: string, chart: string, values: Record<string, unknown> = {}): PulumiResource => ({
    type: HELM_TYPES[0]!,
    name,
    props: { chart, version: "1.0.0", namespace: name, values },
});
