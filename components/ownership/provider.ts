/**
 * The ownership guard's dynamic provider. Its create (the first `pulumi up` of a stack with the guard) checks every
 * claimed name; its update checks only the names added since its last inputs (the others are the stack's already),
 * and all of them again when the kubeconfig now reaches another API server. Either fails with the list of what stands
 * in the way, before anything that waits for the guard is created. Preview calls neither, so a preview never reads the
 * cluster. Pulumi serialises these functions (and everything they reach) into the state as `__provider` and runs them in
 * its dynamic-provider host, a plain Node.js process: this module and its imports hold no Pulumi resources and no
 * captured secrets (the kubeconfig is an input, encrypted in the state).
 */
import type * as pulumi from "@pulumi/pulumi";
import { changedSettings } from "../drain/provider";
import { claimKey, Claims, ObjectClaim, ReleaseClaim, releaseKey } from "./claims";
import { acceptedLines, checkOwnership, refusalMessage } from "./check";
import { ClusterAccess, isClusterReadError, kubeconfigReader, MetadataReader, READ_BOUNDS, serverOf } from "./clusterReader";

/** The guard's inputs, stored in the state (the kubeconfig encrypted). */
export interface GuardProps extends ClusterAccess {
    /** The stack's identity, `<project>/<stack>`: the mark its objects carry. */
    readonly identity: string;
    /** The namespaces and cluster-scoped objects the platform creates, by name. */
    readonly objects: readonly ObjectClaim[];
    /** The Helm releases the platform installs. */
    readonly releases: readonly ReleaseClaim[];
}

const log = (m: string) => console.log(`[mara ownership] ${m}`);

/** What Pulumi's engine sends for an input it does not know yet, in a preview (@pulumi/pulumi runtime/rpc.js, `unknownValue`). */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
/**
 * The guard's inputs read from the Kubernetes provider. A setting the provider was not given reads as unknown in a
 * preview (the SDK resolves an output the engine did not return as unknown there, runtime/rpc.js `resolveProperties`),
 * so an unknown one is no change: the update that follows compares the known values, and a kubeconfig that then
 * reaches another API server has every name checked again.
 */
const ACCESS: readonly string[] = ["kubeconfig", "context", "cluster"];

/** A reader of the guard's cluster; a test replaces it to count reads or to serve hostile answers. */
export type ReaderFactory = (access: ClusterAccess) => MetadataReader;

/** Checks `claims`; throws the refusal message when something stands in the way. */
async function check(p: GuardProps, claims: Claims, reader: ReaderFactory): Promise<void> {
    if (!claims.objects.length && !claims.releases.length) return;
    let r: MetadataReader;
    let report: Awaited<ReturnType<typeof checkOwnership>>;
    try {
        r = reader(p);
        report = await checkOwnership(r, claims, { identity: p.identity });
    } catch (e) {
        const why = isClusterReadError(e) ? e.message : `the check itself failed (${(e as Error)?.message ?? String(e)})`;
        throw new Error(`The platform could not check that the names it creates are free or its own, so it created nothing on the cluster: ${why}`);
    }
    if (report.refusals.length) throw new Error(refusalMessage(report.refusals, p.identity, r.server));
    for (const line of acceptedLines(report)) log(line);
    log(`${claims.objects.length} name(s) and ${claims.releases.length} release(s) on ${r.server} are free or this stack's`);
}

/** The API server a kubeconfig reaches, as `server` reads it; undefined when it cannot be read. */
function serverOrNone(p: ClusterAccess, server: (access: ClusterAccess) => string): string | undefined {
    try {
        return server(p);
    } catch {
        return undefined;
    }
}

/** The guard's provider, with the cluster read through `reader` and the kubeconfig's API server told by `server`. */
export function ownershipProvider(reader: ReaderFactory, server: (access: ClusterAccess) => string = serverOf): pulumi.dynamic.ResourceProvider {
    return {
        async create(inputs: GuardProps) {
            await check(inputs, inputs, reader);
            return { id: "ownership", outs: inputs };
        },
        async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
            const unknown = ACCESS.filter((k) => news[k] === UNKNOWN);
            const without = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([k]) => !unknown.includes(k)));
            return { changes: changedSettings(without(olds), without(news)).length > 0, replaces: [], deleteBeforeReplace: false };
        },
        async update(_id: string, olds: GuardProps, news: GuardProps) {
            const before = serverOrNone(olds, server);
            const moved = before === undefined || before !== serverOrNone(news, server);
            const objects = new Set((olds.objects ?? []).map(claimKey));
            const releases = new Set((olds.releases ?? []).map(releaseKey));
            const added: Claims = moved
                ? news
                : { objects: news.objects.filter((c) => !objects.has(claimKey(c))), releases: news.releases.filter((r) => !releases.has(releaseKey(r))) };
            if (moved) log("the kubeconfig reaches another API server than at the last update: checking every name again");
            await check(news, added, reader);
            return { outs: news };
        },
        async delete() {
            // Nothing to undo: the guard only reads.
        },
    };
}

/** The provider the guard runs with: the cluster read through the kubeconfig, within {@link READ_BOUNDS}. */
export const guardProvider: pulumi.dynamic.ResourceProvider = ownershipProvider((access) => kubeconfigReader(access, READ_BOUNDS));
