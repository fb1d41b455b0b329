/**
 * CustomResourceDefinitions an interrupted run left accepted but never established, and the nudge that has the API
 * server establish them now rather than in up to five minutes.
 *
 * Why they exist: when the API server stops right after accepting a CRD's names (a control-plane restart during a
 * Helm install), the restarted one does not establish it. Its establishing controller is queued only from a CRD's
 * update event with `NamesAccepted` true and `Established` not (kubernetes apiextensions-apiserver,
 * pkg/apiserver/customresource_handler.go, `updateCustomResourceDefinition`); the restart's first list gives add
 * events, and the next update event is the CRD informer's resync, every five minutes (pkg/apiserver/apiserver.go).
 * Helm's `--wait` waits for `Established`, so the install that re-creates the release waited that long. Any update is
 * an update event: an annotation set and removed again queues the CRD and leaves nothing behind.
 *
 * Only the stack's CRDs are touched: those of Helm releases in the stack's namespaces (the same rule as its releases'
 * records), and those the program applies itself (components/chartCrds.ts), which the state names. The latter carry
 * no Helm marks, and an apply of the same CRD again changes nothing, so it is no update event either: the ingress
 * controller's were left unestablished after an API server restart until the resync.
 */
import type { KubeContextClient } from "../../doctor/kubeClient";
import { isKubeApiError } from "../../doctor/kubeClient";
import { CliIo, line } from "../../kernel/io";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
/** Set and removed again at once: only its update event matters. */
export const NUDGE_ANNOTATION = "mara.nginx.com/establish-requested";

/** A CRD to nudge: its name, and the Helm release that installed it (none: the stack applies it itself). */
export interface UnestablishedCrd {
    readonly name: string;
    readonly release?: { readonly name: string; readonly namespace: string };
}

/**
 * A release name as Helm accepts one (helm/helm v3 pkg/chartutil/validate_name.go, `ValidateReleaseName`: a DNS
 * subdomain of at most 53 characters). The annotation is anyone's text; only a name Helm could have written is printed.
 */
const RELEASE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The status of condition `type` of a CRD's status, or undefined when it has none. */
function condition(status: unknown, type: string): unknown {
    if (!isObject(status) || !Array.isArray(status.conditions)) return undefined;
    const c = status.conditions.find((x) => isObject(x) && x.type === type);
    return isObject(c) ? c.status : undefined;
}

/**
 * The CRDs of a list whose names the API server accepted but that it never established, installed by a Helm release
 * in one of `namespaces` (Helm's ownership annotations, helm/helm pkg/action/validate.go) or named in `own` (the CRDs
 * the stack's state applies itself). Anything not shaped as a CRD is skipped, never thrown on.
 */
export function unestablishedCrds(list: unknown, namespaces: readonly string[], own: readonly string[] = []): UnestablishedCrd[] {
    const items = isObject(list) && Array.isArray(list.items) ? list.items : [];
    const found: UnestablishedCrd[] = [];
    for (const item of items) {
        if (!isObject(item) || !isObject(item.metadata)) continue;
        const { name, annotations, deletionTimestamp } = item.metadata;
        if (typeof name !== "string" || deletionTimestamp !== undefined) continue;
        if (condition(item.status, "NamesAccepted") !== "True" || condition(item.status, "Established") === "True") continue;
        const release = isObject(annotations) ? annotations["meta.helm.sh/release-name"] : undefined;
        const namespace = isObject(annotations) ? annotations["meta.helm.sh/release-namespace"] : undefined;
        if (typeof release === "string" && release.length <= 53 && RELEASE_NAME.test(release) && typeof namespace === "string" && namespaces.includes(namespace)) {
            found.push({ name, release: { name: release, namespace } });
        } else if (own.includes(name)) found.push({ name });
    }
    return found;
}

/** The line that says what was found. */
export function describeUnestablished(c: UnestablishedCrd): string {
    const by = c.release ? `Helm release ${c.release.namespace}/${c.release.name}` : "applied by this stack";
    return `CustomResourceDefinition ${c.name} (${by}) has its names accepted but was never established, as after an API server restart: asking the API server to establish it now (otherwise it waits up to five minutes, and so does what uses it)`;
}

/**
 * Lists the CRDs and nudges each unestablished one of the stack's (an annotation set, then removed). Never fails the
 * run: a CRD left as it was is established by the API server's resync, and the install waits for it. `heading`, when
 * given, is printed before the first line this prints, so a check that finds nothing prints nothing.
 */
export async function establishCrds(client: Pick<KubeContextClient, "get" | "mergePatch">, namespaces: readonly string[], io: CliIo, own: readonly string[] = [], heading?: string): Promise<void> {
    let crds: UnestablishedCrd[];
    try {
        crds = unestablishedCrds(await client.get(CRDS), namespaces, own);
    } catch (e) {
        if (heading) line(io.stderr, heading);
        line(io.stderr, `  - the CustomResourceDefinitions were not checked (${isKubeApiError(e) || e instanceof Error ? e.message : String(e)}); one left unestablished by an API server restart makes the install wait up to five minutes`);
        return;
    }
    if (heading && crds.length) line(io.stderr, heading);
    for (const crd of crds) {
        line(io.stderr, `  - ${describeUnestablished(crd)}`);
        const path = `${CRDS}/${encodeURIComponent(crd.name)}`;
        try {
            await client.mergePatch(path, { metadata: { annotations: { [NUDGE_ANNOTATION]: new Date().toISOString() } } });
            await client.mergePatch(path, { metadata: { annotations: { [NUDGE_ANNOTATION]: null } } });
            line(io.stderr, `  ✓ asked the API server to establish ${crd.name}`);
        } catch (e) {
            line(io.stderr, `  - could not update ${crd.name} (${e instanceof Error ? e.message : String(e)}); the install waits until the API server establishes it`);
        }
    }
}
