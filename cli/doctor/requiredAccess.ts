/**
 * Every kind of object the program and its Helm releases create, where, and what is done with it: the doctor asks
 * the API server about each (a SelfSubjectAccessReview per verb). Written from what the program registers and
 * what the pinned charts render for an existing cluster (`mara render` lists the same objects); the render tier
 * (test/render/requiredAccess.test.ts) fails when a rendered kind is missing here.
 */
import type { DoctorPlan } from "./plan";
import { METALLB_NAMESPACE, NFS_NAMESPACE } from "./plan";
import { DEFAULTS } from "../../contracts/defaults";

/** One resource to ask about. */
export interface AccessRule {
    /** API group; "" for the core group. */
    readonly group: string;
    /** Resource name (plural, lower case). */
    readonly resource: string;
    readonly verbs: readonly string[];
}

/** Created, read, updated and deleted: what Helm and Pulumi do with everything they own. */
const OWN = ["get", "create", "patch", "delete"] as const;
const r = (group: string, resource: string, verbs: readonly string[] = OWN): AccessRule => ({ group, resource, verbs });

/** Cluster-scoped objects. */
export const CLUSTER_RULES: readonly AccessRule[] = [
    r("", "namespaces"),
    // Applied and never deleted (components/chartCrds.ts).
    r("apiextensions.k8s.io", "customresourcedefinitions", ["get", "create", "patch"]),
    r("rbac.authorization.k8s.io", "clusterroles"),
    r("rbac.authorization.k8s.io", "clusterrolebindings"),
    r("admissionregistration.k8s.io", "mutatingwebhookconfigurations"),
    r("admissionregistration.k8s.io", "validatingwebhookconfigurations"),
    r("networking.k8s.io", "ingressclasses"),
    r("cert-manager.io", "clusterissuers"),
    // The volume retention step and the destroy drain read the volumes and set their reclaim policy.
    r("", "persistentvolumes", ["get", "list", "patch"]),
];

/** Helm keeps each release's record in Secrets of its namespace, and lists them. */
const RELEASE_RECORDS = r("", "secrets", ["get", "list", "create", "patch", "delete"]);
const BASICS = [RELEASE_RECORDS, r("", "configmaps"), r("", "services"), r("", "serviceaccounts"), r("rbac.authorization.k8s.io", "roles"), r("rbac.authorization.k8s.io", "rolebindings")];

/** Namespaced objects per namespace of the platform (the application's namespace is the stack's). */
export function namespacedRules(plan: DoctorPlan): { namespace: string; rules: readonly AccessRule[] }[] {
    const ns = DEFAULTS;
    const out = [
        { namespace: ns.ingressController.namespace, rules: [...BASICS, r("apps", "deployments"), r("coordination.k8s.io", "leases")] },
        { namespace: ns.certManager.namespace, rules: [...BASICS, r("apps", "deployments"), r("batch", "jobs")] },
        {
            namespace: ns.logstore.namespace,
            rules: [...BASICS, r("apps", "statefulsets"), r("batch", "jobs"), r("", "persistentvolumeclaims", ["get", "list", "patch"]), r("elasticsearch.k8s.elastic.co", "elasticsearches"), r("kibana.k8s.elastic.co", "kibanas")],
        },
        { namespace: ns.logAgent.namespace, rules: [...BASICS, r("apps", "daemonsets")] },
        {
            namespace: ns.prometheus.namespace,
            rules: [
                ...BASICS,
                r("apps", "deployments"),
                r("apps", "daemonsets"),
                r("batch", "jobs"),
                r("", "persistentvolumeclaims"),
                r("monitoring.coreos.com", "prometheuses"),
                r("monitoring.coreos.com", "alertmanagers"),
                r("monitoring.coreos.com", "prometheusrules"),
                r("monitoring.coreos.com", "servicemonitors"),
            ],
        },
        { namespace: ns.observability.namespace, rules: [...BASICS, r("apps", "deployments"), r("opentelemetry.io", "opentelemetrycollectors"), r("cert-manager.io", "certificates"), r("cert-manager.io", "issuers")] },
        // kube-prometheus-stack's Services for the kubelet and CoreDNS, and cert-manager's leader-election Roles.
        { namespace: "kube-system", rules: [r("", "services"), r("rbac.authorization.k8s.io", "roles"), r("rbac.authorization.k8s.io", "rolebindings")] },
        {
            namespace: plan.applicationNamespace,
            rules: [
                ...BASICS,
                r("apps", "deployments"),
                r("apps", "statefulsets"),
                r("", "persistentvolumeclaims"),
                r("networking.k8s.io", "ingresses"),
                r("networking.k8s.io", "networkpolicies"),
                r("monitoring.coreos.com", "servicemonitors"),
                // Bank of Sirius's and its databases' alert rules sit beside the app.
                r("monitoring.coreos.com", "prometheusrules"),
            ],
        },
    ];
    if (plan.metallb) out.push({ namespace: METALLB_NAMESPACE, rules: [...BASICS, r("apps", "deployments"), r("apps", "daemonsets"), r("metallb.io", "ipaddresspools"), r("metallb.io", "l2advertisements"), r("metallb.io", "bgpadvertisements"), r("metallb.io", "bgppeers")] });
    if (plan.nfs) out.push({ namespace: NFS_NAMESPACE, rules: [...BASICS, r("apps", "deployments")] });
    return out;
}

/** Cluster-scoped rules for this plan (the NFS StorageClass and the admission policies only when the platform creates them). */
export function clusterRules(plan: DoctorPlan): readonly AccessRule[] {
    return [
        ...CLUSTER_RULES,
        ...(plan.nfs ? [r("storage.k8s.io", "storageclasses")] : []),
        ...(plan.admissionPolicies ? [r("admissionregistration.k8s.io", "validatingadmissionpolicies"), r("admissionregistration.k8s.io", "validatingadmissionpolicybindings")] : []),
    ];
}
