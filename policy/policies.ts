/**
 * The rules as `@pulumi/policy` policies: what the pack registers, and what `mara plan --policy` runs offline over
 * the registrations of a mocked run. Only types come from `@pulumi/policy` here; the pack's entry point
 * (policy/pack) is the one place that starts its server.
 */
import type { PolicyConfigSchema, ResourceValidationArgs, ResourceValidationPolicy, ReportViolation, StackValidationArgs, StackValidationPolicy } from "@pulumi/policy";
import { resolveRule } from "./config";
import type { PolicyConfigJSONSchemaType } from "@pulumi/policy/schema";
import type { KubeObject, KubernetesRule, PulumiResource, ResourceRule, Rule, RuleSetting, StackRule } from "./rule";
import { RULES } from "./rules";

/** `kubernetes:<group>/<version>:<Kind>` as API group and kind ("" for the core group); undefined for other types. */
export function kubernetesKind(type: string): { group: string; version: string; kind: string } | undefined {
    const m = /^kubernetes:([^/:]+)\/([^:]+):(\w+)$/.exec(type);
    if (!m || m[1] === "helm.sh" || m[1] === "yaml" || m[1] === "kustomize") return undefined;
    return { group: m[1] === "core" ? "" : m[1]!, version: m[2]!, kind: m[3]! };
}

/** The rule's settings: its defaults, with what the pack's configuration sets for it. */
const settingsOf = <S>(rule: Rule, args: { getConfig<T extends object>(): T }): S =>
    resolveRule<S>(rule, { [rule.id]: { ...(args.getConfig<Record<string, unknown>>() ?? {}) } }).settings;

const configSchema = (rule: Rule): PolicyConfigSchema => ({
    properties: Object.fromEntries(
        Object.entries(rule.settings as Record<string, RuleSetting<PolicyConfigJSONSchemaType>>).map(([k, s]) => [k, { ...s.schema, description: s.description, default: s.default }]),
    ),
});

const base = (rule: Rule) => ({ name: rule.id, description: rule.description, enforcementLevel: rule.level, configSchema: configSchema(rule) });

/**
 * A Kubernetes rule over a Pulumi resource: the object is its inputs (apiVersion and kind included). `...Patch`
 * resources are left alone: they carry only the fields they change, so a missing field means nothing.
 */
function kubernetesPolicy(rule: KubernetesRule<unknown>): ResourceValidationPolicy {
    return {
        ...base(rule),
        validateResource: (args: ResourceValidationArgs, report: ReportViolation) => {
            const k = kubernetesKind(args.type);
            if (!k || !rule.targets.some((t) => t.group === k.group && t.kind === k.kind)) return;
            const object = { ...args.props, apiVersion: k.group ? `${k.group}/${k.version}` : k.version, kind: k.kind } as KubeObject;
            for (const v of rule.check(object, settingsOf(rule, args))) report(v);
        },
    };
}

function resourcePolicy(rule: ResourceRule<unknown>): ResourceValidationPolicy {
    return {
        ...base(rule),
        validateResource: (args: ResourceValidationArgs, report: ReportViolation) => {
            if (!rule.types.includes(args.type)) return;
            for (const v of rule.check({ type: args.type, name: args.name, props: args.props }, settingsOf(rule, args))) report(v);
        },
    };
}

function stackPolicy(rule: StackRule<unknown>): StackValidationPolicy {
    return {
        ...base(rule),
        validateStack: (args: StackValidationArgs, report: ReportViolation) => {
            const resources: PulumiResource[] = args.resources.map((r) => ({ type: r.type, name: r.name, props: r.props }));
            const urnOf = new Map(args.resources.map((r) => [r.name, r.urn]));
            for (const v of rule.check(resources, settingsOf(rule, args))) report(v.message, v.resource === undefined ? undefined : urnOf.get(v.resource));
        },
    };
}

/** One policy per rule, each at the rule's default level (the pack's configuration can change levels and settings). */
export function packPolicies(rules: readonly Rule[] = RULES): (ResourceValidationPolicy | StackValidationPolicy)[] {
    return rules.map((r) => (r.kind === "kubernetes" ? kubernetesPolicy(r) : r.kind === "resource" ? resourcePolicy(r) : stackPolicy(r)));
}
