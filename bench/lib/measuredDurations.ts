/**
 * The Kubernetes layer's creation times as the real engine took them on the real-engine tier (test/engine): how
 * long `pulumi up` spent on each Namespace, Helm release, Service, custom resource... of the existing-cluster stack,
 * from the engine's own event log, median of the bench's rounds. `npm run bench:engine` writes them to
 * bench/data/k8s-durations.json; the deploy part of `npm run bench` uses them in place of the estimates of
 * durations.ts for every Kubernetes resource it has a figure for.
 *
 * What the figures include: the engine, the Kubernetes provider, Helm, the API server, the controllers and the
 * scheduler, and every await (a release's `--wait`, a Deployment's rollout, an Ingress's address). What they
 * cannot include: the tier's nodes are kwok's, so no image is pulled and no container starts (pods report ready at
 * once), and no operator acts on its custom resources. They are the floor a real cluster adds its pod start-up to.
 */
import * as fs from "fs";
import * as path from "path";

/** Where `npm run bench:engine` writes the figures, and `npm run bench` reads them. */
export const MEASURED_FILE = path.join(__dirname, "..", "data", "k8s-durations.json");

/** What a resource looks like to the table: its type token and, where they decide its figure, its inputs. */
export interface Keyed {
    readonly type: string;
    readonly inputs?: Record<string, unknown>;
}

/**
 * The key a resource's duration is kept under, with the same distinctions durations.ts makes: a Helm release by
 * its chart, a Service by whether it is a load balancer, a custom resource by its kind, anything else by its type.
 */
export function durationKey(r: Keyed): string {
    // A chart from a repository is named; one from an archive (mara:chartArchiveDir) is a path to <chart>-<version>.tgz.
    if (r.type === "kubernetes:helm.sh/v3:Release") return `chart ${(typeof r.inputs?.chart === "string" ? r.inputs.chart : "").split("/").pop()!.replace(/-v?\d+\.\d+\.\d+[^/]*\.tgz$/, "")}`;
    if (r.type === "kubernetes:core/v1:Service") {
        const type = (r.inputs?.spec as Record<string, unknown> | undefined)?.type;
        return type === "LoadBalancer" ? "service LoadBalancer" : "service ClusterIP";
    }
    return `type ${r.type}`;
}

/** One measured figure. */
export interface MeasuredFigure {
    /** Median seconds over every resource of the key in every round. */
    readonly seconds: number;
    /** How many creations the median is taken over. */
    readonly samples: number;
}

/** The file's contents. */
export interface MeasuredDurations {
    /** When and where they were measured, and how. */
    readonly measured: { readonly date: string; readonly rounds: number; readonly host: string; readonly note: string };
    readonly figures: Readonly<Record<string, MeasuredFigure>>;
}

/**
 * The figures, or undefined when none were measured yet or `BENCH_K8S_DURATIONS=estimates` asks for the sourced
 * estimates (which include image pulls and container start-up).
 */
export function loadMeasured(env: NodeJS.ProcessEnv = process.env, file = MEASURED_FILE): MeasuredDurations | undefined {
    if (env.BENCH_K8S_DURATIONS === "estimates" || !fs.existsSync(file)) return undefined;
    return JSON.parse(fs.readFileSync(file, "utf8")) as MeasuredDurations;
}

/** An event of the engine's event log (`pulumi up --event-log`), as far as durations need it. */
interface EngineEvent {
    timestamp: number;
    resourcePreEvent?: { metadata: { op: string; urn: string; type: string; new?: { inputs?: Record<string, unknown> } } };
    resOutputsEvent?: { metadata: { op: string; urn: string } };
}

/** One created Kubernetes resource of an `up`: its key and seconds from the engine's start of the step to its outputs. */
export interface Creation {
    readonly urn: string;
    readonly key: string;
    readonly seconds: number;
}

/**
 * The Kubernetes resources an `up` created and how long each took, from its event log (JSON lines; timestamps are
 * whole seconds, so small objects read 0 or 1).
 */
export function creationsFromEventLog(text: string): Creation[] {
    const started = new Map<string, { at: number; key: string }>();
    const out: Creation[] = [];
    for (const line of text.split("\n")) {
        if (!line.trim()) continue;
        const e = JSON.parse(line) as EngineEvent;
        const pre = e.resourcePreEvent?.metadata;
        if (pre && pre.op === "create" && pre.type.startsWith("kubernetes:") && !pre.type.startsWith("pulumi:providers:")) {
            started.set(pre.urn, { at: e.timestamp, key: durationKey({ type: pre.type, inputs: pre.new?.inputs }) });
        }
        const done = e.resOutputsEvent?.metadata;
        const start = done && started.get(done.urn);
        if (done && start) {
            out.push({ urn: done.urn, key: start.key, seconds: e.timestamp - start.at });
            started.delete(done.urn);
        }
    }
    return out;
}

/** The median figure per key over the creations of several rounds. */
export function figuresOf(creations: readonly Creation[]): Record<string, MeasuredFigure> {
    const byKey = new Map<string, number[]>();
    for (const c of creations) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c.seconds]);
    const figures: Record<string, MeasuredFigure> = {};
    for (const [key, xs] of [...byKey].sort(([a], [b]) => a.localeCompare(b))) {
        const sorted = [...xs].sort((a, b) => a - b);
        figures[key] = { seconds: sorted[Math.floor(sorted.length / 2)]!, samples: xs.length };
    }
    return figures;
}
