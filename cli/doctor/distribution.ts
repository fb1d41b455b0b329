/**
 * Which Kubernetes distribution the cluster is, and what follows for the platform: where Fluent Bit finds the
 * container logs, which StorageClass the platform's volumes get, and whether the ingress controller's
 * LoadBalancer Service will get an address. Each is read from the live cluster (its version string, its nodes'
 * labels, provider IDs and runtimes, its StorageClasses and Services), not assumed from the name.
 */
import type { Finding } from "./findings";
import type { KubeClient } from "./kubeClient";
import { DoctorPlan, METALLB_NAMESPACE } from "./plan";
import type { ServerVersion } from "./access";
import { addressRanges, ipv4Number, overlapping, parseCidr } from "../../contracts/ipRanges";
import { isIpv4 } from "../../contracts/names";

/** The pool the platform's MetalLb creates (components/metalLb/component.ts; not imported, to keep the Pulumi SDK out of the doctor). */
export const METALLB_POOL_NAME = "mara";

/** The distributions the doctor recognises. */
export type Distribution = "EKS" | "DOKS" | "LKE" | "k3s" | "RKE2" | "MicroK8s" | "kind" | "kubeadm" | "unknown";

/** The distributions whose clusters give LoadBalancer Services an address without anything installed. */
const BUILT_IN_LOAD_BALANCER: readonly Distribution[] = ["EKS", "DOKS", "LKE", "k3s"];
/** The distributions known to have none out of the box. */
const NO_LOAD_BALANCER: readonly Distribution[] = ["kind", "kubeadm", "RKE2", "MicroK8s"];

/** The parts of a Node the checks read. */
export interface NodeInfo {
    metadata: { name: string; labels?: Record<string, string> };
    spec?: { providerID?: string; unschedulable?: boolean; podCIDR?: string; podCIDRs?: string[]; taints?: { key: string; effect: string }[] };
    status?: {
        allocatable?: Record<string, string>;
        nodeInfo?: { containerRuntimeVersion?: string; kubeletVersion?: string; osImage?: string };
        addresses?: { type?: string; address?: string }[];
    };
}

/** The distribution and what gave it away. */
export function detectDistribution(version: ServerVersion, nodes: readonly NodeInfo[], hasKubeadmConfig: boolean): { name: Distribution; evidence: string } {
    const v = version.gitVersion;
    const labels = (key: string) => nodes.some((n) => n.metadata.labels?.[key] !== undefined);
    const provider = (prefix: string) => nodes.some((n) => n.spec?.providerID?.startsWith(prefix));
    if (/-eks-/.test(v) || labels("eks.amazonaws.com/nodegroup") || provider("aws://")) return { name: "EKS", evidence: /-eks-/.test(v) ? `server version ${v}` : "node labels and provider IDs" };
    if (labels("doks.digitalocean.com/node-id") || provider("digitalocean://")) return { name: "DOKS", evidence: "node labels and provider IDs (digitalocean://)" };
    if (labels("lke.linode.com/pool-id") || provider("linode://")) return { name: "LKE", evidence: "node labels and provider IDs (linode://)" };
    if (/\+rke2/.test(v)) return { name: "RKE2", evidence: `server version ${v}` };
    if (/\+k3s/.test(v)) return { name: "k3s", evidence: `server version ${v}` };
    if (labels("microk8s.io/cluster")) return { name: "MicroK8s", evidence: "node label microk8s.io/cluster" };
    if (provider("kind://")) return { name: "kind", evidence: "node provider IDs (kind://)" };
    if (hasKubeadmConfig) return { name: "kubeadm", evidence: "ConfigMap kube-system/kubeadm-config" };
    return { name: "unknown", evidence: "no known marks in the server version, node labels or provider IDs" };
}

const f = (id: string, title: string, verdict: Finding["verdict"], detail: string, fix?: string): Finding => ({ id, group: "distribution", title, verdict, detail, ...(fix ? { fix } : {}) });

