/**
 * What a pod needs before its containers start, read from the pod template of any workload: its ServiceAccount, the
 * Secrets and ConfigMaps it mounts or reads into its environment (unless marked optional), its image pull Secrets and
 * its PersistentVolumeClaims. The API server accepts the workload without them; its pods wait (the ServiceAccount
 * admission refuses the pods, the kubelet holds the containers), so the workload is not healthy until they exist.
 */
import { isMap, type KubeObject } from "../../contracts/kubeObject";
import type { Need, Ref } from "./objects";

type Spec = Record<string, unknown>;

/** The pod spec of a Pod, of a workload's template, or of a CronJob's job template; undefined for other objects. */
export function podSpecOf(o: KubeObject): Spec | undefined {
    const spec = o.spec as Spec | undefined;
    if (!isMap(spec)) return undefined;
    if (o.kind === "Pod" && o.apiVersion === "v1") return spec;
    const template = (o.kind === "CronJob" ? ((spec.jobTemplate as Spec | undefined)?.spec as Spec | undefined)?.template : spec.template) as Spec | undefined;
    return isMap(template) && isMap(template.spec) ? template.spec : undefined;
}

/** Every container of a pod spec that runs: init containers and containers. */
export function containersOf(pod: Spec): Spec[] {
    return ["initContainers", "containers"].flatMap((k) => (Array.isArray(pod[k]) ? (pod[k] as Spec[]) : []));
}

const core = (kind: string, namespace: string, name: string): Ref => ({ group: "", kind, namespace, name });

/** What the pods of a pod spec need, in their namespace. */
export function podNeeds(pod: Spec, namespace: string): Need[] {
    const needs: Need[] = [];
    const add = (kind: string, name: unknown, why: string, optional: unknown) => {
        if (typeof name === "string" && name !== "" && optional !== true) needs.push({ ref: core(kind, namespace, name), when: "run", why });
    };
    add("ServiceAccount", (pod.serviceAccountName ?? pod.serviceAccount ?? "default") as string, "its ServiceAccount", false);
    for (const v of (pod.volumes as Spec[] | undefined) ?? []) {
        const secret = v.secret as Spec | undefined;
        if (secret) add("Secret", secret.secretName, `volume ${v.name}`, secret.optional);
        const cm = v.configMap as Spec | undefined;
        if (cm) add("ConfigMap", cm.name, `volume ${v.name}`, cm.optional);
        const pvc = v.persistentVolumeClaim as Spec | undefined;
        if (pvc) add("PersistentVolumeClaim", pvc.claimName, `volume ${v.name}`, false);
        for (const source of ((v.projected as Spec | undefined)?.sources as Spec[] | undefined) ?? []) {
            const s = source.secret as Spec | undefined;
            if (s) add("Secret", s.name, `projected volume ${v.name}`, s.optional);
            const c = source.configMap as Spec | undefined;
            if (c) add("ConfigMap", c.name, `projected volume ${v.name}`, c.optional);
        }
    }
    for (const c of containersOf(pod)) {
        for (const e of (c.env as Spec[] | undefined) ?? []) {
            const from = e.valueFrom as Spec | undefined;
            const s = from?.secretKeyRef as Spec | undefined;
            if (s) add("Secret", s.name, `env ${e.name} of container ${c.name}`, s.optional);
            const m = from?.configMapKeyRef as Spec | undefined;
            if (m) add("ConfigMap", m.name, `env ${e.name} of container ${c.name}`, m.optional);
        }
        for (const e of (c.envFrom as Spec[] | undefined) ?? []) {
            const s = e.secretRef as Spec | undefined;
            if (s) add("Secret", s.name, `envFrom of container ${c.name}`, s.optional);
            const m = e.configMapRef as Spec | undefined;
            if (m) add("ConfigMap", m.name, `envFrom of container ${c.name}`, m.optional);
        }
    }
    for (const s of (pod.imagePullSecrets as Spec[] | undefined) ?? []) add("Secret", s.name, "image pull secret", false);
    return needs;
}

/** Names of the PersistentVolumeClaims a pod spec mounts. */
export function claimsOf(pod: Spec): string[] {
    return ((pod.volumes as Spec[] | undefined) ?? []).flatMap((v) => {
        const claim = (v.persistentVolumeClaim as Spec | undefined)?.claimName;
        return typeof claim === "string" ? [claim] : [];
    });
}
