/**
 * The add-ons an existing cluster may ask the platform for: MetalLB, for LoadBalancer Services on clusters
 * without a load balancer implementation (bare metal, k3s without ServiceLB, kubeadm, kind, RKE2, MicroK8s),
 * and the NFS subdir external provisioner, for volumes on clusters without a StorageClass. Each is installed only
 * when its key is set (`mara:metallbAddresses`, `mara:nfsServer`), and each key's neighbours are checked together
 * here: MetalLB's pool must be addresses the user may announce (private, or declared in
 * `mara:metallbAllowedRanges`) and not overlap itself; its BGP routers must be ones MetalLB's FRR mode peers with
 * together (contracts/metalLb.ts); the NFS server needs its export path. A key set to nothing, or set without the key
 * that switches its add-on on, is named rather than quietly ignored. Each entry's form is its key's type
 * (valueTypes.ts: addressRange, bgpPeer; components/nfsStorage/keys.ts: nfsServer). Whether the pool overlaps the
 * cluster's own Service and Pod ranges can only be known from the live cluster: `mara doctor` checks that, and
 * `mara up` runs it first.
 */
import { addressRanges, LOAD_BALANCER_PRIVATE_RANGES, overlapping, parseCidr, within } from "../contracts/ipRanges";
import { metalLbPeerFindings, parseMetalLbPeer } from "../contracts/metalLb";
import type { InfraType } from "../contracts";
import type { Lookup } from "./lookup";
import type { MaraConfig, MetallbBgpPeer } from "./model";
import { NFS_SERVER_ALLOWED } from "../components/nfsStorage/keys";
import { configSetCommand } from "./problems";
import type { Findings } from "./resolve";

/** The keys of the two add-ons: all of them inert on a cloud, and each but the switch inert without its switch. */
const METALLB_KEYS = ["metallbAddresses", "metallbAllowedRanges", "metallbBgpPeers"] as const;
const NFS_KEYS = ["nfsServer", "nfsPath", "nfsStorageClass", "nfsProvisionerImage"] as const;

