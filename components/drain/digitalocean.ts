/**
 * What Kubernetes leaves in DigitalOcean for one cluster: the ingress load balancer, named by the
 * platform (`<cluster>-ingress`, set through the service annotation), and volumes tagged with the
 * cluster's ID (`k8s:<cluster-id>`) that no droplet uses any more. Nothing else is listed.
 */
import type { DrainApi, LeftoverResource } from "./engine";

/** The calls the DigitalOcean drain makes (DigitalOcean's public API v2; a fake implements them in tests). */
export interface DigitalOceanDrainClient {
    loadBalancers(): Promise<{ id: string; name: string; status: string }[]>;
    volumes(): Promise<{ id: string; name: string; tags: string[]; dropletIds: number[] }[]>;
    deleteLoadBalancer(id: string): Promise<void>;
    deleteVolume(id: string): Promise<void>;
}

/** Settings of the DigitalOcean drain. */
export interface DigitalOceanDrainTarget {
    readonly clusterName: string;
    readonly clusterId: string;
    /** Load balancer names the platform gave its Services. */
    readonly loadBalancerNames: readonly string[];
    readonly retainVolumes: boolean;
}

/** The DigitalOcean view of one cluster's leftovers. */
export function digitalOceanDrainApi(client: DigitalOceanDrainClient, t: DigitalOceanDrainTarget): DrainApi {
    const clusterTag = `k8s:${t.clusterId}`;
    return {
        target: `DigitalOcean cluster ${t.clusterName}`,
        async list() {
            const [lbs, volumes] = await Promise.all([client.loadBalancers(), t.retainVolumes ? Promise.resolve([]) : client.volumes()]);
            return [
                ...lbs.filter((lb) => t.loadBalancerNames.includes(lb.name)).map((lb): LeftoverResource => ({ kind: "load balancer", id: lb.id, name: lb.name, deletable: true })),
                ...volumes
                    .filter((v) => v.tags.includes(clusterTag))
                    .map((v): LeftoverResource => ({ kind: "volume", id: v.id, name: v.name, deletable: v.dropletIds.length === 0 })),
            ];
        },
        remove: (r) => (r.kind === "load balancer" ? client.deleteLoadBalancer(r.id) : client.deleteVolume(r.id)),
    };
}

/** The DigitalOcean API v2 over HTTPS with the account token (the documented interface of every DigitalOcean SDK). */
export function digitalOceanHttpClient(token: string, fetchFn: typeof fetch = fetch): DigitalOceanDrainClient {
    const call = async (method: string, path: string): Promise<Record<string, unknown>> => {
        const res = await fetchFn(`https://api.digitalocean.com/v2${path}`, { method, headers: { Authorization: `Bearer ${token}` } });
        if (res.status === 404 && method === "DELETE") return {};
        if (!res.ok) throw new Error(`DigitalOcean API ${method} ${path}: ${res.status} ${res.statusText}`);
        return res.status === 204 ? {} : ((await res.json()) as Record<string, unknown>);
    };
    return {
        async loadBalancers() {
            const body = await call("GET", "/load_balancers?per_page=200");
            return (body.load_balancers as { id: string; name: string; status: string }[]) ?? [];
        },
        async volumes() {
            const body = await call("GET", "/volumes?per_page=200");
            return ((body.volumes as { id: string; name: string; tags?: string[]; droplet_ids?: number[] }[]) ?? []).map((v) => ({
                id: v.id,
                name: v.name,
                tags: v.tags ?? [],
                dropletIds: v.droplet_ids ?? [],
            }));
        },
        deleteLoadBalancer: async (id) => void (await call("DELETE", `/load_balancers/${id}`)),
        deleteVolume: async (id) => void (await call("DELETE", `/volumes/${id}`)),
    };
}
