/**
 * Validation of built-in Kubernetes objects against the API of the cluster version the program defaults to.
 *
 * The schemas come from kubernetes-models 5.1.0, generated from the Kubernetes 1.36.0 OpenAPI spec merged with
 * older specs that still had since-removed API versions. No npm or Debian package ships the 1.35 spec itself
 * (see docs/dependencies.md), so 1.35 is approximated from both sides:
 * - API versions Kubernetes stopped serving at or before 1.35 (the deprecation guide's "Removed APIs by
 *   release", last removals in 1.32; none in 1.33 to 1.35) are rejected by the table below, because the
 *   merged models still accept them;
 * - fields added in 1.36 would still pass (not seen in anything the program or its charts render today).
 */
import * as models from "kubernetes-models";
import { DEFAULTS } from "../../contracts";

/** The Kubernetes version objects are validated for: the program's default cluster version. */
export const TARGET_KUBE_VERSION = DEFAULTS.eks.version;

/** `apiVersion/kind` no longer served by the target version, with the release that removed it. */
export const REMOVED_APIS: Readonly<Record<string, string>> = Object.fromEntries(
    (
        [
            ["1.16", ["extensions/v1beta1:Deployment", "extensions/v1beta1:DaemonSet", "extensions/v1beta1:ReplicaSet", "extensions/v1beta1:NetworkPolicy", "extensions/v1beta1:PodSecurityPolicy", "apps/v1beta1:Deployment", "apps/v1beta1:StatefulSet", "apps/v1beta2:Deployment", "apps/v1beta2:StatefulSet", "apps/v1beta2:DaemonSet", "apps/v1beta2:ReplicaSet"]],
            ["1.22", ["admissionregistration.k8s.io/v1beta1:MutatingWebhookConfiguration", "admissionregistration.k8s.io/v1beta1:ValidatingWebhookConfiguration", "apiextensions.k8s.io/v1beta1:CustomResourceDefinition", "apiregistration.k8s.io/v1beta1:APIService", "authentication.k8s.io/v1beta1:TokenReview", "authorization.k8s.io/v1beta1:SubjectAccessReview", "authorization.k8s.io/v1beta1:LocalSubjectAccessReview", "authorization.k8s.io/v1beta1:SelfSubjectAccessReview", "certificates.k8s.io/v1beta1:CertificateSigningRequest", "coordination.k8s.io/v1beta1:Lease", "extensions/v1beta1:Ingress", "networking.k8s.io/v1beta1:Ingress", "networking.k8s.io/v1beta1:IngressClass", "rbac.authorization.k8s.io/v1beta1:ClusterRole", "rbac.authorization.k8s.io/v1beta1:ClusterRoleBinding", "rbac.authorization.k8s.io/v1beta1:Role", "rbac.authorization.k8s.io/v1beta1:RoleBinding", "scheduling.k8s.io/v1beta1:PriorityClass", "storage.k8s.io/v1beta1:CSIDriver", "storage.k8s.io/v1beta1:CSINode", "storage.k8s.io/v1beta1:StorageClass", "storage.k8s.io/v1beta1:VolumeAttachment"]],
            ["1.25", ["batch/v1beta1:CronJob", "discovery.k8s.io/v1beta1:EndpointSlice", "events.k8s.io/v1beta1:Event", "autoscaling/v2beta1:HorizontalPodAutoscaler", "policy/v1beta1:PodDisruptionBudget", "policy/v1beta1:PodSecurityPolicy", "node.k8s.io/v1beta1:RuntimeClass"]],
            ["1.26", ["flowcontrol.apiserver.k8s.io/v1beta1:FlowSchema", "flowcontrol.apiserver.k8s.io/v1beta1:PriorityLevelConfiguration", "autoscaling/v2beta2:HorizontalPodAutoscaler"]],
            ["1.27", ["storage.k8s.io/v1beta1:CSIStorageCapacity"]],
            ["1.29", ["flowcontrol.apiserver.k8s.io/v1beta2:FlowSchema", "flowcontrol.apiserver.k8s.io/v1beta2:PriorityLevelConfiguration"]],
            ["1.32", ["flowcontrol.apiserver.k8s.io/v1beta3:FlowSchema", "flowcontrol.apiserver.k8s.io/v1beta3:PriorityLevelConfiguration"]],
        ] as const
    ).flatMap(([release, list]) => list.map((gvk) => [gvk, release])),
);

type Model = new (data: unknown) => { validate(): void };

/** The kubernetes-models class of a built-in `apiVersion` and `kind`, or undefined for kinds Kubernetes does not build in. */
export function builtInModel(apiVersion: string, kind: string): Model | undefined {
    const [group, version] = apiVersion.includes("/") ? (apiVersion.split("/") as [string, string]) : ["core", apiVersion];
    const key = group === "core" ? "v1" : group.replace(/\.([a-z])/g, (_, c: string) => c.toUpperCase());
    const ns = (models as unknown as Record<string, Record<string, Record<string, unknown>>>)[key];
    const versionModels = group === "core" ? (ns as Record<string, unknown> | undefined) : (ns?.[version] as Record<string, unknown> | undefined);
    return versionModels?.[kind] as Model | undefined;
}

/** Problems of one built-in object against the target version's API; empty when it is valid. */
export function builtInProblems(obj: { apiVersion: string; kind: string } & Record<string, unknown>): string[] {
    const removed = REMOVED_APIS[`${obj.apiVersion}:${obj.kind}`];
    if (removed) return [`${obj.apiVersion} ${obj.kind} is not served by Kubernetes ${TARGET_KUBE_VERSION} (removed in ${removed})`];
    const Model = builtInModel(obj.apiVersion, obj.kind);
    if (!Model) return [`${obj.apiVersion} ${obj.kind} is not a Kubernetes ${TARGET_KUBE_VERSION} API`];
    try {
        new Model(obj).validate();
        return [];
    } catch (e) {
        return [`invalid for Kubernetes ${TARGET_KUBE_VERSION}: ${(e as Error).message}`];
    }
}
