/**
 * Which objects Argo CD waits for before it moves to the next wave. Argo CD assesses the health of the built-in kinds
 * its sync engine has checks for (Deployment, StatefulSet, DaemonSet, ReplicaSet, Pod, Job, PersistentVolumeClaim,
 * Ingress, Service, APIService, HorizontalPodAutoscaler) and of the custom kinds it ships checks for
 * ({@link RECONCILED_HEALTH}); every other object is healthy once applied. A hook is done when its Job or Pod
 * completes, any other hook once it is applied.
 *
 * A LoadBalancer Service is healthy once the cloud's controller publishes its address, which happens outside the
 * render: the model takes it as given. So is what a container does once it runs (a readiness probe that waits for
 * another service): a workload is healthy here once everything its pods need exists.
 */
import { apiGroupOf } from "../kinds";
import type { SyncObject } from "./objects";
import { RECONCILED_HEALTH } from "./operators";

const BUILT_IN_HEALTH = new Set([
    "apps/Deployment", "apps/StatefulSet", "apps/DaemonSet", "apps/ReplicaSet", "/Pod", "/PersistentVolumeClaim", "batch/Job",
    "networking.k8s.io/Ingress", "extensions/Ingress", "apiregistration.k8s.io/APIService",
]);

/** Whether Argo CD waits for this object to be healthy (a hook: to complete) before the next wave. */
export function waitsForHealth(o: SyncObject): boolean {
    const key = `${apiGroupOf(o.object.apiVersion)}/${o.object.kind}`;
    if (o.hook) return key === "batch/Job" || key === "/Pod";
    return BUILT_IN_HEALTH.has(key) || RECONCILED_HEALTH.has(key);
}
