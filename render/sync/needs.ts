/**
 * What each object of a render needs from the cluster, and when:
 *
 * - `apply`: the API server refuses the object while it is missing (its Namespace, the CRD of its kind, the
 *   ServiceAccount a token Secret is for);
 * - `run`: the API server accepts the object, but it does not become healthy until the need exists (the Secrets and
 *   ConfigMaps its pods read, its ServiceAccount, its PersistentVolumeClaims, the issuer of a Certificate, the
 *   operator that reconciles a custom resource);
 * - `serve`: what an admission webhook needs to answer (its Service's pods, its CA). Argo CD does not wait for it,
 *   but every object the webhook intercepts does.
 *
 * Needs name objects of the render, things the cluster has before the sync, or conditions a controller brings
 * about (refs in {@link CONDITION_GROUP}, made in productions.ts).
 */
import { isMap } from "../../contracts/kubeObject";
import { apiGroupOf } from "../kinds";
import { CONDITION_GROUP, Need, ObjectIndex, Ref, SyncObject } from "./objects";
import { operatorOf, RECONCILED_HEALTH } from "./operators";
import { podNeeds, podSpecOf } from "./podNeeds";

// Need lives in objects.ts, which podNeeds.ts imports too, so the needs modules form no circle.
export type { Need };

/** A condition reference (see {@link CONDITION_GROUP}). */
export const condition = (kind: string, name: string, namespace?: string): Ref => ({ group: CONDITION_GROUP, kind, name, ...(namespace ? { namespace } : {}) });

/** The condition that a custom kind is served: its CRD was applied, or the cluster had it before the sync. */
export const kindServed = (group: string, kind: string) => condition("KindServed", `${group}/${kind}`);

/** The condition that an admission webhook configuration has a CA bundle its callers can verify. */
export const caBundleOf = (configKind: string, configName: string) => condition("CABundle", `${configKind}/${configName}`);

/** The condition that an ingress controller publishes the address of Ingresses of a class. */
export const ingressStatusOf = (ingressClass: string) => condition("IngressStatus", ingressClass);

/** The condition that a PersistentVolumeClaim is bound. */
export const claimBound = (namespace: string, name: string) => condition("ClaimBound", name, namespace);

type Spec = Record<string, unknown>;

const isCore = (o: SyncObject, kind: string) => o.object.apiVersion === "v1" && o.object.kind === kind;
const is = (o: SyncObject, group: string, kind: string) => apiGroupOf(o.object.apiVersion) === group && o.object.kind === kind;

/** Kinds whose health Argo CD assesses from their pods (gitops-engine's built-in checks). */
const POD_HEALTH = new Set(["apps/Deployment", "apps/StatefulSet", "apps/DaemonSet", "apps/ReplicaSet", "/Pod", "batch/Job"]);

/** Everything `o` needs. */
export function needsOf(o: SyncObject, index: ObjectIndex): Need[] {
    const needs: Need[] = [];
    const { object } = o;
    const group = apiGroupOf(object.apiVersion);
    const namespace = object.metadata?.namespace;
    if (namespace && index.isNamespaced(object)) needs.push({ ref: { group: "", kind: "Namespace", name: namespace }, when: "apply", why: "its namespace" });
    if (index.crds.has(`${group}/${object.kind}`) || !isBuiltIn(object.apiVersion)) needs.push({ ref: kindServed(group, object.kind), when: "apply", why: "the CRD of its kind" });

    const pod = podSpecOf(object);
    if (pod && POD_HEALTH.has(`${group}/${object.kind}`) && namespace) needs.push(...podNeeds(pod, namespace));
    if (is(o, "apps", "StatefulSet")) needs.push(...storageClassNeeds((((object.spec as Spec)?.volumeClaimTemplates as Spec[]) ?? []).map((t) => t.spec as Spec), index, "volume claim template"));

    if (isCore(o, "Secret") && object.type === "kubernetes.io/service-account-token" && namespace) {
        const sa = object.metadata?.annotations?.["kubernetes.io/service-account.name"];
        // The token controller deletes a token Secret whose ServiceAccount does not exist.
        if (sa) needs.push({ ref: { group: "", kind: "ServiceAccount", namespace, name: sa }, when: "apply", why: "the ServiceAccount its token is for" });
    }
    if (isCore(o, "PersistentVolumeClaim") && namespace) {
        const spec = object.spec as Spec;
        needs.push(...storageClassNeeds([spec], index, "its storage class"));
        if (bindsOnFirstConsumer(spec, index)) needs.push({ ref: claimBound(namespace, object.metadata!.name!), when: "run", why: "a pod that mounts it (its storage class binds on first consumer)" });
    }
    if (is(o, "networking.k8s.io", "Ingress")) {
        const cls = ingressClassOf(object as Spec);
        if (cls) {
            if (index.get({ group: "networking.k8s.io", kind: "IngressClass", name: cls })) needs.push({ ref: { group: "networking.k8s.io", kind: "IngressClass", name: cls }, when: "run", why: "its IngressClass" });
            needs.push({ ref: ingressStatusOf(cls), when: "run", why: `an ingress controller of class ${cls} publishing its address (Argo CD's Ingress health)` });
        }
    }
    if (is(o, "apiregistration.k8s.io", "APIService")) {
        const svc = (object.spec as Spec)?.service as Spec | undefined;
        if (svc?.name) needs.push({ ref: { group: "", kind: "Service", namespace: String(svc.namespace), name: String(svc.name) }, when: "run", why: "its backing Service" });
    }
    if (group === "admissionregistration.k8s.io" && /WebhookConfiguration$/.test(object.kind)) {
        for (const w of (object.webhooks as Spec[] | undefined) ?? []) {
            if ((w.failurePolicy ?? "Fail") !== "Fail") continue;
            const cc = w.clientConfig as Spec | undefined;
            const svc = cc?.service as Spec | undefined;
            if (svc?.name) needs.push({ ref: { group: "", kind: "Service", namespace: String(svc.namespace), name: String(svc.name) }, when: "serve", why: `the Service of webhook ${w.name}` });
            if (!cc?.caBundle) needs.push({ ref: caBundleOf(object.kind, object.metadata!.name!), when: "serve", why: `a CA bundle for webhook ${w.name}` });
        }
    }
    needs.push(...customResourceNeeds(o, index));
    if (RECONCILED_HEALTH.has(`${group}/${object.kind}`)) {
        const op = operatorOf(index, group);
        if (op !== "external") needs.push({ ref: op?.ref ?? condition("Operator", group), when: "run", why: `the operator of ${group} (Argo CD's health check for ${object.kind} waits for its status)` });
    }
    return needs;
}

