/** Linode: the LKE control plane ACL, and disk encryption of LKE nodes and block storage volumes. */
import type { ResourceRule } from "../rule";
import { ALLOWED_CIDRS_SETTING, cidrProblem } from "./cidr";

const LKE = "linode:index/lkeCluster:LkeCluster";
const VOLUME = "linode:index/volume:Volume";

interface Acl {
    enabled?: boolean;
    addresses?: { ipv4s?: string[]; ipv6s?: string[] }[];
}

export const lkeControlPlaneAcl: ResourceRule<{ allowedCidrs: string[] }> = {
    kind: "resource",
    id: "linode-control-plane-acl",
    description: "LKE clusters enable the control plane ACL with an allow-list of IPv4 blocks, never 0.0.0.0/0.",
    // Advisory for the same reason as the EKS endpoint rule: only the user knows where `pulumi up` runs from.
    level: "advisory",
    settings: { allowedCidrs: ALLOWED_CIDRS_SETTING },
    types: [LKE],
    check: ({ name, props }, s) => {
        const acl = (props.controlPlane as { acl?: Acl } | undefined)?.acl;
        const problem = acl?.enabled === true ? cidrProblem((acl.addresses ?? []).flatMap((a) => a.ipv4s ?? []), s.allowedCidrs) : "is not enabled";
        return problem ? [`LKE cluster "${name}"'s control plane ACL ${problem}: set controlPlane.acl { enabled: true, addresses }`] : [];
    },
    examples: {
        pass: [{ type: LKE, name: "lke", props: { controlPlane: { highAvailability: true, acl: { enabled: true, addresses: [{ ipv4s: ["203.0.113.0/24"] }] } } } }],
        fail: [
            { type: LKE, name: "lke", props: { controlPlane: { highAvailability: true } } },
            { type: LKE, name: "lke", props: { controlPlane: { acl: { enabled: true, addresses: [{ ipv4s: ["0.0.0.0/0"] }] } } } },
        ],
    },
};

export const linodeDiskEncryption: ResourceRule = {
    kind: "resource",
    id: "linode-disk-encryption",
    description: "LKE node pools do not turn disk encryption off, and block storage volumes turn it on.",
    level: "mandatory",
    settings: {},
    types: [LKE, VOLUME],
    check: ({ type, name, props }) => {
        // LKE encrypts node disks by default where the region supports it; only an explicit "disabled" turns it off.
        if (type === LKE) {
            return ((props.pools ?? []) as { type?: string; diskEncryption?: string }[])
                .filter((p) => p.diskEncryption === "disabled")
                .map((p) => `LKE cluster "${name}" pool of ${p.type ?? "nodes"} has disk encryption disabled`);
        }
        return props.encryption === "enabled" ? [] : [`volume "${name}" is not encrypted: set encryption: "enabled"`];
    },
    examples: {
        pass: [
            { type: LKE, name: "lke", props: { pools: [{ type: "g6-standard-8", count: 3 }] } },
            { type: VOLUME, name: "data", props: { label: "data", size: 20, encryption: "enabled" } },
        ],
        fail: [
            { type: LKE, name: "lke", props: { pools: [{ type: "g6-standard-8", count: 3, diskEncryption: "disabled" }] } },
            { type: VOLUME, name: "data", props: { label: "data", size: 20 } },
        ],
    },
};
