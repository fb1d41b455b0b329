/**
 * Where a workload keeps its pod: a Pod's own spec, a controller's template, a CronJob's job template. The
 * container rules look at every kind that makes pods, so a Deployment that breaks one is refused when it is
 * applied, not later when its ReplicaSet fails to make pods. The JavaScript and the CEL here say the same thing.
 */
import type { KubeObject, KubernetesTarget } from "../rule";

/** Every kind that holds a pod template, and the Pod itself. */
export const WORKLOADS: readonly KubernetesTarget[] = [
    { group: "", kind: "Pod", resource: "pods" },
    { group: "apps", kind: "Deployment", resource: "deployments" },
    { group: "apps", kind: "StatefulSet", resource: "statefulsets" },
    { group: "apps", kind: "DaemonSet", resource: "daemonsets" },
    { group: "apps", kind: "ReplicaSet", resource: "replicasets" },
    { group: "batch", kind: "Job", resource: "jobs" },
    { group: "batch", kind: "CronJob", resource: "cronjobs" },
    { group: "", kind: "ReplicationController", resource: "replicationcontrollers" },
];

/** A container as the rules read it. */
export interface Container {
    readonly name?: string;
    readonly image?: string;
    readonly resources?: { readonly requests?: Record<string, unknown>; readonly limits?: Record<string, unknown> };
    readonly securityContext?: { readonly privileged?: boolean; readonly [field: string]: unknown };
    readonly env?: readonly { readonly name?: string; readonly value?: string; readonly valueFrom?: unknown }[];
}

/** A pod spec as the rules read it. */
export interface PodSpec {
    readonly containers?: readonly Container[];
    readonly initContainers?: readonly Container[];
    readonly hostNetwork?: boolean;
    readonly hostPID?: boolean;
    readonly hostIPC?: boolean;
    readonly volumes?: readonly { readonly name?: string; readonly hostPath?: { readonly path?: string } }[];
}

type Spec = { spec?: { template?: { spec?: PodSpec }; jobTemplate?: { spec?: { template?: { spec?: PodSpec } } } } & PodSpec };

/** The pod spec of a workload, or undefined when the object is not one (or has none yet). */
export function podSpecOf(object: KubeObject): PodSpec | undefined {
    const o = object as Spec;
    if (object.kind === "Pod") return o.spec;
    if (object.kind === "CronJob") return o.spec?.jobTemplate?.spec?.template?.spec;
    return o.spec?.template?.spec;
}

/** Containers and init containers of a workload (ephemeral ones are added through a subresource no rule matches). */
export function containersOf(object: KubeObject): Container[] {
    const spec = podSpecOf(object);
    return [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])];
}

/** A container's name for a message. */
export const containerName = (c: Container) => `"${c.name ?? "(unnamed)"}"`;

/** CEL variables every container rule starts from: `podSpec` and `containers` (init containers included). */
export const WORKLOAD_VARIABLES: readonly { name: string; expression: string }[] = [
    {
        name: "podSpec",
        expression: "object.kind == 'Pod' ? object.spec : object.kind == 'CronJob' ? object.spec.jobTemplate.spec.template.spec : object.spec.template.spec",
    },
    {
        name: "containers",
        expression: "(has(variables.podSpec.containers) ? variables.podSpec.containers : []) + (has(variables.podSpec.initContainers) ? variables.podSpec.initContainers : [])",
    },
];