/** Runs the distribution checks. */
export async function checkDistribution(client: KubeClient, version: ServerVersion, plan: DoctorPlan): Promise<{ findings: Finding[]; distribution: Distribution; nodes: NodeInfo[] }> {
    const [nodeList, kubeadm, classes, services, serviceCidrs, pools] = await Promise.all([
        client.get<{ items: NodeInfo[] }>("/api/v1/nodes"),
        client.find("/api/v1/namespaces/kube-system/configmaps/kubeadm-config").catch(() => undefined),
        client.get<{ items: StorageClassInfo[] }>("/apis/storage.k8s.io/v1/storageclasses"),
        client.get<{ items: ServiceInfo[] }>("/api/v1/services"),
        client.find<{ items: { spec?: { cidrs?: string[] } }[] }>("/apis/networking.k8s.io/v1/servicecidrs").catch(() => undefined),
        client.find<{ items: { metadata: { namespace?: string; name: string }; spec?: { addresses?: string[] } }[] }>("/apis/metallb.io/v1beta1/ipaddresspools").catch(() => undefined),
    ]);
    const nodes = nodeList.items;
    const dist = detectDistribution(version, nodes, kubeadm !== undefined);
    const findings: Finding[] = [
        f(
            "distribution",
            "Distribution",
            dist.name === "unknown" ? "warn" : "pass",
            `${dist.name === "unknown" ? "not recognised" : dist.name} (${dist.evidence}); ${nodes.length} node${nodes.length === 1 ? "" : "s"}`,
            dist.name === "unknown" ? "nothing to do if the checks below pass; the platform assumes a CRI runtime (containerd or CRI-O) and the kubelet's log layout" : undefined,
        ),
        logPathFinding(nodes, plan),
        storageFinding(classes.items, plan),
        loadBalancerFinding(dist.name, services.items, pools?.items ?? [], plan),
    ];
    if (plan.metallb) {
        const apiServers = await apiServerAddresses(client);
        findings.push(addressOverlapFinding(plan.metallb.addresses, serviceCidrs?.items.flatMap((c) => c.spec?.cidrs ?? []) ?? [], services.items, nodes, apiServers));
    }
    return { findings, distribution: dist.name, nodes };
}

/** Fluent Bit, the platform's log shipper, reads the kubelet's CRI log layout; Docker Engine nodes (cri-dockerd) write elsewhere. */
function logPathFinding(nodes: readonly NodeInfo[], plan: DoctorPlan): Finding {
    const title = "Container logs where Fluent Bit reads them";
    const runtimes = [...new Set(nodes.map((n) => (n.status?.nodeInfo?.containerRuntimeVersion ?? "unknown").split("://")[0]!))].sort();
    const path = plan.containerLogPath ?? "/var/log/containers";
    const docker = runtimes.filter((r) => r === "docker");
    if (docker.length > 0) {
        return f(
            "container-logs",
            title,
            "warn",
            `nodes run Docker Engine (cri-dockerd): their container logs are Docker's JSON files under /var/lib/docker/containers, which Fluent Bit does not parse as configured for an existing cluster (CRI format)`,
            "run the nodes on containerd or CRI-O (k3s, RKE2, MicroK8s, kind and kubeadm's default); the rest of the platform works, but Kibana will show no container logs",
        );
    }
    if (path !== "/var/log/containers") {
        return f(
            "container-logs",
            title,
            "warn",
            `mara:containerLogPath is ${path}, but the nodes run ${runtimes.join(", ")}, whose kubelet links every container's log into /var/log/containers`,
            "remove the override unless your nodes really keep the links there: pulumi config rm mara:containerLogPath",
        );
    }
    return f("container-logs", title, "pass", `runtime ${runtimes.join(", ")}: Fluent Bit tails /var/log/containers, which links into /var/log/pods`);
}

/** The parts of a StorageClass the checks read. */
export interface StorageClassInfo {
    metadata: { name: string; annotations?: Record<string, string> };
    provisioner: string;
}

const DEFAULT_CLASS = "storageclass.kubernetes.io/is-default-class";

