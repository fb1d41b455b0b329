/**
 * Every rule about Kubernetes objects, both halves: the pack's check refuses each failing example and passes each
 * passing one, and the admission policy generated for the cluster, its CEL evaluated offline, decides the same.
 */
import { describe, expect, it } from "vitest";
import { admissionPolicyOf } from "../../policy/admission";
import { resolveRule } from "../../policy/config";
import { KUBERNETES_RULES } from "../../policy/kubernetes";
import { admit, compileProblems } from "../support/cel";

const policyOf = (rule: (typeof KUBERNETES_RULES)[number]) => admissionPolicyOf(rule, { mode: "deny" })[0]!;

describe.each(KUBERNETES_RULES.map((r) => [r.id, r] as const))("rule %s", (_id, rule) => {
    const settings = resolveRule(rule).settings;

    it("has a passing and a failing example", () => {
        expect(rule.examples.pass.length).toBeGreaterThan(0);
        expect(rule.examples.fail.length).toBeGreaterThan(0);
    });

    it("the pack passes every passing example and refuses every failing one", () => {
        for (const o of rule.examples.pass) expect(rule.check(o, settings), JSON.stringify(o)).toEqual([]);
        for (const o of rule.examples.fail) expect(rule.check(o, settings).length, JSON.stringify(o)).toBeGreaterThan(0);
    });

    it("its CEL parses and type-checks", async () => {
        expect(await compileProblems(policyOf(rule))).toEqual([]);
    });

    it("its CEL decides every example as the pack does", async () => {
        const policy = policyOf(rule);
        for (const o of rule.examples.pass) expect(await admit(policy, o), JSON.stringify(o)).toEqual({ allowed: true, messages: [] });
        for (const o of rule.examples.fail) {
            const d = await admit(policy, o);
            expect(d.error, JSON.stringify(o)).toBeUndefined();
            expect(d.allowed, JSON.stringify(o)).toBe(false);
        }
    });

    it("matches the kinds its examples are", () => {
        const kinds = rule.targets.map((t) => t.kind);
        for (const o of [...rule.examples.pass, ...rule.examples.fail]) expect(kinds).toContain(o.kind);
    });
});
