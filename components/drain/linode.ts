/**
 * What Kubernetes made in Linode for one cluster, as the cluster's records prove it:
 * - NodeBalancers whose IPv4 address or host name a LoadBalancer Service's status names at the drain's
 *   first look (an address belongs to one NodeBalancer at a time, and may go to another once released),
 *   unless the Service asks the controller to preserve it; a NodeBalancer the Service's
 *   `linode-loadbalancer-nodebalancer-id` annotation alone names is the user's, asked to be adopted;
 * - volumes a `Delete` PersistentVolume provisioned by the Linode CSI driver names (handle
 *   `<volume ID>-<label>`), whose label is the one the driver derived from that PV's name (`pvc-<claim
 *   UID>`, unique to this cluster).
 * Tags prove nothing here: the platform's `mara-cluster-<name>` tag is a name, and users tag their own
 * resources the same way for grouping.
 */
import type { DrainApi, KeptResource, LeftoverResource } from "./engine";
import { preservesLoadBalancer, volumeOwnership } from "./ownership";
import type { ClusterRecords } from "./records";

/** The Linode CSI driver's name, as PersistentVolumes carry it. */
export const LINODE_CSI_DRIVER = "linodebs.csi.linode.com";

/** The Service annotation that asks Linode's controller to use an existing NodeBalancer (a request, not proof). */
export const NODEBALANCER_ID_ANNOTATION = "service.beta.kubernetes.io/linode-loadbalancer-nodebalancer-id";

/** The calls the Linode drain makes, as in @linode/api-v4 (a fake implements them in tests). */
export interface LinodeDrainClient {
    /** Every NodeBalancer of the account, all pages. */
    nodeBalancers(): Promise<{ id: number; label: string; ipv4: string; hostname: string }[]>;
    /** One volume, or undefined when it no longer exists. */
    volume(id: number): Promise<{ id: number; label: string; linodeId: number | null } | undefined>;
    deleteNodeBalancer(id: number): Promise<void>;
    deleteVolume(id: number): Promise<void>;
}

/** Settings of the Linode drain. */
export interface LinodeDrainTarget {
    readonly clusterName: string;
    readonly retainVolumes: boolean;
}

/** The volume ID and label in a Linode CSI volume handle (`<id>-<label>`). */
export function parseLinodeHandle(handle: string): { id: number; label: string } | undefined {
    const m = /^(\d+)-(.+)$/.exec(handle);
    return m ? { id: Number(m[1]), label: m[2]! } : undefined;
}

/**
 * Whether a volume label is one the Linode CSI driver derives from a PV name: an optional prefix, then
 * the PV name (older drivers drop its dashes) cut at the 32 characters Linode allows. At least 16
 * characters of the name must survive, enough of the claim's UID to be unique.
 */
export function labelFromPv(label: string, pv: string): boolean {
    const forms = [pv, pv.replace(/-/g, "")];
    for (let start = 0; start <= label.length - 16; start++) {
        const rest = label.slice(start);
        if (forms.some((f) => f.startsWith(rest) && (rest.length === f.length || label.length === 32))) return true;
    }
    return false;
}