function storageFinding(classes: readonly StorageClassInfo[], plan: DoctorPlan): Finding {
    const title = "StorageClass for the platform's volumes";
    const names = classes.map((c) => c.metadata.name);
    if (plan.nfs) return f("storage", title, "pass", `the platform installs the NFS provisioner and its StorageClass ${plan.nfs.storageClass} (server ${plan.nfs.server})`);
    if (plan.storageClass) {
        const c = classes.find((x) => x.metadata.name === plan.storageClass);
        return c
            ? f("storage", title, "pass", `mara:storageClass ${plan.storageClass} exists (provisioner ${c.provisioner})`)
            : f(
                  "storage",
                  title,
                  "fail",
                  `mara:storageClass is ${plan.storageClass}, which the cluster does not have (it has: ${names.join(", ") || "none"}); the platform's claims would stay Pending`,
                  names.length ? `pulumi config set mara:storageClass ${names[0]} (or another of its classes)` : "install a provisioner, or let the platform install one: pulumi config set mara:nfsServer <server>; pulumi config set mara:nfsPath <export>",
              );
    }
    const defaults = classes.filter((c) => c.metadata.annotations?.[DEFAULT_CLASS] === "true");
    if (defaults.length === 1) return f("storage", title, "pass", `the cluster's default StorageClass ${defaults[0]!.metadata.name} (provisioner ${defaults[0]!.provisioner})`);
    if (defaults.length > 1) {
        return f("storage", title, "warn", `${defaults.length} StorageClasses are marked default (${defaults.map((c) => c.metadata.name).join(", ")}); Kubernetes then uses the newest`, `name one: pulumi config set mara:storageClass ${defaults[0]!.metadata.name}`);
    }
    return f(
        "storage",
        title,
        "fail",
        `no default StorageClass${names.length ? ` (the cluster has ${names.join(", ")}, none marked default)` : " and no StorageClass at all"}: Elasticsearch, Prometheus, Grafana and the databases would wait for volumes forever`,
        names.length
            ? `pulumi config set mara:storageClass ${names[0]}`
            : "let the platform install the NFS provisioner (pulumi config set mara:nfsServer <server>; pulumi config set mara:nfsPath <export>), or install a provisioner and mark its class default",
    );
}

/** The parts of a Service the checks read. */
export interface ServiceInfo {
    metadata: { namespace: string; name: string };
    spec?: { type?: string; clusterIP?: string; loadBalancerClass?: string };
    status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } };
}

/** An IPAddressPool, as the checks read it. */
interface PoolInfo {
    metadata?: { namespace?: string; name?: string };
    spec?: { addresses?: string[] };
}

