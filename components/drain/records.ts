/**
 * What the cluster itself records about the cloud resources it made, read while it still exists: its
 * PersistentVolumes (reclaim policy, CSI driver, volume handle, provisioner), its LoadBalancer Services
 * and the addresses their status names, and its CustomResourceDefinitions with Helm's ownership marks.
 * These records, not names or tags, decide what the destroy drain may delete.
 */

/** One PersistentVolume as the drain needs it. */
export interface VolumeRecord {
    /** PV name; for a dynamically provisioned volume `pvc-<claim UID>`, unique to this cluster. */
    readonly pv: string;
    /** `Delete`, `Retain` or `Recycle` (deprecated); `Retain` when the PV does not say, as the API defaults it. Only `Delete` lets the drain delete the volume. */
    readonly reclaimPolicy: string;
    /** CSI driver of the volume (`spec.csi.driver`), absent for other volume sources. */
    readonly driver?: string;
    /** The driver's ID of the cloud volume (`spec.csi.volumeHandle`). */
    readonly handle?: string;
    /** Provisioner that created the PV (`pv.kubernetes.io/provisioned-by`); absent for a PV made by hand (an imported volume). */
    readonly provisionedBy?: string;
    /** `namespace/name` of the claim bound to it, if any. */
    readonly claim?: string;
}

/** One Service of type LoadBalancer and what its status says the cloud gave it. */
export interface LoadBalancerRecord {
    /** `namespace/name`. */
    readonly service: string;
    /** Addresses in `status.loadBalancer.ingress[].ip`. */
    readonly ips: readonly string[];
    /** Host names in `status.loadBalancer.ingress[].hostname`. */
    readonly hostnames: readonly string[];
    /** The Service's annotations (DigitalOcean's controller records the load balancer's ID there). */
    readonly annotations: Readonly<Record<string, string>>;
}

/** One CustomResourceDefinition with the marks that say who installed it. */
export interface CrdRecord {
    readonly name: string;
    readonly group: string;
    readonly labels: Readonly<Record<string, string>>;
    readonly annotations: Readonly<Record<string, string>>;
}

/** The cluster's records of what it created in the cloud. */
export interface ClusterRecords {
    readonly volumes: readonly VolumeRecord[];
    readonly loadBalancers: readonly LoadBalancerRecord[];
}

/** The Kubernetes calls the drain makes (a fake implements them in tests). Every list follows the API's `continue` pages. */
export interface ClusterClient {
    persistentVolumes(): Promise<VolumeRecord[]>;
    loadBalancerServices(): Promise<LoadBalancerRecord[]>;
    /** Asks Kubernetes to delete a Service (`namespace/name`); its cloud controller then releases the load balancer. */
    deleteService(service: string): Promise<void>;
    customResourceDefinitions(): Promise<CrdRecord[]>;
    deleteCustomResourceDefinition(name: string): Promise<void>;
    /** Sets a PersistentVolume's reclaim policy to `Retain`. */
    retainPersistentVolume(pv: string): Promise<void>;
}

/** Reads the records the drain decides by. */
export async function readRecords(client: ClusterClient): Promise<ClusterRecords> {
    const [volumes, loadBalancers] = await Promise.all([client.persistentVolumes(), client.loadBalancerServices()]);
    return { volumes, loadBalancers };
}

/** Items per page of a Kubernetes list call. */
export const KUBERNETES_PAGE_SIZE = 250;

/** Follows a Kubernetes list through its `continue` tokens. */
export async function listAll<T>(page: (token: string | undefined) => Promise<{ items: T[]; metadata?: { _continue?: string } }>): Promise<T[]> {
    const all: T[] = [];
    let token: string | undefined;
    do {
        const res = await page(token);
        all.push(...res.items);
        token = res.metadata?._continue || undefined;
    } while (token);
    return all;
}

/** How long one call of the drain's Kubernetes client may take, every page of a list included. */
export const KUBERNETES_CALL_DEADLINE_MS = 120_000;

/**
 * `call`, or an error naming it and the API server once `ms` have passed without its whole answer: an API server that
 * never answers, or answers a byte at a time, fails the destroy step with a message instead of holding it until the
 * engine gives up. The request itself is left to the client (it cannot be aborted through the generated API); the
 * dynamic provider's host ends with the step. Every list is paged ({@link KUBERNETES_PAGE_SIZE} items a page), which
 * bounds what one answer holds.
 */
async function withDeadline<T>(what: string, server: string, ms: number, call: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Kubernetes API at ${server}: ${what} got no complete answer within ${ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`}, so the step stops rather than decide on a guess; check that the cluster's API server is reachable and answering, then run the command again`)), ms);
    });
    try {
        return await Promise.race([call(), deadline]);
    } finally {
        clearTimeout(timer);
    }
}

