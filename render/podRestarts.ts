/**
 * How pods restart when a Secret they read changes, in a render. Under `pulumi up`, the pods that read a Secret carry
 * `secrets.mara/revision` (components/passwordRotation.ts): the Secrets' resource versions, which change when Pulumi
 * changes a Secret and so roll the pods. A render has no resource versions (what the program saw offline is the
 * simulated cloud's, and anything derived from a Secret's data would let whoever reads the repository test guesses
 * of its values), and under GitOps the values change in the secret store, not in the repository: the External
 * Secrets Operator refreshes the Secret, and nothing in the manifests changes.
 *
 * So the annotation is taken off the pod template, and the workload names the Secrets for Stakater Reloader
 * (`secret.reloader.stakater.com/reload`), which restarts it when one of them changes. The annotation does nothing
 * without Reloader on the cluster (docs/gitops.md).
 */
import { SECRETS_REVISION_ANNOTATION } from "../components/passwordRotation";
import { isMap, type KubeObject } from "../contracts/kubeObject";
import type { PlacedObject } from "./layout";

/** Stakater Reloader's annotation: a rolling restart of the workload when one of the named Secrets changes. */
export const RELOADER_SECRETS = "secret.reloader.stakater.com/reload";

/** A workload with its Secrets' revision annotation replaced by Reloader's, or the same object when it has none. */
export function restartsForGitOps(o: KubeObject): KubeObject {
    const spec = isMap(o.spec) ? o.spec : {};
    const template = isMap(spec.template) ? (spec.template as { metadata?: { annotations?: Record<string, string> } }) : undefined;
    const revision = template?.metadata?.annotations?.[SECRETS_REVISION_ANNOTATION];
    if (revision === undefined) return o;
    const names = revision.split(",").map((entry) => entry.split("=")[0]!.trim()).filter(Boolean);
    const { [SECRETS_REVISION_ANNOTATION]: _dropped, ...annotations } = template!.metadata!.annotations!;
    const { annotations: _old, ...templateMetadata } = template!.metadata!;
    return {
        ...o,
        metadata: { ...o.metadata, annotations: { ...o.metadata?.annotations, [RELOADER_SECRETS]: [...new Set(names)].sort().join(",") } },
        spec: { ...spec, template: { ...template, metadata: Object.keys(annotations).length ? { ...templateMetadata, annotations } : templateMetadata } },
    };
}

/** Every object of a render with {@link restartsForGitOps} applied. */
export function podRestartsForGitOps(placed: readonly PlacedObject[]): PlacedObject[] {
    return placed.map((p) => {
        const object = restartsForGitOps(p.object);
        return object === p.object ? p : { ...p, object };
    });
}