function loadBalancerFinding(dist: Distribution, services: readonly ServiceInfo[], pools: readonly PoolInfo[], plan: DoctorPlan): Finding {
    const title = "LoadBalancer Services get an address";
    if (plan.serviceType === "NodePort") return f("load-balancer", title, "pass", "not needed: mara:ingressServiceType is NodePort");
    if (plan.metallb) {
        // The platform's own pool (a stack deployed before) is no second MetalLB.
        const others = pools.filter((p) => !(p.metadata?.namespace === METALLB_NAMESPACE && p.metadata.name === METALLB_POOL_NAME));
        return others.length > 0
            ? f("load-balancer", title, "warn", `MetalLB already has ${others.length} IPAddressPool${others.length === 1 ? "" : "s"} here, and the platform would install MetalLB again`, "use the MetalLB that is installed: pulumi config rm mara:metallbAddresses")
            : f("load-balancer", title, "pass", `the platform installs MetalLB with the pool ${plan.metallb.addresses.join(", ")}`);
    }
    const lbs = services.filter((s) => s.spec?.type === "LoadBalancer" && !s.spec.loadBalancerClass);
    const served = lbs.filter((s) => (s.status?.loadBalancer?.ingress ?? []).length > 0);
    const pending = lbs.filter((s) => !(s.status?.loadBalancer?.ingress ?? []).length);
    const fix = "let the platform install MetalLB with free addresses of your network (pulumi config set --path 'mara:metallbAddresses[0]' 192.168.1.240-192.168.1.250), or use node ports: pulumi config set mara:ingressServiceType NodePort";
    if (served.length > 0) return f("load-balancer", title, "pass", `${served.length} LoadBalancer Service${served.length === 1 ? " has" : "s have"} an address (e.g. ${served[0]!.metadata.namespace}/${served[0]!.metadata.name})`);
    if (pools.length > 0) return f("load-balancer", title, "pass", `MetalLB is installed with ${pools.length} IPAddressPool${pools.length === 1 ? "" : "s"}`);
    if (pending.length > 0) {
        return f("load-balancer", title, "fail", `${pending.length} LoadBalancer Service${pending.length === 1 ? " waits" : "s wait"} for an address (e.g. ${pending[0]!.metadata.namespace}/${pending[0]!.metadata.name}): nothing in the cluster hands them out`, fix);
    }
    if (BUILT_IN_LOAD_BALANCER.includes(dist)) return f("load-balancer", title, "pass", `${dist} provides load balancers${dist === "k3s" ? " (ServiceLB, unless started with --disable servicelb)" : ""}`);
    if (NO_LOAD_BALANCER.includes(dist)) return f("load-balancer", title, "fail", `${dist} has no load balancer implementation of its own, and none is installed: the ingress Service would stay Pending and \`pulumi up\` time out`, fix);
    return f("load-balancer", title, "warn", "no LoadBalancer Service here has an address yet, so it is unknown whether the cluster hands them out", fix);
}

/** An address of the cluster's own that a pool must not hold, and what it is. */
interface OwnAddress {
    readonly address: string;
    readonly what: string;
}

/**
 * The API server's IPv4 addresses: the kubeconfig's server when it is written as an address, and the addresses the
 * API servers publish as the endpoints of the `kubernetes` Service (their advertise addresses). A server written as a
 * host name is not looked up: its address is whatever the network's DNS says, which may differ from the nodes' view.
 */
async function apiServerAddresses(client: KubeClient): Promise<OwnAddress[]> {
    const out: OwnAddress[] = [];
    let host = "";
    try {
        host = new URL(client.server).hostname;
    } catch {
        // Not a URL: the access check has said so.
    }
    if (isIpv4(host)) out.push({ address: host, what: `the API server's address ${host} (the kubeconfig's server)` });
    const slices = await client
        .find<{ items: { endpoints?: { addresses?: string[] }[] }[] }>("/apis/discovery.k8s.io/v1/namespaces/default/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dkubernetes")
        .catch(() => undefined);
    for (const slice of slices?.items ?? []) {
        for (const endpoint of Array.isArray(slice.endpoints) ? slice.endpoints : []) {
            for (const address of Array.isArray(endpoint.addresses) ? endpoint.addresses : []) {
                if (typeof address === "string" && isIpv4(address) && !out.some((o) => o.address === address)) out.push({ address, what: `the API server's address ${address} (an endpoint of the kubernetes Service)` });
            }
        }
    }
    return out;
}

/** The nodes' own IPv4 addresses (InternalIP, ExternalIP), named by node. */
function nodeAddresses(nodes: readonly NodeInfo[]): OwnAddress[] {
    return nodes.flatMap((n) =>
        (Array.isArray(n.status?.addresses) ? n.status.addresses : [])
            .filter((a) => (a.type === "InternalIP" || a.type === "ExternalIP") && typeof a.address === "string" && isIpv4(a.address))
            .map((a) => ({ address: a.address!, what: `node ${n.metadata.name}'s ${a.type} ${a.address}` })),
    );
}

