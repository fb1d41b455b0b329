/**
 * What the platform will put on the cluster, as far as the doctor's checks need it: its namespaces, Helm releases,
 * IngressClass, storage, load balancer, and the CPU and memory its pods request. Built from the stack's validated
 * configuration, or from the defaults when the doctor is pointed at a kubeconfig alone.
 */
import { DEFAULTS } from "../../contracts/defaults";
import type { AdmissionMode, AdmissionScope } from "../../contracts/guardrails";
import type { MaraConfig } from "../../config";
import { siriusWorkloads } from "../../components/application/workloadSpecs";
import { ARGOCD_NAMESPACE, ARGOCD_RELEASE } from "../../components/argoCd/applications";
import { OPERATOR_NAMESPACE, OPERATOR_RELEASE } from "../../components/pulumiOperator/stack";
import { ACME_ISSUER, NFS_CLUSTER_ROLE, NFS_CLUSTER_ROLE_BINDING, NFS_RELEASE, PLATFORM_STORAGE_CLASS, SELF_SIGNED_ISSUER } from "../../components/clusterNames";
import { ObjectClaim } from "../../components/ownership/claims";
import { stackIdentity } from "../../components/ownership/marks";
import { remedyFor } from "../../components/ownership/remedies";
import { admissionPolicies } from "../../policy/admission";

/** One kind of pod the platform runs, with what each replica requests. */
export interface Consumer {
    readonly what: string;
    readonly pods: number;
    /** CPU per pod, in millicores. */
    readonly cpuMillis: number;
    /** Memory per pod, in MiB. */
    readonly memoryMi: number;
}

/** One Helm release of the platform: whose objects (CRDs, an IngressClass) are ours. */
export interface PlannedRelease {
    readonly release: string;
    readonly namespace: string;
}

/** The doctor's view of the stack. */
export interface DoctorPlan {
    /** The platform's namespaces, the application's last. */
    readonly namespaces: readonly string[];
    readonly applicationNamespace: string;
    readonly releases: readonly PlannedRelease[];
    readonly ingressClassName: string;
    readonly serviceType: "LoadBalancer" | "NodePort";
    /** `mara:storageClass`, when set. */
    readonly storageClass?: string;
    /** The NFS provisioner the platform installs, when configured. */
    readonly nfs?: { readonly server: string; readonly storageClass: string };
    /** MetalLB, when the platform installs it. */
    readonly metallb?: { readonly addresses: readonly string[] };
    /** `mara:containerLogPath`, when set. */
    readonly containerLogPath?: string;
    /**
     * True when Argo CD applies the platform from its render (`mara:delivery: gitops`): what Argo CD applied on the
     * cluster is then the platform's own, not another installation.
     */
    readonly argoCdDelivers?: boolean;
    /** Whether the platform installs ValidatingAdmissionPolicies (`mara:admissionPolicies`). */
    readonly admissionPolicies: boolean;
    /** Their mode, when it does. */
    readonly admissionMode?: AdmissionMode;
    /** Where they judge objects (`mara:admissionPolicyScope`), when the platform installs them. */
    readonly admissionScope?: AdmissionScope;
    /**
     * The namespaces and cluster-wide objects the platform creates under fixed names, as the program's ownership guard
     * claims them (components/ownership/): the doctor judges them by the same rule, so `mara doctor` and `pulumi up`
     * refuse the same objects. A test keeps this list equal to the guard's.
     */
    readonly owned: readonly ObjectClaim[];
    /** The stack's identity (`<project>/<stack>`), the mark its objects carry; undefined for a kubeconfig alone. */
    readonly identity?: string;
    readonly consumers: readonly Consumer[];
}

/** The namespace MetalLB runs in when the platform installs it. */
export const METALLB_NAMESPACE = DEFAULTS.metalLb.namespace;
/** The namespace of the NFS provisioner when the platform installs it. */
export const NFS_NAMESPACE = DEFAULTS.nfsStorage.namespace;

const mi = (q: string): number => {
    const m = /^(\d+(?:\.\d+)?)(Mi|Gi)$/.exec(q);
    if (!m) throw new Error(`unexpected memory quantity ${q}`);
    return Number(m[1]) * (m[2] === "Gi" ? 1024 : 1);
};
const millis = (q: string): number => (q.endsWith("m") ? Number(q.slice(0, -1)) : Number(q) * 1000);

