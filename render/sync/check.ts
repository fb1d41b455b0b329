/**
 * The sync model: reads a render and says whether a first Argo CD sync of it completes. It replays the sync (waves
 * in order, hooks in their phases, every object applied only once what it needs exists: replay.ts), checks the
 * fields the API server and the kubelet parse (fields.ts) and what the tracking method does to the objects
 * (tracking.ts). `mara render` runs it on what it is about to write, and the render tests on every fixture.
 */
import { parse } from "yaml";
import { APPLICATIONS_FOLDER } from "../../components/argoCd/applications";
import { fieldProblems } from "./fields";
import { ObjectIndex, SyncObject, syncObjectsOf } from "./objects";
import { DEFAULT_ENVIRONMENT, replaySync, SyncEnvironment, SyncProblem } from "./replay";
import { trackingProblems } from "./tracking";

export type { SyncProblem, SyncRule } from "./replay";

/** What to check a render against. */
export interface SyncCheckOptions {
    /** The cluster before the sync; by default a new cluster with the External Secrets Operator installed. */
    environment?: SyncEnvironment;
    /** Argo CD's tracking method; annotation, as docs/gitops.md requires. */
    tracking?: "annotation" | "label";
}

/**
 * Every problem a first Argo CD sync of the render's files would meet, sorted by file. A render with Applications in
 * `argocd/` (GitOps delivery) is checked as its root Application syncs it: the components in their Applications'
 * waves, each with its own.
 */
export function checkSync(files: ReadonlyMap<string, string>, opts: SyncCheckOptions = {}): SyncProblem[] {
    return checkSyncObjects(asOneSync(syncObjectsOf(files), applicationWaves(files)), opts);
}

/** The wave of each component's Application, from a render's `argocd/` folder (empty when there is none). */
export function applicationWaves(files: ReadonlyMap<string, string>): Map<string, number> {
    const waves = new Map<string, number>();
    for (const [file, text] of files) {
        if (!file.startsWith(`${APPLICATIONS_FOLDER}/application-`)) continue;
        const app = parse(text) as { metadata: { name: string; annotations?: Record<string, string> } };
        waves.set(app.metadata.name, Number(app.metadata.annotations?.["argocd.argoproj.io/sync-wave"] ?? 0));
    }
    return waves;
}

/**
 * Objects with their Application's wave folded into their own: a root Application syncs the Applications wave by
 * wave and waits for each to be healthy, so every object of an earlier Application comes before any of a later one.
 */
export function asOneSync(objects: readonly SyncObject[], appWaves: ReadonlyMap<string, number>): SyncObject[] {
    if (appWaves.size === 0 || objects.length === 0) return [...objects];
    const low = Math.min(...objects.map((o) => o.wave));
    const span = Math.max(...objects.map((o) => o.wave)) - low + 1;
    return objects.map((o) => {
        const app = appWaves.get(o.file.split("/")[0]!);
        return app === undefined ? o : { ...o, wave: app * span + (o.wave - low) };
    });
}

/** {@link checkSync} of objects already read (each with the file it is written to). */
export function checkSyncObjects(objects: readonly SyncObject[], opts: SyncCheckOptions = {}): SyncProblem[] {
    const index = new ObjectIndex(objects);
    return [
        ...replaySync(index, opts.environment ?? DEFAULT_ENVIRONMENT),
        ...fieldProblems(index.objects),
        ...trackingProblems(index, opts.tracking ?? "annotation"),
    ].sort((a, b) => a.file.localeCompare(b.file) || a.message.localeCompare(b.message));
}