/** The Linode view of one cluster's leftovers, decided by its records. */
export function linodeDrainApi(client: LinodeDrainClient, t: LinodeDrainTarget, records: ClusterRecords): DrainApi {
    const volumes = volumeOwnership(records.volumes, LINODE_CSI_DRIVER, t.retainVolumes, (h) => {
        const parsed = parseLinodeHandle(h);
        return parsed ? String(parsed.id) : undefined;
    });
    const kept: KeptResource[] = [...volumes.kept];
    const keep = (k: KeptResource) => {
        if (!kept.some((x) => x.kind === k.kind && x.id === k.id)) kept.push(k);
    };
    const services = records.loadBalancers;
    // Only the address or host name Linode's controller wrote into a Service's status proves a NodeBalancer
    // this cluster's. The nodebalancer-id annotation is a request: it names the user's own NodeBalancer for the
    // controller to adopt, and a Service whose controller could not adopt it stays Pending, naming it still.
    const serviceFor = (nb: { ipv4: string; hostname: string }) =>
        services.find((s) => (nb.ipv4 !== "" && s.ips.includes(nb.ipv4)) || (nb.hostname !== "" && s.hostnames.includes(nb.hostname)));
    const requestedBy = (nb: { id: number }) => services.find((s) => s.annotations[NODEBALANCER_ID_ANNOTATION] === String(nb.id));
    // Fixed at the first look, while the Services still hold their addresses: an address released during the
    // drain can go to another cluster's NodeBalancer, which must not then look like ours.
    let proven: Set<number> | undefined;
    return {
        target: `Linode cluster ${t.clusterName}`,
        kept,
        async list() {
            const nbs = services.length && (!proven || proven.size) ? await client.nodeBalancers() : [];
            if (!proven) {
                proven = new Set();
                for (const nb of nbs) {
                    const s = serviceFor(nb);
                    if (!s) {
                        const r = requestedBy(nb);
                        if (r) keep({ kind: "NodeBalancer", id: String(nb.id), name: `${nb.label}, named by Service ${r.service}'s ${NODEBALANCER_ID_ANNOTATION} annotation only`, reason: "the Service's status does not name it, so it is not proven this cluster's (a NodeBalancer of your own that the controller did not adopt)" });
                    } else if (preservesLoadBalancer(s)) {
                        keep({ kind: "NodeBalancer", id: String(nb.id), name: `${nb.label}, named by Service ${s.service}`, reason: "the Service asks Linode's controller to preserve it" });
                    } else {
                        proven.add(nb.id);
                    }
                }
            }
            const ownNbs = nbs.filter((nb) => proven!.has(nb.id));
            const ownVolumes: LeftoverResource[] = [];
            for (const o of volumes.owned) {
                const { id, label } = parseLinodeHandle(o.handle)!;
                const v = await client.volume(id);
                if (!v) continue;
                if (v.label === label && labelFromPv(label, o.pv)) ownVolumes.push({ kind: "volume", id: String(v.id), name: v.label, deletable: v.linodeId === null });
                else keep({ kind: "volume", id: String(v.id), name: `${v.label}, named by PersistentVolume ${o.pv}`, reason: `its label is not the one the CSI driver derives from ${o.pv}, so it is not proven the volume this cluster provisioned` });
            }
            return [...ownNbs.map((nb): LeftoverResource => ({ kind: "NodeBalancer", id: String(nb.id), name: nb.label, deletable: true })), ...ownVolumes];
        },
        remove: (r) => (r.kind === "NodeBalancer" ? client.deleteNodeBalancer(Number(r.id)) : client.deleteVolume(Number(r.id))),
    };
}

/** The part of @linode/api-v4 the drain uses (its declarations do not resolve under Node's module rules). */
export interface LinodeApi {
    setToken(token: string): unknown;
    getNodeBalancers(params: { page: number; page_size: number }): Promise<{ data: { id: number; label: string; ipv4: string; hostname: string }[]; pages: number }>;
    getVolume(id: number): Promise<{ id: number; label: string; linode_id: number | null }>;
    deleteNodeBalancer(id: number): Promise<unknown>;
    deleteVolume(id: number): Promise<unknown>;
}

/** Items per page of a list call (Linode's maximum). */
export const LINODE_PAGE_SIZE = 500;

/** A {@link LinodeDrainClient} over @linode/api-v4 (the real module from {@link linodeSdkClient}, a fake in tests); lists follow `pages`. */
export function linodeDrainClient(api: LinodeApi): LinodeDrainClient {
    const notFound = (e: unknown) => (e as { response?: { status?: number } }).response?.status === 404;
    const ignoreNotFound = (e: unknown) => {
        if (!notFound(e)) throw e;
    };
    return {
        async nodeBalancers() {
            const out: { id: number; label: string; ipv4: string; hostname: string }[] = [];
            for (let page = 1, pages = 1; page <= pages; page++) {
                const res = await api.getNodeBalancers({ page, page_size: LINODE_PAGE_SIZE });
                out.push(...res.data.map((nb) => ({ id: nb.id, label: nb.label, ipv4: nb.ipv4 ?? "", hostname: nb.hostname ?? "" })));
                pages = res.pages;
            }
            return out;
        },
        async volume(id) {
            try {
                const v = await api.getVolume(id);
                return { id: v.id, label: v.label, linodeId: v.linode_id };
            } catch (e) {
                ignoreNotFound(e);
                return undefined;
            }
        },
        deleteNodeBalancer: async (id) => void (await api.deleteNodeBalancer(id).catch(ignoreNotFound)),
        deleteVolume: async (id) => void (await api.deleteVolume(id).catch(ignoreNotFound)),
    };
}

/** Linode's official client (@linode/api-v4), loaded only when a drain runs. */
export function linodeSdkClient(token: string): LinodeDrainClient {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const api = require("@linode/api-v4") as LinodeApi;
    api.setToken(token);
    return linodeDrainClient(api);
}
