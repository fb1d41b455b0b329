/**
 * The rules about Kubernetes objects as ValidatingAdmissionPolicies and their bindings
 * (admissionregistration.k8s.io/v1: CEL run by the API server itself since Kubernetes 1.30, no controller to
 * install). They carry each rule's CEL and settings, and leave out the namespaces the rule exempts, so the cluster
 * refuses (or warns about, or records) what Helm, a GitOps sync or `kubectl` apply that the pack never sees.
 */
import { ADMISSION_MODES, AdmissionMode, PLATFORM_PART_OF } from "../contracts";
import { celLiteral } from "./celLiteral";
import { PolicyConfig, resolveRule } from "./config";
import { KUBERNETES_RULES } from "./kubernetes";
import type { KubeObject, KubernetesRule, Level } from "./rule";

export { ADMISSION_MODES };
export type { AdmissionMode };

/** Options of {@link admissionPolicies}. */
export interface AdmissionOptions {
    /** How violations are treated. Required. */
    readonly mode: AdmissionMode;
    /** The pack's configuration: levels and settings per rule (a disabled rule gets no policy). Default: each rule's defaults. */
    readonly config?: PolicyConfig;
    /** Namespaces every binding leaves out, beyond each rule's own exemptions. Default none. */
    readonly exemptNamespaces?: readonly string[];
    /**
     * The namespaces the policies judge (the platform's, on a cluster it shares with other teams); objects anywhere
     * else, and cluster-scoped objects without the platform's label, are left alone. Default: every namespace and every
     * cluster-scoped object (the whole cluster).
     */
    readonly namespaces?: readonly string[];
}

/** Prefix of every policy and binding name, so the platform's are told apart from a team's own. */
export const POLICY_PREFIX = "mara-";

/** The label on every policy and binding, naming the rule it carries. */
export const RULE_LABEL = "mara.nginx.com/rule";

/** What a binding does with a violation of a rule at `level`. */
export function validationActions(mode: AdmissionMode, level: Exclude<Level, "disabled">): string[] {
    if (mode === "audit") return ["Audit"];
    if (mode === "deny" && level === "mandatory") return ["Deny", "Audit"];
    return ["Warn", "Audit"];
}

/** The policy and the binding of one rule; none when the configuration disables it. */
export function admissionPolicyOf(rule: KubernetesRule<unknown>, opts: AdmissionOptions): KubeObject[] {
    const { level, settings } = resolveRule<Record<string, unknown>>(rule, opts.config);
    if (level === "disabled") return [];
    const name = `${POLICY_PREFIX}${rule.id}`;
    const metadata = { name, labels: { [PLATFORM_PART_OF.key]: PLATFORM_PART_OF.value, [RULE_LABEL]: rule.id }, annotations: { "mara.nginx.com/description": rule.description } };
    const groups = [...new Set(rule.targets.map((t) => t.group))];
    const policy: KubeObject = {
        apiVersion: "admissionregistration.k8s.io/v1",
        kind: "ValidatingAdmissionPolicy",
        metadata,
        spec: {
            // An expression that cannot be evaluated must not let an object through unchecked.
            failurePolicy: "Fail",
            matchConstraints: {
                resourceRules: groups.map((g) => ({
                    apiGroups: [g],
                    apiVersions: ["*"],
                    operations: ["CREATE", "UPDATE"],
                    resources: rule.targets.filter((t) => t.group === g).map((t) => t.resource),
                })),
            },
            variables: [
                ...Object.entries(settings).map(([k, v]) => ({ name: celVariableName(k, rule.id), expression: celLiteral(v) })),
                ...(rule.admission.variables ?? []).map((v) => ({ name: v.name, expression: v.expression })),
            ],
            validations: rule.admission.validations.map((v) => ({ expression: v.expression, message: `${name}: ${v.message}` })),
        },
    };
    const exempt = [...new Set([...(rule.exemptions ?? []).map((e) => e.namespace), ...(opts.exemptNamespaces ?? [])])].sort();
    const matchResources = bindingScope(rule, exempt, opts.namespaces);
    if (matchResources === "nothing") return [];
    const binding: KubeObject = {
        apiVersion: "admissionregistration.k8s.io/v1",
        kind: "ValidatingAdmissionPolicyBinding",
        metadata,
        spec: {
            policyName: name,
            validationActions: validationActions(opts.mode, level),
            ...(matchResources ? { matchResources } : {}),
        },
    };
    return [policy, binding];
}

/**
 * What a rule's binding matches. The whole cluster: every namespace but the exempt ones. The platform's namespaces
 * (`namespaces` given): those, less the exempt ones, selected by name (the API server sets the
 * `kubernetes.io/metadata.name` label on every namespace, and no one can change it), so a neighbour's namespace is
 * never judged; a rule about a cluster-scoped kind, which no namespaceSelector leaves out (ValidatingAdmissionPolicy
 * `matchResources.namespaceSelector`: "If the object is ... cluster scoped ... it never skips the policy"; k8s.io/api
 * admissionregistration/v1 types.go), judges only objects with the platform's label. "nothing" when no namespace is
 * left to judge: a binding with an empty `In` list is invalid, and a policy without a binding does nothing.
 */
function bindingScope(rule: KubernetesRule<unknown>, exempt: readonly string[], namespaces: readonly string[] | undefined): Record<string, unknown> | undefined | "nothing" {
    const clusterScoped = rule.targets.filter((t) => t.clusterScoped).length;
    if (clusterScoped > 0 && clusterScoped < rule.targets.length) throw new Error(`rule ${rule.id}: targets both namespaced and cluster-scoped kinds; a binding scopes them differently, so split the rule`);
    const byName = (operator: "In" | "NotIn", values: readonly string[]) => ({ namespaceSelector: { matchExpressions: [{ key: "kubernetes.io/metadata.name", operator, values: [...values] }] } });
    if (namespaces === undefined) return exempt.length > 0 ? byName("NotIn", exempt) : undefined;
    if (clusterScoped > 0) return { objectSelector: { matchLabels: { [PLATFORM_PART_OF.key]: PLATFORM_PART_OF.value } } };
    const judged = [...new Set(namespaces)].filter((n) => !exempt.includes(n)).sort();
    return judged.length > 0 ? byName("In", judged) : "nothing";
}

/**
 * Every rule about Kubernetes objects as a ValidatingAdmissionPolicy and its binding, policy first, for the given
 * mode and configuration. What the AdmissionPolicies component applies, and what a test API server can install.
 */
export function admissionPolicies(opts: AdmissionOptions): KubeObject[] {
    return KUBERNETES_RULES.flatMap((r) => admissionPolicyOf(r, opts));
}

/** Words CEL reserves (cel-spec, "Syntax"): the API server refuses a policy variable named by one of them. */
const CEL_RESERVED = new Set(["as", "break", "const", "continue", "else", "false", "for", "function", "if", "import", "in", "let", "loop", "package", "namespace", "null", "return", "true", "var", "void", "while"]);

/** `name` if it can name a CEL variable in a policy; a rule whose setting cannot is a programming error. */
function celVariableName(name: string, rule: string): string {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || CEL_RESERVED.has(name)) {
        throw new Error(`rule ${rule}: setting "${name}" cannot name a CEL variable (the API server refuses a reserved word or a non-identifier); rename the setting`);
    }
    return name;
}
