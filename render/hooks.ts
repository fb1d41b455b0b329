/**
 * Helm hooks, rewritten for Argo CD. Left as they are, Argo CD maps pre-install and pre-upgrade hooks to PreSync,
 * which runs before anything of the Sync phase, Namespaces included: a chart's pre-install Job in its release's
 * namespace (kube-prometheus-stack's admission certificate Job) is refused, and the sync never starts. So:
 *
 * - a hook that runs (a Job or a Pod) stays a hook, with Argo CD's own annotations: pre-install and pre-upgrade
 *   become `Sync`, placed in a wave by what it needs like any other object; post-install and post-upgrade stay
 *   `PostSync`, in the wave of their Helm weight. Helm's delete policies map to Argo CD's (Helm's default,
 *   before-hook-creation, when there is none), so the Job is recreated on every sync as Helm recreates it on every
 *   upgrade;
 * - a hook that only exists (the ServiceAccount, Role and binding such a Job runs as) becomes an ordinary object:
 *   Argo CD would delete it again at a point of its own choosing (its documentation warns of this for passive
 *   hooks), and it costs nothing to keep.
 *
 * Helm's hook annotations are removed either way, so a reader of the output sees one set of rules. Hooks Argo CD
 * does not run during a sync (delete and test hooks) are left as Helm wrote them.
 */
import type { KubeObject } from "../contracts/kubeObject";
import type { PlacedObject } from "./layout";

const HELM_HOOK = "helm.sh/hook";
const HELM_WEIGHT = "helm.sh/hook-weight";
const HELM_DELETE = "helm.sh/hook-delete-policy";
/** Argo CD's hook annotations. */
export const ARGO_HOOK = "argocd.argoproj.io/hook";
export const ARGO_HOOK_DELETE = "argocd.argoproj.io/hook-delete-policy";

const DELETE_POLICIES: Record<string, string> = { "before-hook-creation": "BeforeHookCreation", "hook-succeeded": "HookSucceeded", "hook-failed": "HookFailed" };
const PRE = new Set(["pre-install", "pre-upgrade"]);
const POST = new Set(["post-install", "post-upgrade"]);

const csv = (v: string | undefined) => (v ?? "").split(",").map((s) => s.trim()).filter(Boolean);
const runs = (o: KubeObject) => (o.kind === "Job" && o.apiVersion.startsWith("batch/")) || (o.kind === "Pod" && o.apiVersion === "v1");

/** An object with its Helm hook annotations rewritten for Argo CD, or the same object when it is not an install or upgrade hook. */
export function forArgoCd(o: KubeObject): KubeObject {
    const annotations = o.metadata?.annotations ?? {};
    const types = csv(annotations[HELM_HOOK]);
    const pre = types.some((t) => PRE.has(t));
    const post = types.some((t) => POST.has(t));
    if (!pre && !post) return o;
    const { [HELM_HOOK]: _hook, [HELM_WEIGHT]: weight, [HELM_DELETE]: policy, ...rest } = annotations;
    if (!runs(o)) return { ...o, metadata: { ...o.metadata, annotations: rest } };
    const phases = [...(pre ? ["Sync"] : []), ...(post ? ["PostSync"] : [])];
    const policies = csv(policy ?? "before-hook-creation").flatMap((p) => (DELETE_POLICIES[p] ? [DELETE_POLICIES[p]] : []));
    const hook: Record<string, string> = { ...rest, [ARGO_HOOK]: phases.join(","), ...(policies.length ? { [ARGO_HOOK_DELETE]: policies.join(",") } : {}) };
    // A PostSync hook keeps its Helm order; a Sync hook is placed by its needs (waves.ts).
    if (!pre && weight !== undefined) hook["argocd.argoproj.io/sync-wave"] = weight;
    return { ...o, metadata: { ...o.metadata, annotations: hook } };
}

/** Every object of a render with its Helm hooks rewritten for Argo CD. */
export function hooksForArgoCd(placed: readonly PlacedObject[]): PlacedObject[] {
    return placed.map((p) => {
        const object = forArgoCd(p.object);
        return object === p.object ? p : { ...p, object };
    });
}
