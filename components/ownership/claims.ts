/**
 * What the platform will put on a cluster under a name of its own choosing, and so could find already taken: its
 * namespaces, the cluster-scoped objects it creates, the objects its charts create under a fixed cluster-wide name, and
 * its Helm releases. Derived from the Pulumi type token and inputs of each registered resource, so a new component's
 * objects are claimed without anyone listing them (ownershipGuard.ts). Plain data, read by the guard's dynamic provider
 * and by `mara doctor`.
 */

/** How an object comes to be the platform's, which decides what proves it is. */
export type ClaimOrigin =
    /** The program creates it (a typed object): it carries the platform's marks. */
    | "program"
    /** A chart of the platform's creates it: Helm's ownership annotations name the platform's release. */
    | "chart";

/** One object of a fixed name the platform creates: a namespace or a cluster-scoped object. */
export interface ObjectClaim {
    /** `apiVersion` of the object, e.g. `v1`, `storage.k8s.io/v1`. */
    readonly apiVersion: string;
    /** The object's kind, e.g. `Namespace`, `ClusterRole`. */
    readonly kind: string;
    /** The plural resource name in the API's paths, e.g. `namespaces`, `storageclasses`. */
    readonly resource: string;
    /** The object's name (cluster-wide: a namespace or a cluster-scoped object). */
    readonly name: string;
    /** How the object comes to be the platform's, which decides what proves it is. */
    readonly origin: ClaimOrigin;
    /** For {@link ClaimOrigin} `chart`: the release that creates it. */
    readonly release?: ReleaseRef;
    /** How to move the platform out of the way, where a setting does (a component argument, a configuration key). */
    readonly remedy?: string;
}

/** A Helm release: its name and namespace. */
export interface ReleaseRef {
    /** The release's name (`helm list` shows it). */
    readonly name: string;
    /** The namespace the release is installed in, where Helm keeps its records. */
    readonly namespace: string;
}

/** One Helm release the platform installs. */
export interface ReleaseClaim extends ReleaseRef {
    /** How to move the platform out of the way, where a setting does. */
    readonly remedy?: string;
}

/** Everything one guard checks. */
export interface Claims {
    /** Namespaces and cluster-scoped objects. */
    readonly objects: readonly ObjectClaim[];
    /** Helm releases. */
    readonly releases: readonly ReleaseClaim[];
}

/**
 * The cluster-scoped kinds the platform can create, by `<group>:<Kind>` ("core" for the core group), with their plural
 * resource names: the built-in ones of Kubernetes' API reference, and the custom ones of the charts the platform
 * installs (cert-manager's ClusterIssuer). A cluster-scoped kind missing here would go unclaimed; the components'
 * tests check that every object registered without a namespace is claimed.
 */
export const CLUSTER_SCOPED: Readonly<Record<string, string>> = {
    "core:Namespace": "namespaces",
    "core:PersistentVolume": "persistentvolumes",
    "rbac.authorization.k8s.io:ClusterRole": "clusterroles",
    "rbac.authorization.k8s.io:ClusterRoleBinding": "clusterrolebindings",
    "apiextensions.k8s.io:CustomResourceDefinition": "customresourcedefinitions",
    "admissionregistration.k8s.io:ValidatingAdmissionPolicy": "validatingadmissionpolicies",
    "admissionregistration.k8s.io:ValidatingAdmissionPolicyBinding": "validatingadmissionpolicybindings",
    "admissionregistration.k8s.io:ValidatingWebhookConfiguration": "validatingwebhookconfigurations",
    "admissionregistration.k8s.io:MutatingWebhookConfiguration": "mutatingwebhookconfigurations",
    "storage.k8s.io:StorageClass": "storageclasses",
    "storage.k8s.io:CSIDriver": "csidrivers",
    "scheduling.k8s.io:PriorityClass": "priorityclasses",
    "node.k8s.io:RuntimeClass": "runtimeclasses",
    "networking.k8s.io:IngressClass": "ingressclasses",
    "apiregistration.k8s.io:APIService": "apiservices",
    "cert-manager.io:ClusterIssuer": "clusterissuers",
};

/** The type token of Helm releases. */
export const RELEASE_TYPE = "kubernetes:helm.sh/v3:Release";
/** Suffix of the Kubernetes provider's patch resources (`...:CustomResourceDefinitionPatch`). */
const PATCH = "Patch";

/** The group, version and kind a Kubernetes type token names: `kubernetes:storage.k8s.io/v1:StorageClass`. */
export function kindOfType(type: string): { group: string; version: string; kind: string; patch: boolean } | undefined {
    const m = /^kubernetes:([^:]+)\/([^/:]+):([A-Za-z0-9]+)$/.exec(type);
    if (!m) return undefined;
    const patch = m[3]!.endsWith(PATCH) && m[3] !== PATCH;
    return { group: m[1]!, version: m[2]!, kind: patch ? m[3]!.slice(0, -PATCH.length) : m[3]!, patch };
}

/** The `apiVersion` of a group and version: `v1` for the core group. */
export const apiVersionOf = (group: string, version: string) => (group === "core" ? version : `${group}/${version}`);

/**
 * The claim a registration of `type` makes, if it creates a namespace or a cluster-scoped object (without its name);
 * undefined for namespaced objects and everything else. A patch claims nothing: it changes an object that may exist,
 * by design (the charts' CustomResourceDefinitions, chartCrds.ts: definitions every installation of an operator shares,
 * applied over whoever installed them and never deleted).
 */
export function claimOfType(type: string): Omit<ObjectClaim, "name" | "remedy"> | undefined {
    const k = kindOfType(type);
    if (!k || k.patch) return undefined;
    const resource = CLUSTER_SCOPED[`${k.group}:${k.kind}`];
    if (!resource) return undefined;
    return { apiVersion: apiVersionOf(k.group, k.version), kind: k.kind, resource, origin: "program" };
}

/** The API path of a claimed object. */
export function objectPath(c: Pick<ObjectClaim, "apiVersion" | "resource" | "name">): string {
    const base = c.apiVersion.includes("/") ? `/apis/${c.apiVersion}` : `/api/${c.apiVersion}`;
    return `${base}/${c.resource}/${encodeURIComponent(c.name)}`;
}

/**
 * The API paths that list a release's records, in each of the two stores Helm keeps them in by default and on request
 * (`HELM_DRIVER=secret`, `configmap`): objects labelled `owner=helm,name=<release>` in the release's namespace
 * (helm.sh/helm/v3 pkg/storage/driver/secrets.go and cfgmaps.go, `Query`).
 */
export function releaseRecordPaths(r: ReleaseRef): string[] {
    const selector = encodeURIComponent(`owner=helm,name=${r.name}`);
    const ns = encodeURIComponent(r.namespace);
    return [`/api/v1/namespaces/${ns}/secrets?labelSelector=${selector}`, `/api/v1/namespaces/${ns}/configmaps?labelSelector=${selector}`];
}

/** A stable key of a claim, for comparing two lists. */
export const claimKey = (c: Pick<ObjectClaim, "apiVersion" | "kind" | "name">) => `${c.kind} ${c.apiVersion} ${c.name}`;
/** A stable key of a release claim. */
export const releaseKey = (r: ReleaseRef) => `${r.namespace}/${r.name}`;

/** How a claim is named in messages: `Namespace bos`, `ClusterRole mara:nfs-provisioner:nfs-provisioner`. */
export const describeClaim = (c: Pick<ObjectClaim, "kind" | "name">) => `${c.kind} ${c.name}`;
