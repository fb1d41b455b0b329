/**
 * How Argo CD tells which objects belong to an Application, and what that does to a render.
 *
 * - Label tracking (Argo CD's default before 3.0): Argo CD sets the label `application.instanceLabelKey` names
 *   (`app.kubernetes.io/instance` unless changed) on every object it syncs, to the Application's name. Charts use that
 *   very label to select their own objects, so a selector that reads it from a synced object selects nothing once
 *   Argo CD has overwritten it: the ServiceMonitors of several charts select their Services by it.
 * - Annotation tracking (the default since 3.0, `application.resourceTrackingMethod: annotation`): Argo CD writes
 *   `argocd.argoproj.io/tracking-id` (application, group, kind, namespace and name) and leaves labels alone. The id
 *   names the object's namespace, so a namespaced object without one, or a cluster-scoped object with one, never
 *   matches its own id and shows as out of sync for ever.
 */
import { apiGroupOf } from "../kinds";
import type { ObjectIndex } from "./objects";
import type { SyncProblem } from "./replay";
import { keysOf, LabelSelector } from "./selectors";

/** Argo CD's default instance label. */
export const INSTANCE_LABEL = "app.kubernetes.io/instance";

/** Selectors of the Prometheus operator's kinds that select other objects Argo CD syncs (not pods), by field. */
const SYNCED_SELECTORS: Record<string, string[]> = {
    ServiceMonitor: ["selector"],
    Prometheus: ["serviceMonitorSelector", "podMonitorSelector", "probeSelector", "ruleSelector", "scrapeConfigSelector"],
    Alertmanager: ["alertmanagerConfigSelector"],
};

/** What breaks under a tracking method. */
export function trackingProblems(index: ObjectIndex, method: "annotation" | "label", instanceLabel = INSTANCE_LABEL): SyncProblem[] {
    const problems: SyncProblem[] = [];
    for (const o of index.objects) {
        const { object } = o;
        if (method === "label" && apiGroupOf(object.apiVersion) === "monitoring.coreos.com") {
            for (const field of SYNCED_SELECTORS[object.kind] ?? []) {
                const selector = (object.spec as Record<string, unknown> | undefined)?.[field] as LabelSelector | undefined;
                if (keysOf(selector).includes(instanceLabel)) {
                    problems.push({ rule: "tracking", file: o.file, message: `${object.kind} ${object.metadata?.namespace}/${object.metadata?.name} selects by ${instanceLabel} (spec.${field}), which label tracking overwrites with the Application's name: it would select nothing` });
                }
            }
        }
        if (method === "annotation") {
            const namespaced = index.isNamespaced(object);
            const has = object.metadata?.namespace !== undefined;
            if (namespaced !== has) {
                problems.push({ rule: "tracking", file: o.file, message: `${object.kind} ${object.metadata?.name} is ${namespaced ? "namespaced but names no namespace" : "cluster-scoped but names a namespace"}: its tracking id would never match it` });
            }
            if (object.metadata?.annotations?.["argocd.argoproj.io/tracking-id"] !== undefined) {
                problems.push({ rule: "tracking", file: o.file, message: `${object.kind} ${object.metadata?.name} carries its own argocd.argoproj.io/tracking-id` });
            }
        }
    }
    return problems;
}
