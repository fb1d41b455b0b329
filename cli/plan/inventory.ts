/**
 * What `mara plan` shows about versions before anything is deployed: every Helm release with its chart@version,
 * and every container image with its tag. Derived from what the program registered in the offline run: Helm
 * releases and their values, the workloads it declares itself, the custom resources whose operators start pods
 * (Elasticsearch and Kibana by version, the OpenTelemetry collector), and, for what a chart runs on its own,
 * the table of images per pinned chart version (chartImages.ts, checked against Helm by the render tier).
 */
import * as path from "path";
import type { MaraConfig } from "../../config";
import { readArchivedChart } from "../../config/archivedChart";
import { CHART_IMAGES } from "./chartImages";
import type { RecordedResource } from "../../offline/run";

/** One Helm release. */
export interface PlannedRelease {
    /** Pulumi resource name. */
    readonly resource: string;
    /** Helm release name and namespace, when known before deploying. */
    readonly release?: string;
    readonly namespace?: string;
    readonly chart: string;
    readonly version: string;
    /** Helm repository URL, or the OCI reference the chart comes from. */
    readonly repository?: string;
    /** The local archive the chart is installed from (`mara:chartArchiveDir`), instead of a repository. */
    readonly archive?: string;
}

/** One container image and what runs it. */
export interface PlannedImage {
    /** `repository:tag` (or `@digest`). */
    readonly image: string;
    /** Resources (releases, workloads, custom resources) that run it. */
    readonly usedBy: string[];
}

/** Releases, images, and the charts whose images are not known offline. */
export interface Inventory {
    readonly releases: PlannedRelease[];
    readonly images: PlannedImage[];
    /** chart@version of releases whose own images this program has no record of (a chart version other than the pins). */
    readonly unlistedCharts: string[];
}

const RELEASE = "kubernetes:helm.sh/v3:Release";
const WORKLOADS: Readonly<Record<string, (spec: Record<string, unknown>) => unknown>> = {
    "kubernetes:apps/v1:Deployment": (s) => dig(s, "spec", "template", "spec"),
    "kubernetes:apps/v1:StatefulSet": (s) => dig(s, "spec", "template", "spec"),
    "kubernetes:apps/v1:DaemonSet": (s) => dig(s, "spec", "template", "spec"),
    "kubernetes:batch/v1:Job": (s) => dig(s, "spec", "template", "spec"),
    "kubernetes:batch/v1:CronJob": (s) => dig(s, "spec", "jobTemplate", "spec", "template", "spec"),
    "kubernetes:core/v1:Pod": (s) => dig(s, "spec"),
};
/** Images the Elastic operator runs for its resources, from their version (ECK's default registry). */
const ECK_IMAGES: Readonly<Record<string, string>> = {
    "kubernetes:elasticsearch.k8s.elastic.co/v1:Elasticsearch": "docker.elastic.co/elasticsearch/elasticsearch",
    "kubernetes:kibana.k8s.elastic.co/v1:Kibana": "docker.elastic.co/kibana/kibana",
};
/** The collector image the OpenTelemetry operator runs for a collector that names none, per operator chart. */
export const DEFAULT_COLLECTOR_IMAGE: Readonly<Record<string, string>> = {
    "opentelemetry-operator@0.122.0": "ghcr.io/open-telemetry/opentelemetry-collector-releases/opentelemetry-collector-k8s:0.158.0",
};

const isKnown = (v: unknown): v is string => typeof v === "string" && v !== "";

function dig(v: unknown, ...path: string[]): unknown {
    let cur = v;
    for (const p of path) cur = cur && typeof cur === "object" ? (cur as Record<string, unknown>)[p] : undefined;
    return cur;
}

/** Images named in values as `{ repository, tag }` (or `{ repository, digest }`) objects. */
function valueImages(values: unknown, out: string[] = []): string[] {
    if (Array.isArray(values)) values.forEach((v) => valueImages(v, out));
    else if (values && typeof values === "object") {
        const v = values as Record<string, unknown>;
        if (isKnown(v.repository) && (isKnown(v.tag) || isKnown(v.digest))) out.push(isKnown(v.digest) ? `${v.repository}@${v.digest}` : `${v.repository}:${v.tag as string}`);
        else Object.values(v).forEach((x) => valueImages(x, out));
    }
    return out;
}

/** What the inventory reads of a registered resource. */
export type InventoryResource = Pick<RecordedResource, "type" | "name" | "inputs">;

/** Where a release's chart comes from, as the inventory shows it. */
type ChartSource = Pick<PlannedRelease, "chart" | "version" | "repository" | "archive">;

