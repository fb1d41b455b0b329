/**
 * The admission policies' mapping from the validated guardrails settings (`MaraConfig.admissionPolicies`, built by
 * config/validate.ts) onto the Platform's `admissionPolicies` argument. Called by program/platformArgs.ts, which knows the
 * platform's namespaces outside the Platform.
 */
import type { MaraConfig } from "../../config/model";
import type { PlatformAdmissionPoliciesArgs } from "./platformUnit";

/**
 * The Platform's `admissionPolicies` argument, or undefined when no policies are installed (`mara:admissionPolicies` none).
 * `namespaces` are the platform's namespaces outside the Platform (the application's, Argo CD's where it is installed).
 */
export function admissionPoliciesArgsFromSettings(s: MaraConfig["admissionPolicies"], namespaces: string[]): PlatformAdmissionPoliciesArgs | undefined {
    return s.mode === "none" ? undefined : { mode: s.mode, scope: s.scope, namespaces };
}
