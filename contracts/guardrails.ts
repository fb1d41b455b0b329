/**
 * How the cluster enforces the guardrails (docs/policy.md): shared by the configuration key that turns the
 * admission policies on and the policy module that generates them.
 */

/**
 * `audit` records violations in the API server's audit log, `warn` also returns a warning to the client, `deny`
 * refuses what breaks a mandatory rule (and warns about advisory ones).
 */
export const ADMISSION_MODES = ["audit", "warn", "deny"] as const;

/** One of {@link ADMISSION_MODES}. */
export type AdmissionMode = (typeof ADMISSION_MODES)[number];

/** Where the admission policies judge objects: the platform's namespaces, or every namespace of the cluster. */
export const ADMISSION_SCOPES = ["platform", "cluster"] as const;

/** One of {@link ADMISSION_SCOPES}. */
export type AdmissionScope = (typeof ADMISSION_SCOPES)[number];

/** The label every object the platform creates itself carries (its namespaces, classes, policies). */
export const PLATFORM_PART_OF = { key: "app.kubernetes.io/part-of", value: "mara" } as const;

/**
 * The oldest Kubernetes minor that serves `admissionregistration.k8s.io/v1` ValidatingAdmissionPolicy: the API went GA
 * and on by default in 1.30 (KEP-3488; kubernetes/kubernetes CHANGELOG-1.30). 1.28 and 1.29 serve only v1beta1, and only
 * where the cluster turns that API on; 1.26 and 1.27 only v1alpha1.
 */
export const ADMISSION_POLICY_MIN_MINOR = "1.30";
