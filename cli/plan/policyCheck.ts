/**
 * The policy pack run offline: each of its policies over the registrations of a mocked run, as the Pulumi engine
 * would hand them to the pack during `pulumi preview --policy-pack`. Secrets are unwrapped (the pack sees their
 * values); a value not known yet stops the policy that reads it, which is then reported as not judged, as Pulumi
 * does during a preview.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ReportViolation, ResourceValidationArgs, ResourceValidationPolicy, StackValidationArgs, StackValidationPolicy } from "@pulumi/policy";
import { PolicyConfig, resolveRule } from "../../policy/config";
import { packPolicies } from "../../policy/policies";
import type { Level } from "../../policy/rule";
import { RULES } from "../../policy/rules";
import type { RecordedResource } from "../../offline/run";
import { unwrapSecrets } from "../../offline/wrappedSecrets";

/** One violation of a rule. */
export interface PolicyViolation {
    /** The rule's id. */
    readonly rule: string;
    readonly level: Exclude<Level, "disabled">;
    /** `<type>::<name>` of the resource, or undefined for a stack-wide finding without one. */
    readonly resource?: string;
    readonly message: string;
}

/** A rule that could not look at a resource because a value it reads is unknown until deployment. */
export interface NotJudged {
    readonly rule: string;
    readonly resource: string;
    /** The property path of the unknown value. */
    readonly path: string;
}

/** What the pack found. */
export interface PolicyReport {
    readonly violations: PolicyViolation[];
    readonly notJudged: NotJudged[];
}

/** Thrown when a policy reads a value that is unknown until deployment. */
class UnknownValue extends Error {
    constructor(readonly path: string) {
        super(`${path} is unknown until deployment`);
    }
}

/** Read-only view of a value that throws {@link UnknownValue} where the value (or a part of it) is unknown. */
function unknownChecking(value: unknown, path: string[] = []): unknown {
    if (pulumi.isUnknown(value)) throw new UnknownValue(path.join("."));
    if (!value || typeof value !== "object") return value;
    return new Proxy(value as object, {
        get(target, key) {
            const v = Reflect.get(target, key);
            // Functions (array methods) and symbols pass through untouched: wrapping them would break the array protocol.
            if (typeof key === "symbol" || typeof v === "function") return v;
            return unknownChecking(v, [...path, key]);
        },
    });
}

const label = (r: { type: string; name: string }) => `${r.type}::${r.name}`;

/** Runs every rule of the pack over `resources`, at the levels and with the settings `config` gives. */
export async function checkPolicies(resources: readonly RecordedResource[], config: PolicyConfig = {}): Promise<PolicyReport> {
    const violations: PolicyViolation[] = [];
    const notJudged: NotJudged[] = [];
    const plain = resources.filter((r) => r.inputs !== undefined).map((r) => ({ r, props: unwrapSecrets(r.inputs) as Record<string, unknown> }));
    for (const [i, policy] of packPolicies().entries()) {
        const rule = RULES[i]!;
        const { level } = resolveRule(rule, config);
        if (level === "disabled") continue;
        const own = config[rule.id];
        const getConfig = <T extends object>() => (typeof own === "object" ? own : {}) as T;
        const notApplicable = (): never => {
            throw new Error("not applicable");
        };
        if ("validateStack" in policy) {
            const args = {
                resources: plain.map(({ r, props }) => ({ type: r.type, name: r.name, urn: r.urn, props: unknownChecking(props) })),
                getConfig,
                notApplicable,
            } as unknown as StackValidationArgs;
            const report: ReportViolation = (message, urn) => {
                const r = urn ? plain.find((p) => p.r.urn === urn)?.r : undefined;
                violations.push({ rule: rule.id, level, resource: r ? label(r) : undefined, message });
            };
            try {
                await (policy as StackValidationPolicy).validateStack(args, report);
            } catch (e) {
                if (!(e instanceof UnknownValue)) throw e;
                notJudged.push({ rule: rule.id, resource: "(the stack)", path: e.path });
            }
            continue;
        }
        for (const { r, props } of plain) {
            const args = { type: r.type, name: r.name, urn: r.urn, props: unknownChecking(props), getConfig, notApplicable } as unknown as ResourceValidationArgs;
            const report: ReportViolation = (message) => violations.push({ rule: rule.id, level, resource: label(r), message });
            try {
                await (policy as ResourceValidationPolicy & { validateResource: (a: ResourceValidationArgs, rv: ReportViolation) => unknown }).validateResource(args, report);
            } catch (e) {
                if (!(e instanceof UnknownValue)) throw e;
                notJudged.push({ rule: rule.id, resource: label(r), path: e.path });
            }
        }
    }
    return { violations, notJudged };
}
