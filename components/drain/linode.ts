/**
 * What Kubernetes leaves in Linode for one cluster: NodeBalancers and block storage volumes tagged
 * `mara-cluster-<name>` (the platform sets the tag on its LoadBalancer Service and in its StorageClass;
 * Linode's own labels do not name the cluster). Nothing else is listed.
 */
import type { DrainApi, LeftoverResource } from "./engine";

/** The calls the Linode drain makes, as in @linode/api-v4 (a fake implements them in tests). */
export interface LinodeDrainClient {
    nodeBalancers(): Promise<{ id: number; label: string; tags: string[] }[]>;
    volumes(): Promise<{ id: number; label: string; tags: string[]; linodeId: number | null }[]>;
    deleteNodeBalancer(id: number): Promise<void>;
    deleteVolume(id: number): Promise<void>;
}

/** Settings of the Linode drain. */
export interface LinodeDrainTarget {
    readonly clusterName: string;
    readonly retainVolumes: boolean;
}

/** The tag the platform puts on the cluster's NodeBalancers and volumes. */
export const linodeClusterTag = (clusterName: string) => `mara-cluster-${clusterName}`;

/** The Linode view of one cluster's leftovers. */
export function linodeDrainApi(client: LinodeDrainClient, t: LinodeDrainTarget): DrainApi {
    const tag = linodeClusterTag(t.clusterName);
    return {
        target: `Linode cluster ${t.clusterName}`,
        async list() {
            const [nbs, volumes] = await Promise.all([client.nodeBalancers(), t.retainVolumes ? Promise.resolve([]) : client.volumes()]);
            return [
                ...nbs.filter((nb) => nb.tags.includes(tag)).map((nb): LeftoverResource => ({ kind: "NodeBalancer", id: String(nb.id), name: nb.label, deletable: true })),
                ...volumes.filter((v) => v.tags.includes(tag)).map((v): LeftoverResource => ({ kind: "volume", id: String(v.id), name: v.label, deletable: v.linodeId === null })),
            ];
        },
        remove: (r) => (r.kind === "NodeBalancer" ? client.deleteNodeBalancer(Number(r.id)) : client.deleteVolume(Number(r.id))),
    };
}

/** The part of @linode/api-v4 the drain uses (its declarations do not resolve under Node's module rules). */
interface LinodeApi {
    setToken(token: string): void;
    getNodeBalancers(params: { page: number; page_size: number }): Promise<{ data: { id: number; label: string; tags: string[] }[]; pages: number }>;
    getVolumes(params: { page: number; page_size: number }): Promise<{ data: { id: number; label: string; tags: string[]; linode_id: number | null }[]; pages: number }>;
    deleteNodeBalancer(id: number): Promise<unknown>;
    deleteVolume(id: number): Promise<unknown>;
}

/** Linode's official client (@linode/api-v4), loaded only when a drain runs. */
export async function linodeSdkClient(token: string): Promise<LinodeDrainClient> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const api = require("@linode/api-v4") as LinodeApi;
    api.setToken(token);
    const all = async <T>(page: (p: { page: number; page_size: number }) => Promise<{ data: T[]; pages: number }>) => {
        const out: T[] = [];
        for (let p = 1, pages = 1; p <= pages; p++) {
            const res = await page({ page: p, page_size: 500 });
            out.push(...res.data);
            pages = res.pages;
        }
        return out;
    };
    return {
        nodeBalancers: async () => (await all((p) => api.getNodeBalancers(p))).map((nb) => ({ id: nb.id, label: nb.label, tags: nb.tags })),
        volumes: async () => (await all((p) => api.getVolumes(p))).map((v) => ({ id: v.id, label: v.label, tags: v.tags, linodeId: v.linode_id })),
        deleteNodeBalancer: async (id) => void (await api.deleteNodeBalancer(id)),
        deleteVolume: async (id) => void (await api.deleteVolume(id)),
    };
}
