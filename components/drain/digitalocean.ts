/**
 * What Kubernetes made in DigitalOcean for one cluster, as the cluster's records prove it:
 * - load balancers a LoadBalancer Service names at the drain's first look (by the ID DigitalOcean's
 *   controller writes into its `kubernetes.digitalocean.com/load-balancer-id` annotation, or by the IP in
 *   its status) that carry the controller's tag with this cluster's ID, `k8s:<cluster-id>`;
 * - volumes a `Delete` PersistentVolume provisioned by the DigitalOcean CSI driver names, whose name is
 *   that PV's (`pvc-<claim UID>`, unique to this cluster) and which carry the cluster's tag.
 * A name alone, or the cluster tag alone (the CSI driver also tags volumes it merely attaches), proves
 * nothing.
 */
import type { DrainApi, KeptResource, LeftoverResource } from "./engine";
import { HttpStatusError, parseRetryAfter } from "./faults";
import { preservesLoadBalancer, volumeOwnership } from "./ownership";
import type { ClusterRecords } from "./records";

/** The DigitalOcean CSI driver's name, as PersistentVolumes carry it. */
export const DO_CSI_DRIVER = "dobs.csi.digitalocean.com";

/** Annotation in which DigitalOcean's cloud controller records a Service's load balancer ID. */
export const DO_LB_ID_ANNOTATION = "kubernetes.digitalocean.com/load-balancer-id";

/** The calls the DigitalOcean drain makes (DigitalOcean's public API v2; a fake implements them in tests). */
export interface DigitalOceanDrainClient {
    /** Every load balancer of the account, all pages. */
    loadBalancers(): Promise<{ id: string; name: string; ip: string; tags: string[] }[]>;
    /** One volume, or undefined when it no longer exists. */
    volume(id: string): Promise<{ id: string; name: string; tags: string[]; dropletIds: number[] } | undefined>;
    deleteLoadBalancer(id: string): Promise<void>;
    deleteVolume(id: string): Promise<void>;
}

/** Settings of the DigitalOcean drain. */
export interface DigitalOceanDrainTarget {
    readonly clusterName: string;
    /** The cluster's UUID: its controllers tag what they make `k8s:<cluster-id>`. */
    readonly clusterId: string;
    readonly retainVolumes: boolean;
}

/** The DigitalOcean view of one cluster's leftovers, decided by its records. */
export function digitalOceanDrainApi(client: DigitalOceanDrainClient, t: DigitalOceanDrainTarget, records: ClusterRecords): DrainApi {
    const clusterTag = `k8s:${t.clusterId}`;
    const volumes = volumeOwnership(records.volumes, DO_CSI_DRIVER, t.retainVolumes);
    const kept: KeptResource[] = [...volumes.kept];
    const keep = (k: KeptResource) => {
        if (!kept.some((x) => x.kind === k.kind && x.id === k.id)) kept.push(k);
    };
    const recordFor = (lb: { id: string; ip: string }) => records.loadBalancers.find((r) => r.annotations[DO_LB_ID_ANNOTATION] === lb.id || (lb.ip !== "" && r.ips.includes(lb.ip)));
    // Fixed at the first look, while the Services still hold their addresses: one released during the drain
    // can go to another load balancer, which must not then even be considered.
    let proven: Set<string> | undefined;
    return {
        target: `DigitalOcean cluster ${t.clusterName}`,
        kept,
        async list() {
            const lbs = records.loadBalancers.length && (!proven || proven.size) ? await client.loadBalancers() : [];
            if (!proven) {
                proven = new Set();
                for (const lb of lbs) {
                    const record = recordFor(lb);
                    if (!record) continue;
                    if (preservesLoadBalancer(record)) {
                        keep({ kind: "load balancer", id: lb.id, name: `${lb.name}, named by Service ${record.service}`, reason: "the Service disowns it (service.kubernetes.io/do-loadbalancer-disown)" });
                    } else if (!lb.tags.includes(clusterTag)) {
                        keep({ kind: "load balancer", id: lb.id, name: `${lb.name}, named by Service ${record.service}`, reason: `not tagged ${clusterTag}, so not proven made by this cluster's controller` });
                    } else {
                        proven.add(lb.id);
                    }
                }
            }
            const ownLbs = lbs.filter((lb) => proven!.has(lb.id));
            const ownVolumes: LeftoverResource[] = [];
            for (const o of volumes.owned) {
                const v = await client.volume(o.id);
                if (!v) continue;
                if (v.name === o.pv && v.tags.includes(clusterTag)) ownVolumes.push({ kind: "volume", id: v.id, name: v.name, deletable: v.dropletIds.length === 0 });
                else keep({ kind: "volume", id: v.id, name: `${v.name}, named by PersistentVolume ${o.pv}`, reason: `not named ${o.pv} and tagged ${clusterTag}, so not proven the volume this cluster provisioned` });
            }
            return [...ownLbs.map((lb): LeftoverResource => ({ kind: "load balancer", id: lb.id, name: lb.name, deletable: true })), ...ownVolumes];
        },
        remove: (r) => (r.kind === "load balancer" ? client.deleteLoadBalancer(r.id) : client.deleteVolume(r.id)),
    };
}