/**
 * MetalLB's addresses must not be the cluster's own: Service ClusterIPs, Pod IPs, a node's own address, the API
 * server's. MetalLB hands every address of its pool to a LoadBalancer Service and, in layer 2 mode, its speaker
 * answers ARP for it and announces it with gratuitous ARP (metallb/metallb, internal/layer2/arp.go: processRequest,
 * Gratuitous), so a node's address in the pool would be taken over by whichever node announces the Service, cutting
 * the node (or the API server) off; MetalLB's own validation does not check this (its pools are only checked against
 * each other), and its operator's documentation asks for addresses "not in use by other network devices"
 * (openshift/openshift-docs, modules/nw-metallb-addresspool-cr.adoc).
 */
function addressOverlapFinding(addresses: readonly string[], serviceCidrs: readonly string[], services: readonly ServiceInfo[], nodes: readonly NodeInfo[], apiServers: readonly OwnAddress[]): Finding {
    const title = "MetalLB addresses outside the cluster's own ranges and addresses";
    const podCidrs = [...new Set(nodes.flatMap((n) => n.spec?.podCIDRs ?? (n.spec?.podCIDR ? [n.spec.podCIDR] : [])))];
    // Without the ServiceCIDR API (before 1.33), the `kubernetes` Service's address is at least inside the range.
    const kubernetesIp = services.find((s) => s.metadata.namespace === "default" && s.metadata.name === "kubernetes")?.spec?.clusterIP;
    const known = [...serviceCidrs.map((c) => ({ what: `the Service range ${c}`, cidr: c })), ...podCidrs.map((c) => ({ what: `the Pod range ${c}`, cidr: c }))].filter((k) => parseCidr(k.cidr));
    if (!serviceCidrs.length && kubernetesIp) known.push({ what: `the kubernetes Service's address ${kubernetesIp}`, cidr: `${kubernetesIp}/32` });
    const mine = addressRanges(addresses);
    const clashes = known.filter((k) => mine.some((r) => overlapping(r, parseCidr(k.cidr)!)));
    const own = [...nodeAddresses(nodes), ...apiServers];
    const held = own.filter((o) => mine.some((r) => r.first <= ipv4Number(o.address) && ipv4Number(o.address) <= r.last));
    const pool = `mara:metallbAddresses (${addresses.join(", ")})`;
    if (clashes.length > 0 || held.length > 0) {
        const parts = [...(clashes.length ? [`overlaps ${clashes.map((c) => c.what).join(" and ")}`] : []), ...(held.length ? [`holds ${held.map((h) => h.what).join(" and ")}`] : [])];
        const fixes = [
            ...(held.length ? [`take ${held.length === 1 ? "that address" : "those addresses"} out of the pool: MetalLB would give ${held.length === 1 ? "it" : "them"} to a LoadBalancer Service and answer ARP for ${held.length === 1 ? "it" : "them"}, cutting off ${held.some((h) => h.what.startsWith("node")) ? "the node" : "the API server"}`] : []),
            "choose free addresses of the nodes' own network, outside the cluster's Service and Pod ranges and not used by any node: pulumi config set --path 'mara:metallbAddresses[0]' <first>-<last>",
        ];
        return { ...f("metallb-addresses", title, "fail", `${pool} ${parts.join("; it ")}`, fixes.join("; ")), ...(held.length + clashes.length > 1 ? { items: [...clashes.map((c) => c.what), ...held.map((h) => h.what)] } : {}) };
    }
    const ranges = known.length ? `no overlap with ${known.map((k) => k.what).join(", ")}` : "the cluster publishes neither its Service nor its Pod range; nothing to compare with";
    const nodeCount = own.length - apiServers.length;
    const nodesPart = `no node address (${nodeCount} checked)`;
    const apiPart = `the API server's address${apiServers.length === 1 ? "" : "es"}`;
    const addressesChecked =
        nodeCount && apiServers.length
            ? `; it holds ${nodesPart} and not ${apiPart}`
            : nodeCount
              ? `; it holds ${nodesPart}`
              : apiServers.length
                ? `; it does not hold ${apiPart} (the nodes publish none)`
                : "; neither the nodes nor the API server publish an address to compare with";
    return f("metallb-addresses", title, "pass", `${ranges}${addressesChecked}`);
}