/**
 * Elasticsearch's memory per node role (requests equal limits; components/logstore/component.ts sets them, and
 * test/unit/doctorPlan.test.ts keeps the two equal), 250m CPU each; Kibana 2Gi.
 */
export const LOGSTORE_MEMORY = { master: "1Gi", data: "2Gi", ingest: "1Gi", coordinating: "1Gi", kibana: "2Gi", cpu: "250m" } as const;
/** Requests the charts set by default for the pods that request anything (nginx-ingress, eck-operator). */
export const CHART_DEFAULT_REQUESTS = { ingressController: { cpu: "100m", memory: "128Mi" }, eckOperator: { cpu: "100m", memory: "150Mi" } } as const;

/** Whether the platform installs Argo CD in the cluster (`mara:delivery: gitops` with `mara:gitopsArgoCd: install`). */
const installsArgoCd = (cfg?: MaraConfig): boolean => cfg?.gitops.delivery === "gitops" && cfg.gitops.argoCd === "install";

/** The plan for a validated configuration, or for the defaults. */
export function doctorPlan(cfg?: MaraConfig): DoctorPlan {
    const replicas = cfg?.logstore.replicas ?? DEFAULTS.logstore.replicas;
    const appNs = cfg?.application.namespace ?? DEFAULTS.application.namespace;
    const es = (["master", "data", "ingest", "coordinating"] as const)
        .filter((role) => replicas[role] > 0)
        .map((role) => ({ what: `Elasticsearch ${role} node`, pods: replicas[role], cpuMillis: millis(LOGSTORE_MEMORY.cpu), memoryMi: mi(LOGSTORE_MEMORY[role]) }));
    const sirius = siriusWorkloads("statsd").map((w) => ({ what: `Bank of Sirius ${w.name}`, pods: 1, cpuMillis: millis(w.resources.cpu[0]), memoryMi: mi(w.resources.memory[0]) }));
    const consumers: Consumer[] = [
        ...es,
        { what: "Kibana", pods: 1, cpuMillis: millis(LOGSTORE_MEMORY.cpu), memoryMi: mi(LOGSTORE_MEMORY.kibana) },
        ...sirius,
        { what: "NGINX Ingress Controller", pods: cfg?.ingressController.replicas ?? DEFAULTS.ingressController.replicas, cpuMillis: millis(CHART_DEFAULT_REQUESTS.ingressController.cpu), memoryMi: mi(CHART_DEFAULT_REQUESTS.ingressController.memory) },
        { what: "ECK operator", pods: 1, cpuMillis: millis(CHART_DEFAULT_REQUESTS.eckOperator.cpu), memoryMi: mi(CHART_DEFAULT_REQUESTS.eckOperator.memory) },
    ];
    const namespaces: string[] = [
        DEFAULTS.ingressController.namespace,
        DEFAULTS.certManager.namespace,
        DEFAULTS.logstore.namespace,
        DEFAULTS.logAgent.namespace,
        DEFAULTS.prometheus.namespace,
        DEFAULTS.observability.namespace,
        ...(cfg?.metalLb.addresses.length ? [METALLB_NAMESPACE] : []),
        ...(cfg?.nfsStorage.server ? [NFS_NAMESPACE] : []),
        ...(installsArgoCd(cfg) ? [ARGOCD_NAMESPACE] : []),
        ...(cfg?.gitops.delivery === "operator" ? [OPERATOR_NAMESPACE] : []),
        appNs,
    ];
    return {
        namespaces,
        applicationNamespace: appNs,
        releases: [
            { release: "kic", namespace: DEFAULTS.ingressController.namespace },
            { release: "certmgr", namespace: DEFAULTS.certManager.namespace },
            { release: "eck-operator", namespace: DEFAULTS.logstore.namespace },
            { release: "fluent-bit", namespace: DEFAULTS.logAgent.namespace },
            { release: "prometheus", namespace: DEFAULTS.prometheus.namespace },
            { release: "statsd", namespace: DEFAULTS.prometheus.namespace },
            { release: "opentelemetry-operator", namespace: DEFAULTS.observability.namespace },
            ...(cfg?.metalLb.addresses.length ? [{ release: "metallb", namespace: METALLB_NAMESPACE }] : []),
            ...(installsArgoCd(cfg) ? [{ release: ARGOCD_RELEASE, namespace: ARGOCD_NAMESPACE }] : []),
            ...(cfg?.gitops.delivery === "operator" ? [{ release: OPERATOR_RELEASE, namespace: OPERATOR_NAMESPACE }] : []),
        ],
        ingressClassName: DEFAULTS.ingressController.ingressClassName,
        serviceType: cfg?.ingressController.serviceType ?? DEFAULTS.ingressController.serviceType,
        ...(cfg?.storageClass ? { storageClass: cfg.storageClass } : {}),
        ...(cfg?.nfsStorage.server ? { nfs: { server: cfg.nfsStorage.server, storageClass: cfg.nfsStorage.storageClass } } : {}),
        ...(cfg?.metalLb.addresses.length ? { metallb: { addresses: cfg.metalLb.addresses } } : {}),
        ...(cfg?.platformOverrides.containerLogPath ? { containerLogPath: cfg.platformOverrides.containerLogPath } : {}),
        ...(cfg?.gitops.delivery === "gitops" ? { argoCdDelivers: true } : {}),
        admissionPolicies: (cfg?.admissionPolicies.mode ?? "none") !== "none",
        ...(cfg && cfg.admissionPolicies.mode !== "none" ? { admissionMode: cfg.admissionPolicies.mode, admissionScope: cfg.admissionPolicies.scope } : {}),
        owned: ownedObjects(cfg, namespaces, appNs),
        ...(cfg ? { identity: stackIdentity(cfg.project, cfg.stack) } : {}),
        consumers,
    };
}