/** Whether an apiVersion is one Kubernetes serves itself (a group without a dot, or one of the *.k8s.io groups). */
export function isBuiltIn(apiVersion: string): boolean {
    const group = apiGroupOf(apiVersion);
    return !group.includes(".") || group.endsWith(".k8s.io");
}

/** The class of an Ingress: `spec.ingressClassName`, else the older annotation. */
export function ingressClassOf(ingress: Spec): string | undefined {
    const cls = (ingress.spec as Spec | undefined)?.ingressClassName ?? (ingress.metadata as { annotations?: Record<string, string> } | undefined)?.annotations?.["kubernetes.io/ingress.class"];
    return typeof cls === "string" ? cls : undefined;
}

function storageClassNeeds(specs: Spec[], index: ObjectIndex, why: string): Need[] {
    return specs.flatMap((s) => {
        const name = s?.storageClassName;
        // A class the render does not define is the cluster's (or the default class): nothing to order.
        return typeof name === "string" && index.get({ group: "storage.k8s.io", kind: "StorageClass", name }) ? [{ ref: { group: "storage.k8s.io", kind: "StorageClass", name }, when: "run" as const, why }] : [];
    });
}

/** Whether a claim's class waits for a pod before binding (unknown classes are assumed to, as the clouds' defaults do). */
function bindsOnFirstConsumer(spec: Spec, index: ObjectIndex): boolean {
    const name = spec?.storageClassName;
    const cls = typeof name === "string" ? index.get({ group: "storage.k8s.io", kind: "StorageClass", name }) : undefined;
    return cls ? cls.object.volumeBindingMode === "WaitForFirstConsumer" : true;
}

/** The Issuer or ClusterIssuer a cert-manager Certificate names. */
export function certificateIssuer(o: SyncObject): Ref | undefined {
    const issuer = (o.object.spec as Spec | undefined)?.issuerRef as Spec | undefined;
    if (!issuer?.name) return undefined;
    const kind = String(issuer.kind ?? "Issuer");
    return { group: String(issuer.group ?? "cert-manager.io"), kind, ...(kind === "Issuer" ? { namespace: o.object.metadata?.namespace } : {}), name: String(issuer.name) };
}

/** What custom resources of the platform's operators refer to by name. */
function customResourceNeeds(o: SyncObject, index: ObjectIndex): Need[] {
    const { object } = o;
    const spec = (object.spec ?? {}) as Spec;
    const ns = object.metadata?.namespace;
    const secret = (name: unknown, why: string): Need[] => (typeof name === "string" && ns ? [{ ref: { group: "", kind: "Secret", namespace: ns, name }, when: "run", why }] : []);
    if (is(o, "cert-manager.io", "Certificate")) {
        const issuer = certificateIssuer(o);
        return issuer ? [{ ref: issuer, when: "run", why: "its issuer" }] : [];
    }
    if (is(o, "cert-manager.io", "Issuer")) return secret((spec.ca as Spec | undefined)?.secretName, "its CA");
    if (is(o, "elasticsearch.k8s.elastic.co", "Elasticsearch")) {
        const auth = (spec.auth ?? {}) as Spec;
        const claims = ((spec.nodeSets as Spec[] | undefined) ?? []).flatMap((n) => ((n.volumeClaimTemplates as Spec[] | undefined) ?? []).map((t) => t.spec as Spec));
        return [
            ...((auth.fileRealm as Spec[] | undefined) ?? []).flatMap((r) => secret(r.secretName, "a file realm of its auth")),
            ...((auth.roles as Spec[] | undefined) ?? []).flatMap((r) => secret(r.secretName, "roles of its auth")),
            ...storageClassNeeds(claims, index, "a node set's volume claim template"),
        ];
    }
    if (is(o, "kibana.k8s.elastic.co", "Kibana")) {
        const ref = spec.elasticsearchRef as Spec | undefined;
        if (!isMap(ref) || !ref.name) return [];
        return [{ ref: { group: "elasticsearch.k8s.elastic.co", kind: "Elasticsearch", namespace: String(ref.namespace ?? ns), name: String(ref.name) }, when: "run", why: "its elasticsearchRef" }];
    }
    return [];
}