/** DigitalOcean's API, as documented at https://docs.digitalocean.com/reference/api/. */
export const DO_API = "https://api.digitalocean.com/v2";

/** Items per page of a list call (DigitalOcean's maximum). */
export const DO_PAGE_SIZE = 200;

/**
 * The DigitalOcean API v2 over HTTPS with the account token. Lists follow `links.pages.next` until the
 * last page. (Why not DigitalOcean's SDK: see docs/dependencies.md.)
 */
export function digitalOceanHttpClient(token: string, fetchFn: typeof fetch = fetch): DigitalOceanDrainClient {
    // A 404 is "no longer there": no volume for a look-up, done for a delete. Any other failure carries its
    // status and Retry-After for the drain's retry (faults.ts).
    const request = async (method: string, url: string): Promise<Record<string, unknown> | undefined> => {
        const res = await fetchFn(url, { method, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" } });
        if (res.status === 404) return undefined;
        if (!res.ok) {
            const body = (await res.json().catch(() => undefined)) as { id?: string; message?: string } | undefined;
            const detail = body?.message ? `: ${body.id ? `${body.id}: ` : ""}${body.message}` : "";
            // No status text over HTTP/2: the body's id and message say what went wrong.
            throw new HttpStatusError(`DigitalOcean API ${method} ${url.replace(DO_API, "")}: ${res.status}${res.statusText ? ` ${res.statusText}` : ""}${detail}`, res.status, parseRetryAfter(res.headers.get("retry-after")));
        }
        return res.status === 204 ? {} : ((await res.json()) as Record<string, unknown>);
    };
    const all = async <T>(path: string, key: string): Promise<T[]> => {
        const items: T[] = [];
        let url: string | undefined = `${DO_API}${path}?page=1&per_page=${DO_PAGE_SIZE}`;
        while (url) {
            const body = await request("GET", url);
            items.push(...(((body?.[key] as T[] | undefined) ?? [])));
            const next = (body?.links as { pages?: { next?: string } } | undefined)?.pages?.next;
            // Only ever follow DigitalOcean's own API: the token goes with every request.
            url = next && next.startsWith(`${DO_API}/`) ? next : undefined;
        }
        return items;
    };
    type Lb = { id: string; name: string; ip?: string; tags?: string[] };
    type Vol = { id: string; name: string; tags?: string[]; droplet_ids?: number[] };
    return {
        loadBalancers: async () => (await all<Lb>("/load_balancers", "load_balancers")).map((lb) => ({ id: lb.id, name: lb.name, ip: lb.ip ?? "", tags: lb.tags ?? [] })),
        async volume(id) {
            const v = (await request("GET", `${DO_API}/volumes/${encodeURIComponent(id)}`))?.volume as Vol | undefined;
            return v && { id: v.id, name: v.name, tags: v.tags ?? [], dropletIds: v.droplet_ids ?? [] };
        },
        deleteLoadBalancer: async (id) => void (await request("DELETE", `${DO_API}/load_balancers/${encodeURIComponent(id)}`)),
        deleteVolume: async (id) => void (await request("DELETE", `${DO_API}/volumes/${encodeURIComponent(id)}`)),
    };
}
