/**
 * `mara:retainVolumes` applied to volumes that already exist: the StorageClass's reclaim policy only
 * reaches volumes provisioned after it, so turning retention on later must also switch the existing
 * PersistentVolumes of the platform's claims to `Retain`, before anything deletes their claims (ECK
 * deletes Elasticsearch's claims with the cluster; Helm deletes Grafana's). Only ever towards keeping:
 * turning retention off never makes a volume deletable.
 */
import type { ClusterClient } from "./records";

/** Switches every `Delete` PersistentVolume bound to a claim in `namespaces` to `Retain`; returns their names. */
export async function retainClaimedVolumes(client: ClusterClient, namespaces: readonly string[], log: (m: string) => void = () => undefined): Promise<string[]> {
    const doomed = (await client.persistentVolumes()).filter((v) => v.reclaimPolicy === "Delete" && v.claim !== undefined && namespaces.includes(v.claim.split("/")[0]!));
    for (const v of doomed) {
        await client.retainPersistentVolume(v.pv);
        log(`PersistentVolume ${v.pv} (claim ${v.claim}) now has reclaim policy Retain: its volume stays when the claim is deleted`);
    }
    return doomed.map((v) => v.pv);
}
