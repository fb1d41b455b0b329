/**
 * The add-ons an existing cluster may ask the platform for: MetalLB, for LoadBalancer Services on clusters
 * without a load balancer implementation (bare metal, k3s without ServiceLB, kubeadm, kind, RKE2, MicroK8s),
 * and the NFS subdir external provisioner, for volumes on clusters without a StorageClass. Each is installed only
 * when its key is set (`mara:metallbAddresses`, `mara:nfsServer`), and each key's neighbours are checked together
 * here: MetalLB's pool must be addresses the user may announce (private, or declared in
 * `mara:metallbAllowedRanges`) and not overlap itself; the NFS server needs its export path. Whether the pool
 * overlaps the cluster's own Service and Pod ranges can only be known from the live cluster: `mara doctor` checks
 * that, and `mara up` runs it first.
 */
import { addressRanges, LOAD_BALANCER_PRIVATE_RANGES, overlapping, parseCidr, within } from "../contracts/ipRanges";
import type { InfraType } from "../contracts";
import type { Lookup } from "./lookup";
import type { MaraConfig, MetallbBgpPeer } from "./model";
import { configSetCommand } from "./problems";
import type { Findings } from "./resolve";

/** The MetalLB and NFS parts of the configuration, given MetalLB's chart settings and the provisioner's image. */
export function checkClusterAddOns(
    infraType: InfraType | undefined,
    { v, d, keyOf }: Lookup,
    given: { metallb: MaraConfig["metallb"]["chart"]; nfsImage: string },
    findings: Findings,
): Pick<MaraConfig, "metallb" | "nfs"> {
    // On a cloud, the keys are inert (as other clouds' keys are): its own load balancers and volumes serve the platform.
    const existing = infraType === undefined || infraType === "kubeconfig";
    const set = (["metallbAddresses", "metallbBgpPeers", "nfsServer", "nfsPath"] as const).filter((id) => v(id) !== undefined);
    if (!existing && set.length > 0) {
        findings.warn(`${set.map(keyOf).join(", ")} ${set.length === 1 ? "is" : "are"} ignored on ${infraType}: MetalLB and the NFS provisioner are installed only on an existing cluster (mara:infraType kubeconfig); ${infraType}'s own load balancers and volumes serve the platform.`);
    }
    const addresses = existing ? (v("metallbAddresses") ?? []) : [];
    const peers = existing ? (v("metallbBgpPeers") ?? []) : [];
    if (peers.length > 0 && addresses.length === 0) {
        findings.problem({
            key: keyOf("metallbBgpPeers"),
            value: peers.join(","),
            problem: "names BGP routers, but mara:metallbAddresses is not set, so there is nothing to announce and MetalLB is not installed",
            allowed: "routers together with mara:metallbAddresses",
            fix: `pulumi config set --path 'mara:metallbAddresses[0]' 192.168.1.240-192.168.1.250, or pulumi config rm ${keyOf("metallbBgpPeers")}`,
        });
    }
    checkPool(addresses, existing ? (v("metallbAllowedRanges") ?? []) : [], keyOf, findings);
    if (addresses.length > 0 && d("ingressServiceType") === "NodePort") {
        findings.warn(`${keyOf("metallbAddresses")} installs MetalLB, but ${keyOf("ingressServiceType")} is NodePort, so the ingress controller does not use it.`);
    }

    const server = existing ? v("nfsServer") : undefined;
    const path = existing ? v("nfsPath") : undefined;
    if (server !== undefined && path === undefined) {
        findings.problem({
            key: keyOf("nfsPath"),
            problem: `is not set, but ${keyOf("nfsServer")} (${server}) is: the provisioner needs the directory the server exports`,
            allowed: "the exported directory as an absolute path, such as /srv/nfs/mara",
            fix: configSetCommand(keyOf("nfsPath"), "/srv/nfs/mara"),
        });
    }
    if (path !== undefined && server === undefined) {
        findings.problem({
            key: keyOf("nfsServer"),
            problem: `is not set, but ${keyOf("nfsPath")} (${path}) is`,
            allowed: "the NFS server's host name or IPv4 address",
            fix: `${configSetCommand(keyOf("nfsServer"), "192.168.1.10")}, or pulumi config rm ${keyOf("nfsPath")}`,
        });
    }
    const storageClass = v("storageClass");
    if (server !== undefined && storageClass !== undefined && storageClass !== d("nfsStorageClass")) {
        findings.problem({
            key: keyOf("storageClass"),
            value: storageClass,
            problem: `names another StorageClass than the NFS provisioner's (${d("nfsStorageClass")}), which ${keyOf("nfsServer")} installs for the platform's volumes`,
            allowed: `unset (the NFS class is used), or ${d("nfsStorageClass")}`,
            fix: `pulumi config rm ${keyOf("storageClass")}, or pulumi config rm ${keyOf("nfsServer")} to use ${storageClass}`,
        });
    }

    return {
        metallb: { chart: given.metallb, addresses, bgpPeers: peers.map(parsePeer) },
        nfs: { image: given.nfsImage, ...(server !== undefined ? { server } : {}), path: path ?? "", storageClass: d("nfsStorageClass") },
    };
}

function parsePeer(text: string): MetallbBgpPeer {
    const [address, asn, myAsn] = text.split(":");
    return { address: address!, asn: Number(asn), myAsn: Number(myAsn) };
}

/** Every pool entry inside a range the user may announce, and no two entries sharing an address. */
function checkPool(addresses: readonly string[], allowed: readonly string[], keyOf: Lookup["keyOf"], findings: Findings): void {
    const ranges = [...LOAD_BALANCER_PRIVATE_RANGES, ...allowed].map((c) => parseCidr(c)!).filter(Boolean);
    const parsed = addresses.map((entry) => ({ entry, range: addressRanges([entry])[0] })).filter((e) => e.range);
    for (const { entry, range } of parsed) {
        if (ranges.some((r) => within(range!, r))) continue;
        findings.problem({
            key: keyOf("metallbAddresses"),
            value: entry,
            problem: "is not inside a private range or a range declared in mara:metallbAllowedRanges; MetalLB would answer for addresses that may belong to someone else",
            allowed: `addresses inside ${LOAD_BALANCER_PRIVATE_RANGES.join(", ")}${allowed.length ? `, ${allowed.join(", ")}` : ""}`,
            fix: `use free addresses of the nodes' private network, or declare your public range: pulumi config set --path 'mara:metallbAllowedRanges[0]' <cidr>`,
        });
    }
    for (let i = 0; i < parsed.length; i++) {
        for (let j = i + 1; j < parsed.length; j++) {
            if (!overlapping(parsed[i]!.range!, parsed[j]!.range!)) continue;
            findings.problem({
                key: keyOf("metallbAddresses"),
                value: `${parsed[i]!.entry}, ${parsed[j]!.entry}`,
                problem: "has entries that overlap; MetalLB refuses a pool whose ranges share addresses",
                allowed: "entries that share no address",
                fix: "merge the two entries into one range",
            });
        }
    }
}
