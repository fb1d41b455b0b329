/**
 * The guardrails as a library (`mara-platform/policy`): the rules, the admission policies generated from them, the
 * pack's policies and configuration, and every rule's examples. The pack itself is `policy/pack` (run by path with
 * `pulumi preview --policy-pack`); importing this module starts nothing.
 */
export { admissionPolicies, admissionPolicyOf, ADMISSION_MODES, POLICY_PREFIX, RULE_LABEL, validationActions } from "./admission";
export type { AdmissionMode, AdmissionOptions } from "./admission";
export { configProblems, resolveRule } from "./config";
export type { PolicyConfig, Resolved, RuleConfig } from "./config";
export { kubernetesFixtures, ruleFixtures } from "./fixtures";
export type { KubernetesFixture } from "./fixtures";
export { KUBERNETES_RULES } from "./kubernetes";
export { kubernetesKind, packPolicies } from "./policies";
export { CLOUD_RULES, RULES, STACK_RULES } from "./rules";
export { defaultSettings } from "./rule";
export type { CelValidation, KubeObject, KubernetesRule, KubernetesTarget, Level, NamespaceExemption, PulumiResource, ResourceRule, Rule, RuleSetting, RuleSettings, StackRule, StackViolation } from "./rule";