/** A claim as the program's guard derives it from a registration of `apiVersion` and `kind`. */
function claim(apiVersion: string, kind: string, resource: string, name: string, component?: string, origin: ObjectClaim["origin"] = "program"): ObjectClaim {
    const remedy = remedyFor(component, kind);
    return { apiVersion, kind, resource, name, origin, ...(remedy ? { remedy } : {}) };
}

/** What the platform creates under fixed names for this configuration (the defaults' when there is none). */
function ownedObjects(cfg: MaraConfig | undefined, namespaces: readonly string[], appNs: string): ObjectClaim[] {
    const out: ObjectClaim[] = namespaces.map((n) => claim("v1", "Namespace", "namespaces", n, n === appNs ? "mara:app:Application" : undefined));
    // The platform's own StorageClass, where the cloud names a provisioner and no other class is asked for.
    if (cfg && cfg.infra.type !== "kubeconfig" && !cfg.storageClass && !cfg.nfsStorage.server) out.push(claim("storage.k8s.io/v1", "StorageClass", "storageclasses", PLATFORM_STORAGE_CLASS));
    if (cfg?.nfsStorage.server) {
        const release = { release: { name: NFS_RELEASE, namespace: NFS_NAMESPACE } };
        out.push({ ...claim("rbac.authorization.k8s.io/v1", "ClusterRole", "clusterroles", NFS_CLUSTER_ROLE, "mara:addons:NfsStorage", "chart"), ...release });
        out.push({ ...claim("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", "clusterrolebindings", NFS_CLUSTER_ROLE_BINDING, "mara:addons:NfsStorage", "chart"), ...release });
        out.push(claim("storage.k8s.io/v1", "StorageClass", "storageclasses", cfg.nfsStorage.storageClass, "mara:addons:NfsStorage"));
    }
    out.push({ ...claim("networking.k8s.io/v1", "IngressClass", "ingressclasses", DEFAULTS.ingressController.ingressClassName, undefined, "chart"), release: { name: "kic", namespace: DEFAULTS.ingressController.namespace } });
    out.push(claim("cert-manager.io/v1", "ClusterIssuer", "clusterissuers", SELF_SIGNED_ISSUER));
    if (cfg?.certManager.acmeEmail) out.push(claim("cert-manager.io/v1", "ClusterIssuer", "clusterissuers", ACME_ISSUER));
    const mode = cfg?.admissionPolicies.mode ?? "none";
    if (mode !== "none") {
        for (const o of admissionPolicies({ mode })) {
            out.push(claim(o.apiVersion ?? "admissionregistration.k8s.io/v1", o.kind!, o.kind === "ValidatingAdmissionPolicy" ? "validatingadmissionpolicies" : "validatingadmissionpolicybindings", o.metadata!.name!, "mara:k8s:AdmissionPolicies"));
        }
    }
    return out;
}
