/**
 * MARA's sequential project order per provider (reference: MARA's runner, `providers/*.py`, and
 * `bin/start_kube.sh` for existing clusters) and which MARA project created what each registration of
 * this program creates. MARA ran each project to completion before starting the next.
 */
import type { BenchInfra } from "./stacks";

/** The runner's execution order per infrastructure type. */
export const MARA_ORDER: Readonly<Record<BenchInfra, readonly string[]>> = {
    aws: [
        "aws/vpc", "aws/eks", "aws/ecr", "kubeconfig", "secrets", "kic-image-build", "kic-image-push",
        "ingress-controller-namespace", "ingress-controller", "logstore", "logagent", "certmgr", "prometheus", "observability", "sirius",
    ],
    digitalocean: [
        "digitalocean/container-registry", "digitalocean/domk8s", "kubeconfig", "secrets", "kic-image-build", "kic-image-push",
        "ingress-controller-namespace", "digitalocean/container-registry-credentials", "ingress-controller", "digitalocean/dns-record",
        "logstore", "logagent", "certmgr", "prometheus", "observability", "sirius",
    ],
    linode: [
        "linode/lke", "kubeconfig", "secrets", "linode/harbor", "kic-image-build", "linode/harbor-configuration", "kic-image-push",
        "ingress-controller-namespace", "linode/container-registry-credentials", "ingress-controller",
        "logstore", "logagent", "certmgr", "prometheus", "observability", "sirius",
    ],
    // bin/start_kube.sh: no image projects, and the repo-only ingress project creates its own namespace.
    kubeconfig: ["kubeconfig", "secrets", "ingress-controller", "logstore", "logagent", "certmgr", "prometheus", "observability", "sirius"],
};

/** MARA projects that have no counterpart here (their time is not in the MARA figure, which is therefore a lower bound). */
export const MARA_ONLY: Readonly<Record<BenchInfra, readonly string[]>> = {
    aws: [],
    digitalocean: [],
    linode: ["linode/harbor (a Linode VM running Harbor)", "linode/harbor-configuration (waits for Harbor to boot)"],
    kubeconfig: [],
};

/** Project of the component types that map one-to-one. */
const BY_COMPONENT: Readonly<Record<string, string>> = {
    "mara:infra:Vpc": "aws/vpc",
    "mara:infra:Eks": "aws/eks",
    "mara:registry:Ecr": "aws/ecr",
    "mara:infra:Doks": "digitalocean/domk8s",
    "mara:infra:DnsRecord": "digitalocean/dns-record",
    "mara:infra:Lke": "linode/lke",
    "mara:infra:Kubeconfig": "kubeconfig",
    // Sits between the cluster and the Kubernetes provider; creating it does nothing (it acts at destroy).
    "mara:infra:ClusterDrain": "kubeconfig",
    "mara:platform:Secrets": "secrets",
    "mara:registry:IngressControllerImage": "kic-image-push",
    "mara:observability:Logstore": "logstore",
    "mara:observability:LogAgent": "logagent",
    "mara:addons:CertManager": "certmgr",
    "mara:observability:Prometheus": "prometheus",
    "mara:observability:Observability": "observability",
    "mara:app:Application": "sirius",
    // Applies mara:retainVolumes after the stateful components; MARA had no such step, so it counts with the last project.
    "mara:k8s:VolumeRetention": "sirius",
};

/** Explicit providers (no parent): the first MARA project that used one. */
const BY_PROVIDER: Readonly<Record<string, string>> = {
    "pulumi:providers:aws": "aws/vpc",
    "pulumi:providers:digitalocean": "digitalocean/container-registry",
    "pulumi:providers:linode": "linode/lke",
    "pulumi:providers:docker": "kic-image-build",
};

/** What the mapping needs to know about a registration and its ancestors. */
export interface Mappable {
    readonly urn: string;
    readonly type: string;
    readonly name: string;
    readonly parent: string;
}

/**
 * The MARA project that created what `r` creates; undefined for resources that belong to no project
 * (the Platform component, which only groups) and for registrations no rule covers yet, which
 * `unmapped` collects: they then run as soon as the projects of what they depend on have run, and the
 * report lists them so the table can be extended.
 */
export function maraProject(infra: BenchInfra, r: Mappable, byUrn: ReadonlyMap<string, Mappable>, unmapped?: Set<string>): string | undefined {
    if (r.type === "mara:platform:Platform") return undefined;
    // The platform's StorageClass prepares the cluster, as MARA's kubeconfig step did (MARA had none).
    if (r.type === "kubernetes:storage.k8s.io/v1:StorageClass") return "kubeconfig";
    if (BY_PROVIDER[r.type]) return BY_PROVIDER[r.type];
    // The nearest ancestor (or the resource itself) whose type decides the project.
    for (let cur: Mappable | undefined = r; cur; cur = cur.parent ? byUrn.get(cur.parent) : undefined) {
        if (cur.type === "mara:registry:Docr") {
            // DOCR's read-only pull credentials were MARA's container-registry-credentials project.
            return r.name.endsWith("-pull") ? "digitalocean/container-registry-credentials" : "digitalocean/container-registry";
        }
        if (cur.type === "mara:addons:IngressController") {
            if (infra === "kubeconfig") return "ingress-controller";
            if (r.name.endsWith("-ns")) return "ingress-controller-namespace";
            if (r.name.endsWith("-pull-secret")) {
                if (infra === "digitalocean") return "digitalocean/container-registry-credentials";
                if (infra === "linode") return "linode/container-registry-credentials";
            }
            return "ingress-controller";
        }
        const project = BY_COMPONENT[cur.type];
        if (project) return project;
        if (cur.type === "mara:platform:Platform" && cur !== r) break;
    }
    unmapped?.add(`${r.type} ${r.name}`);
    return undefined;
}
