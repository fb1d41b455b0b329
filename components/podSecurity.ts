/**
 * Pod Security Standards labels for the platform's namespaces. Each namespace is enforced at the highest level every
 * workload in it meets, and warned and audited at `restricted` when that is higher, so the API server's PodSecurity
 * admission refuses a pod that falls below what the namespace runs today and reports what stands between it and
 * `restricted`. Which workloads need what, and why, is in docs/policy.md.
 */

/** A Pod Security Standards level (https://kubernetes.io/docs/concepts/security/pod-security-standards/). */
export type PodSecurityLevel = "privileged" | "baseline" | "restricted";

/** The label prefix the PodSecurity admission reads (k8s.io/pod-security-admission api/constants.go). */
const PREFIX = "pod-security.kubernetes.io";

/** The labels of a namespace whose workloads all meet `enforce`: enforce at it, warn and audit at `restricted`. */
export function podSecurityLabels(enforce: PodSecurityLevel): Record<string, string> {
    return { [`${PREFIX}/enforce`]: enforce, [`${PREFIX}/warn`]: "restricted", [`${PREFIX}/audit`]: "restricted" };
}
