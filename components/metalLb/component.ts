import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { CHARTS, ChartSettings, DEFAULTS, kubernetesNameProblem } from "../../contracts";
import { metalLbAddressProblem, metalLbPeerFindings, parseMetalLbPeer } from "../../contracts/metalLb";
import { helmRelease, platformNamespace } from "../helmRelease";
import { guardedOptions } from "../ownership/guard";

/** A BGP router MetalLB announces the pool to. */
export interface MetalLbBgpPeerArgs {
    /** The router's IPv4 address. Required. */
    address: string;
    /** The router's autonomous system number. Required. */
    asn: number;
    /** The cluster's own autonomous system number. Required. */
    myAsn: number;
}

/** Arguments of {@link MetalLb}. */
export interface MetalLbArgs {
    /**
     * The pool LoadBalancer Services get addresses from: IPv4 CIDR blocks (`192.168.1.240/28`, `/32` for one address)
     * or first-last ranges (`192.168.1.240-192.168.1.250`), free addresses of the nodes' network; addresses ending in
     * .0 or .255 are never handed out. Required, at least one.
     */
    addresses: string[];
    /**
     * Routers to announce the pool to over BGP, each at its own address, all with the same cluster AS number, none
     * inside the pool. Default: none, and the pool is announced on layer 2 (ARP).
     */
    bgpPeers?: MetalLbBgpPeerArgs[];
    /** Chart coordinates. Default: the catalogue's metallb entry. */
    chart?: ChartSettings;
    /** Namespace for MetalLB (a DNS label, at most 63 characters). Default `metallb-system`. */
    namespace?: string;
}

/** Name of the pool (and of its advertisement). */
export const METALLB_POOL = "mara";

/**
 * MetalLB for a cluster without a load balancer implementation (bare metal, k3s without ServiceLB, kubeadm, kind,
 * RKE2, MicroK8s): the chart with its CRDs, an `IPAddressPool` of the given addresses, and an `L2Advertisement` for
 * it, or, with BGP peers, a `BGPPeer` per router and a `BGPAdvertisement`. The pool and its advertisement are
 * created after the release is ready (its controller serves the webhook that validates them); a component that
 * creates a LoadBalancer Service should depend on this one, so the Service gets its address from the pool at once.
 * Uninstalling the release removes MetalLB's CRDs: install it only where no other MetalLB runs (`mara doctor`
 * checks).
 */
export class MetalLb extends pulumi.ComponentResource {
    /** Namespace MetalLB runs in. */
    public readonly namespace: pulumi.Output<string>;
    /** Name of the IPAddressPool. */
    public readonly poolName: pulumi.Output<string>;
    /** The pool's addresses, as given. */
    public readonly addresses: pulumi.Output<string[]>;
    /** Status of the Helm release. */
    public readonly status: pulumi.Output<string>;

    constructor(name: string, args: MetalLbArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:addons:MetalLb", name, {}, guardedOptions(name, opts));
        checkArgs(args);
        const namespace = args.namespace ?? DEFAULTS.metalLb.namespace;
        // The speaker needs the host network and raw sockets (ARP, BGP): the namespace must allow privileged pods
        // where Pod Security admission enforces a baseline by default (RKE2's CIS profile). docs/policy.md.
        const ns = platformNamespace(`${name}-ns`, namespace, "privileged", {}, { parent: this, dependsOn: opts?.dependsOn });
        const release = helmRelease(`${name}-release`, { release: "metallb", namespace: ns.metadata.name, chart: args.chart ?? CHARTS.metallb, values: metalLbValues((args.bgpPeers ?? []).length > 0) }, { parent: this });
        const after = { parent: this, dependsOn: [release] };
        const meta = (n: string) => ({ name: n, namespace: ns.metadata.name });
        const pool = new k8s.apiextensions.CustomResource(
            `${name}-pool`,
            // avoidBuggyIPs: never hand out an address ending in .0 or .255. A pool written as a /24 (or a range across
            // one) would otherwise give a Service the network or broadcast address of the nodes' /24, which hosts and
            // routers on that network do not answer as a host; elsewhere the two addresses per 256 are a small price.
            { apiVersion: "metallb.io/v1beta1", kind: "IPAddressPool", metadata: meta(METALLB_POOL), spec: { addresses: [...args.addresses], avoidBuggyIPs: true } },
            after,
        );
        const peers = args.bgpPeers ?? [];
        if (peers.length === 0) {
            new k8s.apiextensions.CustomResource(`${name}-l2`, { apiVersion: "metallb.io/v1beta1", kind: "L2Advertisement", metadata: meta(METALLB_POOL), spec: { ipAddressPools: [METALLB_POOL] } }, { ...after, dependsOn: [release, pool] });
        } else {
            peers.forEach((p, i) => {
                new k8s.apiextensions.CustomResource(
                    `${name}-bgp-peer-${i}`,
                    { apiVersion: "metallb.io/v1beta2", kind: "BGPPeer", metadata: meta(`${METALLB_POOL}-${i}`), spec: { peerAddress: p.address, peerASN: p.asn, myASN: p.myAsn } },
                    after,
                );
            });
            new k8s.apiextensions.CustomResource(`${name}-bgp`, { apiVersion: "metallb.io/v1beta1", kind: "BGPAdvertisement", metadata: meta(METALLB_POOL), spec: { ipAddressPools: [METALLB_POOL] } }, { ...after, dependsOn: [release, pool] });
        }
        this.namespace = ns.metadata.name;
        this.poolName = pool.metadata.name;
        this.addresses = pulumi.output([...args.addresses]);
        this.status = release.status.status;
        this.registerOutputs({ namespace: this.namespace, poolName: this.poolName, addresses: this.addresses, status: this.status });
    }
}

/**
 * Chart values: the chart's CRDs (its default), and its frr-k8s backend only when there are BGP peers. Layer 2
 * announcements need no routing daemon, so a cluster without peers runs the speaker alone, without frr-k8s's
 * DaemonSet, webhook and CRDs.
 */
export function metalLbValues(bgp: boolean): Record<string, unknown> {
    return { frrk8s: { enabled: bgp } };
}

/** Refuses what MetalLB would refuse, or what cannot work, in a library user's arguments (contracts/metalLb.ts). */
function checkArgs(args: MetalLbArgs): void {
    if (!args.addresses?.length) throw new Error("MetalLb: addresses must name at least one CIDR block or first-last range; got none.");
    for (const entry of args.addresses) {
        const problem = metalLbAddressProblem(entry);
        if (problem) throw new Error(`MetalLb: address "${entry}" ${problem}.`);
    }
    const peers = (args.bgpPeers ?? []).map((p) => {
        const parsed = parseMetalLbPeer(`${p.address}:${p.asn}:${p.myAsn}`);
        if ("problem" in parsed) throw new Error(`MetalLb: BGP peer ${JSON.stringify(p)} ${parsed.problem}.`);
        return parsed.peer;
    });
    const refused = metalLbPeerFindings(peers, args.addresses).find((f) => !f.warning);
    if (refused) throw new Error(`MetalLb: BGP peers ${refused.value} ${refused.problem}.`);
    const nsProblem = args.namespace === undefined ? undefined : kubernetesNameProblem(args.namespace, "label");
    if (nsProblem) throw new Error(`MetalLb: namespace "${args.namespace}" ${nsProblem} (a namespace name is a DNS label: lower-case letters, digits and '-', at most 63 characters).`);
}