/**
 * The chart and version a release installs. A local archive (`mara:chartArchiveDir`) is given to Helm as a path with
 * no version: Helm takes both from the archive's Chart.yaml, and so does the inventory (validation has checked that
 * they are the pinned ones); the archive's name (`<chart>-<version>.tgz`) stands in when it cannot be read.
 */
function chartSource(inputs: Record<string, unknown>): ChartSource {
    const chart = typeof inputs.chart === "string" ? inputs.chart : "";
    if (!inputs.repositoryOpts && path.isAbsolute(chart) && chart.endsWith(".tgz")) {
        let inside: ReturnType<typeof readArchivedChart> | undefined;
        try {
            inside = readArchivedChart(chart);
        } catch {
            inside = undefined;
        }
        if (inside?.ok) return { chart: inside.chart.name, version: inside.chart.version, archive: chart };
        const named = /^(.*)-(v?\d+\.\d+\.\d+[^/]*)\.tgz$/.exec(path.basename(chart));
        return { chart: named?.[1] ?? path.basename(chart), version: named?.[2] ?? "", archive: chart };
    }
    const repo = dig(inputs, "repositoryOpts", "repo");
    return {
        chart: chart.split("/").pop()!,
        version: typeof inputs.version === "string" ? inputs.version : "",
        repository: chart.startsWith("oci://") ? chart : isKnown(repo) ? repo : undefined,
    };
}

/** Builds the inventory from an offline run; `cfg` names the ingress controller image when the run cannot. */
export function inventory(resources: readonly InventoryResource[], cfg?: MaraConfig): Inventory {
    const releases: PlannedRelease[] = [];
    const used = new Map<string, Set<string>>();
    const unlisted: string[] = [];
    const use = (image: string, by: string) => used.set(image, (used.get(image) ?? new Set()).add(by));
    const sources = new Map(resources.filter((r) => r.type === RELEASE).map((r) => [r, chartSource(r.inputs ?? {})]));
    // The collector's default image is the operator's: known from the operator chart, wherever it is registered.
    const operatorCharts = [...sources.values()].filter((s) => s.chart === "opentelemetry-operator").map((s) => `opentelemetry-operator@${s.version}`);

    for (const r of resources) {
        const inputs = r.inputs ?? {};
        if (r.type === RELEASE) {
            const source = sources.get(r)!;
            const shortChart = source.chart;
            releases.push({
                resource: r.name,
                release: isKnown(inputs.name) ? inputs.name : undefined,
                namespace: isKnown(inputs.namespace) ? inputs.namespace : undefined,
                ...source,
            });
            const id = `${shortChart}@${source.version}`;
            const own = CHART_IMAGES[id];
            if (own) own.forEach((i) => use(i, r.name));
            else unlisted.push(id);
            const fromValues = valueImages(inputs.values);
            fromValues.forEach((i) => use(i, r.name));
            // On a first preview the values naming the pushed image are unknown; the configuration names what is pushed.
            if (shortChart === "nginx-ingress" && fromValues.length === 0 && cfg) {
                use(cfg.ingressController.image.imageOrigin === "source" ? `built from ${cfg.ingressController.image.sourceUrl} (${cfg.ingressController.image.makeTarget})` : cfg.ingressController.image.imageName, `${r.name}, copied into the cluster's registry`);
            }
            continue;
        }
        const podSpec = WORKLOADS[r.type]?.(inputs);
        if (podSpec && typeof podSpec === "object") {
            for (const list of ["initContainers", "containers"]) {
                for (const c of (dig(podSpec, list) as { image?: unknown }[] | undefined) ?? []) if (isKnown(c?.image)) use(c.image, r.name);
            }
            continue;
        }
        const eck = ECK_IMAGES[r.type];
        if (eck) {
            const image = dig(inputs, "spec", "image");
            const version = dig(inputs, "spec", "version");
            if (isKnown(image)) use(image, r.name);
            else if (isKnown(version)) use(`${eck}:${version}`, r.name);
            continue;
        }
        if (/^kubernetes:opentelemetry\.io\/v\w+:OpenTelemetryCollector$/.test(r.type)) {
            const image = dig(inputs, "spec", "image");
            if (isKnown(image)) use(image, r.name);
            else for (const id of operatorCharts) if (DEFAULT_COLLECTOR_IMAGE[id]) use(DEFAULT_COLLECTOR_IMAGE[id]!, r.name);
        }
    }
    const images = [...used].map(([image, by]) => ({ image, usedBy: [...by].sort() })).sort((a, b) => a.image.localeCompare(b.image));
    return { releases, images, unlistedCharts: [...new Set(unlisted)] };
}
