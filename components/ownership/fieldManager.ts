/**
 * Server-side apply ownership of an object the platform alone writes, that a run interrupted during its create must
 * not leave to a manager nobody will apply as again.
 *
 * Why: the Kubernetes provider names the field manager of an object from the annotation `pulumi.com/patchFieldManager`,
 * else the one its state recorded, else a random `pulumi-kubernetes-<id>` drawn at the create
 * (pulumi/pulumi-kubernetes provider/pkg/provider/provider.go, `fieldManagerName`; `Create` passes no seed, so every
 * attempt draws anew). A create killed after its apply reached the API server leaves the object owned by a manager
 * no state records; the next run creates it again (its pending create cleared) as another manager, and where the
 * object holds an atomic list the API server fills with defaults (a StatefulSet's `spec.volumeClaimTemplates`: the
 * claims' `apiVersion`, `kind`, `volumeMode`, `status`), the new apply differs from what is stored and the API server
 * refuses it as a conflict with the killed run's manager. Even where nothing conflicts, the killed run's manager stays
 * a co-owner of every field, so a field the program later drops is never removed.
 *
 * The fix, per object:
 * - a stable field manager, derived from the resource's name: the run after an interrupted create applies as the
 *   manager the killed one did, and so owns what it made; no ghost owner is left;
 * - `pulumi.com/patchForce` (await.go, `patchForce`): a create killed under another manager (a run of an earlier
 *   version, or of a provider that drew a random one) is taken over on the same atomic list rather than refused. Force
 *   also means that a field the program sets, changed by someone else (`kubectl edit`, `kubectl scale`), is set back by
 *   the next `up` instead of failing it with a conflict: only for objects no controller or person is meant to change,
 *   which is why this is not every object's default. Fields the program does not set are never touched;
 * - both only for objects created from now on ({@link SOLE_OWNER_IGNORE_CHANGES}): an object a stack already holds
 *   keeps the manager its state records. Adding them to it would be an update of its metadata alone, which leaves the
 *   StatefulSet's generation as it was, and the provider's await after an update returns the first object of its
 *   informer that is ready (await.go, `Update`), which may be the one from before the apply: the state then records the
 *   object without the annotations and the next preview shows them again (seen on the engine tier's upgrade).
 *
 * Both annotations are the provider's; `mara render` drops `pulumi.com/` annotations from what it writes.
 */
import * as crypto from "crypto";

/** The annotation naming the field manager the Kubernetes provider applies an object as. */
export const FIELD_MANAGER_ANNOTATION = "pulumi.com/patchFieldManager";
/** The annotation that makes the Kubernetes provider's server-side apply take over conflicting fields. */
export const PATCH_FORCE_ANNOTATION = "pulumi.com/patchForce";

/**
 * The longest field manager name the API server accepts (k8s.io/apimachinery pkg/apis/meta/v1/validation,
 * `ValidateFieldManager`: at most `FieldManagerMaxLength`, 128, printable characters).
 */
export const FIELD_MANAGER_MAX_LENGTH = 128;

/**
 * The stable field manager of the Pulumi resource `resourceName`: `mara-<resourceName>`, any character outside
 * `[A-Za-z0-9._-]` replaced by `-` (the API server takes printable characters only), and a name too long cut and
 * ended with a digest of the whole so that it stays one per resource.
 */
export function stableFieldManager(resourceName: string): string {
    const name = `mara-${resourceName.replace(/[^A-Za-z0-9._-]/g, "-")}`;
    if (name.length <= FIELD_MANAGER_MAX_LENGTH) return name;
    const digest = crypto.createHash("sha256").update(resourceName).digest("hex").slice(0, 12);
    return `${name.slice(0, FIELD_MANAGER_MAX_LENGTH - digest.length - 1)}-${digest}`;
}

/**
 * The annotation that makes the object of `resourceName` applied as its stable manager, without force: a run after an
 * interrupted create applies as the killed run's manager (no conflict on the fields the API server defaulted, such as
 * a container's `env[].valueFrom.fieldRef.apiVersion`), and a field someone else set still stops the run with the
 * provider's conflict rather than being taken.
 */
export function stableManagerAnnotations(resourceName: string): Record<string, string> {
    return { [FIELD_MANAGER_ANNOTATION]: stableFieldManager(resourceName) };
}

/** The annotations that give the object of `resourceName` to the platform alone: its stable manager, applied with force. */
export function soleOwnerAnnotations(resourceName: string): Record<string, string> {
    return { [FIELD_MANAGER_ANNOTATION]: stableFieldManager(resourceName), [PATCH_FORCE_ANNOTATION]: "true" };
}

/**
 * The `ignoreChanges` paths of an object given {@link soleOwnerAnnotations}: Pulumi applies a resource's inputs in full
 * when it creates it and keeps the recorded values of these paths on every update, so an object created before them
 * keeps its manager, and one created after gets the stable one.
 */
export const SOLE_OWNER_IGNORE_CHANGES: readonly string[] = [`metadata.annotations["${FIELD_MANAGER_ANNOTATION}"]`, `metadata.annotations["${PATCH_FORCE_ANNOTATION}"]`];
