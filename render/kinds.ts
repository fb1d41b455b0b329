/**
 * What a render needs to know about Kubernetes' built-in kinds without asking a cluster: which are cluster-scoped,
 * and the plural resource name an admission webhook's rules name them by. Custom kinds get both from their CRDs.
 */

/** Built-in kinds that are not namespaced (everything else built in is), as `<group>:<Kind>` with "v1" for the core group. */
export const CLUSTER_SCOPED = new Set([
    "v1:Namespace", "v1:Node", "v1:PersistentVolume", "v1:ComponentStatus",
    "rbac.authorization.k8s.io:ClusterRole", "rbac.authorization.k8s.io:ClusterRoleBinding",
    "apiextensions.k8s.io:CustomResourceDefinition", "apiregistration.k8s.io:APIService",
    "admissionregistration.k8s.io:ValidatingWebhookConfiguration", "admissionregistration.k8s.io:MutatingWebhookConfiguration",
    "admissionregistration.k8s.io:ValidatingAdmissionPolicy", "admissionregistration.k8s.io:ValidatingAdmissionPolicyBinding",
    "storage.k8s.io:StorageClass", "storage.k8s.io:CSIDriver", "storage.k8s.io:CSINode", "storage.k8s.io:VolumeAttachment",
    "scheduling.k8s.io:PriorityClass", "node.k8s.io:RuntimeClass", "networking.k8s.io:IngressClass",
    "certificates.k8s.io:CertificateSigningRequest", "flowcontrol.apiserver.k8s.io:FlowSchema", "flowcontrol.apiserver.k8s.io:PriorityLevelConfiguration",
]);

/** The API group of an apiVersion, "v1" for the core group (the form {@link CLUSTER_SCOPED} uses). */
export const groupOf = (apiVersion: string) => (apiVersion.includes("/") ? apiVersion.split("/")[0]! : "v1");

/** The API group of an apiVersion as webhook rules and CRDs name it: "" for the core group. */
export const apiGroupOf = (apiVersion: string) => (apiVersion.includes("/") ? apiVersion.split("/")[0]! : "");

/** The plural resource name of a built-in kind, as webhook rules and RBAC name it. */
export function builtInPlural(kind: string): string {
    const lower = kind.toLowerCase();
    if (lower === "endpoints") return lower;
    if (/(s|x|ch|sh)$/.test(lower)) return `${lower}es`;
    if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
    return `${lower}s`;
}
