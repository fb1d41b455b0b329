/** An existing-cluster stack that asks for MetalLB and the NFS provisioner: the MARA-format kubeconfig fixture plus their keys. */
import type { RawConfig } from "../../config";

/** The keys, with a BGP router or without (layer 2). */
export function clusterAddOnValues(opts: { bgp?: boolean } = {}): Record<string, string> {
    return {
        "mara:metallbAddresses": '["192.168.1.240-192.168.1.250", "10.20.30.0/28"]',
        ...(opts.bgp ? { "mara:metallbBgpPeers": '["192.168.1.1:64501:64500"]' } : {}),
        "mara:nfsServer": "192.168.1.10",
        "mara:nfsPath": "/srv/nfs/mara",
    };
}

/** `raw` with the add-on keys set. */
export function withClusterAddOns(raw: RawConfig, opts: { bgp?: boolean } = {}): RawConfig {
    return { ...raw, values: { ...raw.values, ...clusterAddOnValues(opts) } };
}