/** The MetalLB and NFS parts of the configuration, given MetalLB's chart settings and the provisioner's image. */
export function checkClusterAddOns(
    infraType: InfraType | undefined,
    { r, v, d, keyOf }: Lookup,
    given: { metallb: MaraConfig["metalLb"]["chart"]; nfs: MaraConfig["nfsStorage"]["chart"]; nfsImage: string },
    findings: Findings,
): Pick<MaraConfig, "metalLb" | "metallb" | "nfsStorage" | "nfs"> {
    // On a cloud, the keys are inert (as other clouds' keys are): its own load balancers and volumes serve the platform.
    const existing = infraType === undefined || infraType === "kubeconfig";
    const isSet = (id: (typeof METALLB_KEYS)[number] | (typeof NFS_KEYS)[number]) => r(id).source !== undefined;
    const set = [...METALLB_KEYS, ...NFS_KEYS].filter(isSet);
    if (!existing && set.length > 0) {
        findings.warn(`${set.map(keyOf).join(", ")} ${set.length === 1 ? "is" : "are"} ignored on ${infraType}: MetalLB and the NFS provisioner are installed only on an existing cluster (mara:infraType kubeconfig); ${infraType}'s own load balancers and volumes serve the platform.`);
    }
    const addresses = existing ? (v("metallbAddresses") ?? []) : [];
    const peers = existing ? (v("metallbBgpPeers") ?? []) : [];
    // Set but unparsable is its type's problem alone; "not set" below means not written at all.
    const poolUnset = !isSet("metallbAddresses");
    if (existing && isSet("metallbAddresses") && r("metallbAddresses").value?.length === 0) {
        // An empty list would quietly leave MetalLB out, and every LoadBalancer Service pending.
        findings.problem({
            key: keyOf("metallbAddresses"),
            value: r("metallbAddresses").raw ?? "",
            problem: "is set but empty, so MetalLB would not be installed and the ingress controller's LoadBalancer Service would wait for an address forever",
            allowed: "at least one IPv4 CIDR block or first-last range of free addresses on the nodes' network, or the key left unset (no MetalLB)",
            fix: `pulumi config set --path 'mara:metallbAddresses[0]' 192.168.1.240-192.168.1.250, or pulumi config rm ${keyOf("metallbAddresses")}`,
        });
    }
    if (existing && poolUnset) {
        const inert = (["metallbAllowedRanges", "metallbBgpPeers"] as const).filter(isSet).filter((id) => id !== "metallbBgpPeers" || peers.length === 0);
        if (inert.length > 0) findings.warn(`${inert.map(keyOf).join(", ")} ${inert.length === 1 ? "does" : "do"} nothing without ${keyOf("metallbAddresses")}: MetalLB is installed only with a pool.`);
    }
    if (existing && addresses.length > 0 && isSet("metallbBgpPeers") && peers.length === 0) {
        findings.warn(`${keyOf("metallbBgpPeers")} is set but empty: MetalLB announces the pool on layer 2 (ARP), as without the key.`);
    }
    if (peers.length > 0 && poolUnset) {
        findings.problem({
            key: keyOf("metallbBgpPeers"),
            value: peers.join(","),
            problem: "names BGP routers, but mara:metallbAddresses is not set, so there is nothing to announce and MetalLB is not installed",
            allowed: "routers together with mara:metallbAddresses",
            fix: `pulumi config set --path 'mara:metallbAddresses[0]' 192.168.1.240-192.168.1.250, or pulumi config rm ${keyOf("metallbBgpPeers")}`,
        });
    }
    checkPool(addresses, existing ? (v("metallbAllowedRanges") ?? []) : [], keyOf, findings);
    const bgpPeers = peers.map(parsePeer);
    for (const f of metalLbPeerFindings(bgpPeers, addresses)) {
        if (f.warning) findings.warn(`${keyOf("metallbBgpPeers")} = ${f.value}: ${f.problem}; ${f.fix}.`);
        else findings.problem({ key: keyOf("metallbBgpPeers"), value: f.value, problem: f.problem, allowed: f.allowed, fix: f.fix });
    }
    if (addresses.length > 0 && d("ingressServiceType") === "NodePort") {
        findings.warn(`${keyOf("metallbAddresses")} installs MetalLB, but ${keyOf("ingressServiceType")} is NodePort, so the ingress controller does not use it.`);
    }

    const server = existing ? v("nfsServer") : undefined;
    const path = existing ? v("nfsPath") : undefined;
    if (existing && !isSet("nfsServer") && !isSet("nfsPath")) {
        const inert = (["nfsStorageClass", "nfsProvisionerImage"] as const).filter(isSet);
        if (inert.length > 0) findings.warn(`${inert.map(keyOf).join(", ")} ${inert.length === 1 ? "does" : "do"} nothing without ${keyOf("nfsServer")}: the NFS provisioner is installed only for a server.`);
    }
    if (server !== undefined && !isSet("nfsPath")) {
        findings.problem({
            key: keyOf("nfsPath"),
            problem: `is not set, but ${keyOf("nfsServer")} (${server}) is: the provisioner needs the directory the server exports`,
            allowed: "the exported directory as an absolute path, such as /srv/nfs/mara",
            fix: configSetCommand(keyOf("nfsPath"), "/srv/nfs/mara"),
        });
    }
    if (path !== undefined && !isSet("nfsServer")) {
        findings.problem({
            key: keyOf("nfsServer"),
            problem: `is not set, but ${keyOf("nfsPath")} (${path}) is`,
            allowed: NFS_SERVER_ALLOWED,
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

    const nfsStorage = { chart: given.nfs, image: given.nfsImage, ...(server !== undefined ? { server } : {}), path: path ?? "", storageClass: d("nfsStorageClass") };
    const metalLb = { chart: given.metallb, addresses, bgpPeers };
    return {
        metalLb,
        // The section's name before the add-on had one name, kept for library users (MaraConfig.metallb).
        metallb: metalLb,
        nfsStorage,
        // The section's name before the add-on had one name, kept for library users (MaraConfig.nfs).
        nfs: nfsStorage,
    };
}

/** A router the key's type has already accepted (contracts/metalLb.ts, parseMetalLbPeer). */
function parsePeer(text: string): MetallbBgpPeer {
    const parsed = parseMetalLbPeer(text);
    if ("problem" in parsed) throw new Error(`a router the key's type accepted does not parse: ${parsed.problem}`);
    return { ...parsed.peer };
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
                // metallb/metallb internal/config/config.go, poolsFor: "CIDR ... overlaps with already defined CIDR".
                problem: "has entries that overlap; MetalLB refuses a pool whose ranges share addresses",
                allowed: "entries that share no address",
                fix: "merge the two entries into one range",
            });
        }
    }
}
