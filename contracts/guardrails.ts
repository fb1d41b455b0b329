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