/**
 * A {@link ClusterClient} for the cluster of a kubeconfig, with the official Kubernetes client.
 *
 * @param deadlineMs - how long one call may take ({@link KUBERNETES_CALL_DEADLINE_MS} by default; tests inject a small one).
 */
export function kubernetesClusterClient(kubeconfig: string, context?: string, deadlineMs: number = KUBERNETES_CALL_DEADLINE_MS): ClusterClient {
    // require, not import(): this runs in Pulumi's dynamic-provider host, whose evaluated code cannot import().
    // Node 22+ loads this ES module synchronously.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const k8s = require("@kubernetes/client-node") as typeof import("@kubernetes/client-node");
    const kc = new k8s.KubeConfig();
    kc.loadFromString(kubeconfig);
    if (context) kc.setCurrentContext(context);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const ext = kc.makeApiClient(k8s.ApiextensionsV1Api);
    const limit = KUBERNETES_PAGE_SIZE;
    const split = (ref: string) => ref.split("/") as [string, string];
    const notFound = (e: unknown) => (e as { code?: number }).code === 404;
    const server = kc.getCurrentCluster()?.server ?? "(the kubeconfig names no server)";
    const bounded = <T>(what: string, call: () => Promise<T>) => withDeadline(what, server, deadlineMs, call);
    const client: ClusterClient = {
        async persistentVolumes() {
            const pvs = await listAll((_continue) => core.listPersistentVolume({ limit, _continue }));
            return pvs.map((pv) => ({
                pv: pv.metadata?.name ?? "",
                // The API's default (Kubernetes' PersistentVolume defaulting): a PV without a policy is never deletable.
                reclaimPolicy: pv.spec?.persistentVolumeReclaimPolicy || "Retain",
                driver: pv.spec?.csi?.driver,
                handle: pv.spec?.csi?.volumeHandle,
                provisionedBy: pv.metadata?.annotations?.["pv.kubernetes.io/provisioned-by"],
                claim: pv.spec?.claimRef ? `${pv.spec.claimRef.namespace}/${pv.spec.claimRef.name}` : undefined,
            }));
        },
        async loadBalancerServices() {
            const services = await listAll((_continue) => core.listServiceForAllNamespaces({ limit, _continue }));
            return services
                .filter((s) => s.spec?.type === "LoadBalancer")
                .map((s) => {
                    const ingress = s.status?.loadBalancer?.ingress ?? [];
                    return {
                        service: `${s.metadata?.namespace}/${s.metadata?.name}`,
                        ips: ingress.flatMap((i) => (i.ip ? [i.ip] : [])),
                        hostnames: ingress.flatMap((i) => (i.hostname ? [i.hostname] : [])),
                        annotations: { ...(s.metadata?.annotations ?? {}) },
                    };
                });
        },
        async deleteService(service) {
            const [namespace, name] = split(service);
            await core.deleteNamespacedService({ namespace, name }).catch((e: unknown) => {
                if (!notFound(e)) throw e;
            });
        },
        async customResourceDefinitions() {
            const crds = await listAll((_continue) => ext.listCustomResourceDefinition({ limit, _continue }));
            return crds.map((c) => ({
                name: c.metadata?.name ?? "",
                group: c.spec.group,
                labels: { ...(c.metadata?.labels ?? {}) },
                annotations: { ...(c.metadata?.annotations ?? {}) },
            }));
        },
        async deleteCustomResourceDefinition(name) {
            await ext.deleteCustomResourceDefinition({ name }).catch((e: unknown) => {
                if (!notFound(e)) throw e;
            });
        },
        async retainPersistentVolume(pv) {
            await core.patchPersistentVolume(
                { name: pv, body: { spec: { persistentVolumeReclaimPolicy: "Retain" } } },
                k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.MergePatch),
            );
        },
    };
    // Every call under the same deadline, so no call the drain makes can be the one that hangs.
    return {
        persistentVolumes: () => bounded("listing PersistentVolumes", () => client.persistentVolumes()),
        loadBalancerServices: () => bounded("listing Services", () => client.loadBalancerServices()),
        deleteService: (service) => bounded(`deleting Service ${service}`, () => client.deleteService(service)),
        customResourceDefinitions: () => bounded("listing CustomResourceDefinitions", () => client.customResourceDefinitions()),
        deleteCustomResourceDefinition: (name) => bounded(`deleting CustomResourceDefinition ${name}`, () => client.deleteCustomResourceDefinition(name)),
        retainPersistentVolume: (pv) => bounded(`setting PersistentVolume ${pv} to Retain`, () => client.retainPersistentVolume(pv)),
    };
}
