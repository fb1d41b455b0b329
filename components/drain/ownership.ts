/**
 * The first, cloud-free half of deciding what the drain may delete: which volumes and load balancers
 * the cluster's own records name as made by this cluster for it. Each cloud then checks the cloud's
 * side against a value unique to this cluster before anything is deleted.
 */
import type { KeptResource } from "./engine";
import type { LoadBalancerRecord, VolumeRecord } from "./records";

/** A cloud volume that the cluster provisioned itself for one of its claims, with reclaim policy `Delete`. */
export interface OwnedVolume {
    /** The cloud's volume ID, from the PV's volume handle. */
    readonly id: string;
    /** The PersistentVolume (`pvc-<claim UID>`): the value unique to this cluster the cloud side must carry. */
    readonly pv: string;
    /** The whole volume handle. */
    readonly handle: string;
    readonly claim?: string;
}

/** Which volumes the drain may delete, and which it keeps (with the reason). */
export interface VolumeOwnership {
    readonly owned: readonly OwnedVolume[];
    readonly kept: readonly KeptResource[];
}

/**
 * Sorts the cluster's PersistentVolumes of one CSI driver into those this cluster provisioned and may
 * delete (reclaim policy `Delete`, provisioned by the driver) and those it keeps: everything when
 * `retainVolumes` is set, a `Retain` PV, and an imported volume (a PV written by hand for an existing
 * volume carries no `pv.kubernetes.io/provisioned-by`). Volumes of other drivers are not this cloud's
 * block storage and are left out.
 *
 * @param idOf the cloud volume ID in a volume handle; undefined when the handle is not one the driver makes.
 */
export function volumeOwnership(volumes: readonly VolumeRecord[], driver: string, retainVolumes: boolean, idOf: (handle: string) => string | undefined = (h) => h): VolumeOwnership {
    const owned: OwnedVolume[] = [];
    const kept: KeptResource[] = [];
    for (const v of volumes.filter((x) => x.driver === driver)) {
        const id = v.handle ? idOf(v.handle) : undefined;
        const keep = (reason: string) => kept.push({ kind: "volume", id: id ?? v.handle ?? v.pv, name: `PersistentVolume ${v.pv}${v.claim ? ` (claim ${v.claim})` : ""}`, reason });
        if (retainVolumes) keep("mara:retainVolumes is true");
        else if (v.reclaimPolicy !== "Delete") keep(`its PersistentVolume's reclaim policy is ${v.reclaimPolicy}`);
        else if (v.provisionedBy !== driver) keep(`imported: the PersistentVolume was not provisioned by ${driver} in this cluster`);
        else if (!id) keep(`its volume handle "${v.handle ?? ""}" is not one ${driver} makes`);
        else owned.push({ id, pv: v.pv, handle: v.handle!, claim: v.claim });
    }
    return { owned, kept };
}

/** Service annotations by which a cloud controller is told to leave a load balancer in place when its Service goes. */
export const PRESERVE_ANNOTATIONS: Readonly<Record<string, string>> = {
    "service.beta.kubernetes.io/linode-loadbalancer-preserve": "true",
    "service.kubernetes.io/do-loadbalancer-disown": "true",
};

/**
 * Both cloud controllers read these annotations with Go's strconv.ParseBool, which takes "1", "t", "T", "TRUE",
 * "true" and "True" as true; any capitalisation of "true" is kept as well, so a doubtful value keeps the balancer.
 */
const GO_TRUE = new Set(["1", "t", "T", "TRUE", "true", "True"]);

/** Whether the Service asks its cloud controller to keep its load balancer. */
export function preservesLoadBalancer(lb: LoadBalancerRecord): boolean {
    return Object.keys(PRESERVE_ANNOTATIONS).some((k) => {
        const v = lb.annotations[k]?.trim();
        return v !== undefined && (GO_TRUE.has(v) || v.toLowerCase() === "true");
    });
}
