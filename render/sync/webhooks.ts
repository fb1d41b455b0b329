/**
 * Admission webhooks during a sync. A webhook with `failurePolicy: Fail` refuses every request it intercepts while
 * it cannot be called: its Service has no ready pod, or the API server cannot verify its certificate (no CA bundle
 * yet). Argo CD applies the objects of a wave without waiting for anything in that wave to become healthy, so an
 * object such a webhook intercepts is accepted only if the webhook served before its wave began.
 */
import type { KubeObject } from "../../contracts/kubeObject";
import { apiGroupOf, builtInPlural } from "../kinds";
import { condition, Need } from "./needs";
import { ObjectIndex, Ref, SyncObject } from "./objects";
import { podSpecOf } from "./podNeeds";
import type { Production } from "./productions";
import { LabelSelector, matches } from "./selectors";

type Spec = Record<string, unknown>;

/** One `Fail` webhook of a configuration. */
export interface FailWebhook {
    config: SyncObject;
    name: string;
    /** The condition that it answers. */
    serving: Ref;
}

/** Whether an object is a validating or mutating webhook configuration. */
export const isWebhookConfig = (o: SyncObject) => apiGroupOf(o.object.apiVersion) === "admissionregistration.k8s.io" && /^(Validating|Mutating)WebhookConfiguration$/.test(o.object.kind);

/** The condition that a webhook answers. */
export const webhookServing = (config: SyncObject, webhook: string) => condition("WebhookServing", `${config.object.kind}/${config.object.metadata?.name}/${webhook}`);

const webhooksOf = (config: SyncObject) => ((config.object.webhooks as Spec[] | undefined) ?? []).filter((w) => (w.failurePolicy ?? "Fail") === "Fail");

/** The labels of a namespace: its own (when the render has it) and the name label the API server adds to every namespace. */
function namespaceLabels(index: ObjectIndex, namespace: string): Record<string, string> {
    const ns = index.get({ group: "", kind: "Namespace", name: namespace });
    return { ...(ns?.object.metadata?.labels ?? {}), "kubernetes.io/metadata.name": namespace };
}

/** Whether a webhook's rules and selectors catch the creation of `target`. */
function intercepts(w: Spec, target: KubeObject, index: ObjectIndex): boolean {
    const group = apiGroupOf(target.apiVersion);
    const version = target.apiVersion.split("/").at(-1)!;
    const crd = index.crds.get(`${group}/${target.kind}`);
    const resource = crd?.plural ?? builtInPlural(target.kind);
    const namespaced = index.isNamespaced(target);
    const any = (list: unknown, value: string) => Array.isArray(list) && list.some((x) => x === "*" || x === value);
    const ruleMatches = ((w.rules as Spec[] | undefined) ?? []).some(
        (r) =>
            any(r.apiGroups, group) &&
            any(r.apiVersions, version) &&
            any(r.operations, "CREATE") &&
            Array.isArray(r.resources) && (r.resources as string[]).some((x) => x === "*" || x === "*/*" || x === resource) &&
            (r.scope === undefined || r.scope === "*" || r.scope === (namespaced ? "Namespaced" : "Cluster")),
    );
    if (!ruleMatches) return false;
    if (!matches(w.objectSelector as LabelSelector | undefined, target.metadata?.labels ?? {})) return false;
    // A namespaceSelector applies to namespaced objects (and to Namespaces themselves, by their own labels).
    const ns = target.kind === "Namespace" ? target.metadata?.name : namespaced ? target.metadata?.namespace : undefined;
    return ns === undefined || matches(w.namespaceSelector as LabelSelector | undefined, namespaceLabels(index, ns));
}

/** The `Fail` webhooks of the render that intercept the creation of `target`. */
export function failWebhooksFor(target: KubeObject, index: ObjectIndex, configs = index.filter(isWebhookConfig)): FailWebhook[] {
    return configs.flatMap((config) => webhooksOf(config).filter((w) => intercepts(w, target, index)).map((w) => ({ config, name: String(w.name), serving: webhookServing(config, String(w.name)) })));
}

/** What a pod template's pods look like to a webhook: a v1 Pod with the template's labels, in the workload's namespace. */
export function podOf(o: SyncObject): KubeObject | undefined {
    const template = ((o.object.spec as Spec | undefined)?.template ?? undefined) as { metadata?: { labels?: Record<string, string> } } | undefined;
    if (!podSpecOf(o.object) || o.object.kind === "CronJob") return undefined;
    return { apiVersion: "v1", kind: "Pod", metadata: { name: `${o.object.metadata?.name}-pod`, namespace: o.object.metadata?.namespace, labels: template?.metadata?.labels ?? {} } };
}

/** The workload whose pods back a Service: the one in its namespace whose pod template its selector matches. */
export function backendOf(index: ObjectIndex, namespace: string, service: string): SyncObject | undefined {
    const svc = index.get({ group: "", kind: "Service", namespace, name: service });
    const selector = (svc?.object.spec as Spec | undefined)?.selector as Record<string, string> | undefined;
    if (!selector || Object.keys(selector).length === 0) return undefined;
    return index.objects.find((o) => {
        if (o.object.metadata?.namespace !== namespace || apiGroupOf(o.object.apiVersion) !== "apps") return false;
        const labels = ((o.object.spec as Spec | undefined)?.template as { metadata?: { labels?: Record<string, string> } } | undefined)?.metadata?.labels ?? {};
        return matches({ matchLabels: selector }, labels);
    });
}

/**
 * The condition that each `Fail` webhook answers: it holds once its configuration is applied, its Service exists,
 * the workload behind that Service is healthy and its CA bundle is there.
 */
export function servingProductions(index: ObjectIndex, needsOfConfig: (o: SyncObject) => Need[]): Production[] {
    return index.filter(isWebhookConfig).flatMap((config) =>
        webhooksOf(config).map((w) => {
            const svc = (w.clientConfig as Spec | undefined)?.service as Spec | undefined;
            const backend = svc?.name ? backendOf(index, String(svc.namespace), String(svc.name)) : undefined;
            const serve = needsOfConfig(config).filter((n) => n.when === "serve");
            const needs: Need[] = backend || !svc?.name ? serve : [...serve, { ref: condition("ServiceBackend", `${svc.namespace}/${svc.name}`), when: "run", why: `a workload behind Service ${svc.namespace}/${svc.name}` }];
            return { makes: webhookServing(config, String(w.name)), from: config, by: `webhook ${w.name}`, controller: backend, needs };
        }),
    );
}
