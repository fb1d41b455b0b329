/**
 * From a Service to what a port-forward needs: a ready pod behind it and the container port its Service port sends
 * to (a number, or a port name looked up in the pod). kubectl does the same for `port-forward svc/...`.
 */
import type { KubeClient } from "../doctor/kubeClient";

/** Where to forward. */
export interface ForwardTarget {
    readonly namespace: string;
    readonly pod: string;
    readonly containerPort: number;
}

interface ServicePort {
    port: number;
    targetPort?: number | string;
}
interface PodInfo {
    metadata: { name: string; deletionTimestamp?: string };
    spec?: { containers?: { ports?: { name?: string; containerPort: number }[] }[] };
    status?: { phase?: string; conditions?: { type: string; status: string }[] };
}

/** A failure that names what is missing and how to look. */
export class OpenError extends Error {
    constructor(message: string) {
        super(message);
        this.name = "OpenError";
    }
}

/** Finds a ready pod of the Service and the container port behind `port`. */
export async function resolveForward(client: KubeClient, namespace: string, service: string, port: number): Promise<ForwardTarget> {
    const svc = await client.find<{ spec?: { selector?: Record<string, string>; ports?: ServicePort[] } }>(`/api/v1/namespaces/${namespace}/services/${service}`);
    if (!svc) throw new OpenError(`there is no Service ${service} in namespace ${namespace}: is the platform deployed to this cluster? (kubectl -n ${namespace} get services)`);
    const sp = (svc.spec?.ports ?? []).find((p) => p.port === port);
    if (!sp) throw new OpenError(`Service ${namespace}/${service} has no port ${port}`);
    const selector = Object.entries(svc.spec?.selector ?? {}).map(([k, v]) => `${k}=${v}`).join(",");
    if (!selector) throw new OpenError(`Service ${namespace}/${service} selects no pods`);
    const pods = await client.get<{ items: PodInfo[] }>(`/api/v1/namespaces/${namespace}/pods?labelSelector=${encodeURIComponent(selector)}`);
    const ready = pods.items.find((p) => !p.metadata.deletionTimestamp && p.status?.phase === "Running" && p.status.conditions?.some((c) => c.type === "Ready" && c.status === "True"));
    if (!ready) {
        throw new OpenError(`no pod of Service ${namespace}/${service} is ready (${pods.items.length} found); see: kubectl -n ${namespace} get pods -l ${selector}`);
    }
    const target = sp.targetPort ?? sp.port;
    const containerPort =
        typeof target === "number"
            ? target
            : /^\d+$/.test(target)
              ? Number(target)
              : ready.spec?.containers?.flatMap((c) => c.ports ?? []).find((p) => p.name === target)?.containerPort;
    if (containerPort === undefined) throw new OpenError(`pod ${namespace}/${ready.metadata.name} has no port named ${String(target)}`);
    return { namespace, pod: ready.metadata.name, containerPort };
}
