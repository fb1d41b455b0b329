/**
 * The pack as Pulumi runs it: every rule's examples, passing and failing, through the policies the pack registers
 * (the same objects `mara plan --policy` runs offline), and the pack's configuration: levels, settings, mistakes.
 */
import { describe, expect, it } from "vitest";
import { checkPolicies } from "../../cli/plan/policyCheck";
import type { RecordedResource } from "../../offline/run";
import { configProblems, resolveRule } from "../../policy/config";
import { packPolicies } from "../../policy/policies";
import type { KubeObject, PulumiResource, Rule } from "../../policy/rule";
import { RULES } from "../../policy/rules";

/** A Kubernetes object as Pulumi registers it: type token from its apiVersion and kind. */
function asResource(o: KubeObject): PulumiResource {
    const [group, version] = o.apiVersion!.includes("/") ? o.apiVersion!.split("/") : ["core", o.apiVersion!];
    return { type: `kubernetes:${group}/${version}:${o.kind}`, name: o.metadata?.name ?? "x", props: o as Record<string, unknown> };
}

/** Resources as a mocked run records them. */
const recorded = (rs: readonly PulumiResource[]): RecordedResource[] =>
    rs.map((r, i) => ({ type: r.type, name: r.name, urn: `urn:pulumi:dev::mara::${r.type}::${r.name}-${i}`, parent: "", custom: true, remote: false, provider: "", dependencies: [], inputs: r.props }));

/** Each example as the stack it is (stack rules) or a stack of one resource. */
function stacks(rule: Rule, which: "pass" | "fail"): PulumiResource[][] {
    if (rule.kind === "stack") return rule.examples[which].map((s) => [...s]);
    if (rule.kind === "resource") return rule.examples[which].map((r) => [r]);
    return rule.examples[which].map((o) => [asResource(o)]);
}

describe.each(RULES.map((r) => [r.id, r] as const))("the pack's %s", (id, rule) => {
    it("passes every passing example", async () => {
        for (const s of stacks(rule, "pass")) expect((await checkPolicies(recorded(s))).violations.filter((v) => v.rule === id), JSON.stringify(s)).toEqual([]);
    });

    it("refuses every failing example, at the rule's level", async () => {
        expect(stacks(rule, "fail").length).toBeGreaterThan(0);
        for (const s of stacks(rule, "fail")) {
            const found = (await checkPolicies(recorded(s))).violations.filter((v) => v.rule === id);
            expect(found.length, JSON.stringify(s)).toBeGreaterThan(0);
            expect(found.every((v) => v.level === rule.level)).toBe(true);
        }
    });
});

describe("the pack's policies", () => {
    it("are one per rule, named by its id, at its level, with its settings' schema and defaults", () => {
        const policies = packPolicies();
        expect(policies.map((p) => p.name)).toEqual(RULES.map((r) => r.id));
        expect(new Set(policies.map((p) => p.name)).size).toBe(policies.length);
        for (const [i, p] of policies.entries()) {
            expect(p.enforcementLevel).toBe(RULES[i]!.level);
            expect(Object.keys(p.configSchema?.properties ?? {})).toEqual(Object.keys(RULES[i]!.settings));
        }
        expect(packPolicies().find((p) => p.name === "host-path-allow-list")!.configSchema!.properties.allowedPaths!).toMatchObject({ type: "array", default: expect.arrayContaining(["/var/log/containers"]) });
    });

    it("have ids of lower-case words and dashes, short enough for a Kubernetes object's name with the mara- prefix", () => {
        for (const r of RULES) expect(r.id).toMatch(/^[a-z][a-z0-9-]{0,56}[a-z0-9]$/);
    });
});

describe("the pack's configuration", () => {
    const hostPathFailure = recorded([asResource(RULES.find((r) => r.id === "host-path-allow-list")!.examples.fail[0] as KubeObject)]);

    it("changes a rule's level, or every rule's with all", async () => {
        expect((await checkPolicies(hostPathFailure, { "host-path-allow-list": "advisory" })).violations.map((v) => v.level)).toEqual(["advisory"]);
        expect((await checkPolicies(hostPathFailure, { all: "advisory" })).violations.map((v) => v.level)).toEqual(["advisory"]);
        expect((await checkPolicies(hostPathFailure, { all: "advisory", "host-path-allow-list": { enforcementLevel: "mandatory" } })).violations.map((v) => v.level)).toEqual(["mandatory"]);
        expect((await checkPolicies(hostPathFailure, { "host-path-allow-list": "disabled" })).violations).toEqual([]);
    });

    it("changes a rule's settings", async () => {
        expect((await checkPolicies(hostPathFailure, { "host-path-allow-list": { allowedPaths: ["/"] } })).violations).toEqual([]);
        expect(resolveRule(RULES.find((r) => r.id === "load-balancer-namespace")!, { "load-balancer-namespace": { namespaces: ["edge"] } }).settings).toEqual({ namespaces: ["edge"] });
    });

    it("names what it does not know", () => {
        expect(configProblems({ "no-such-rule": "advisory", "ingress-tls": "strict" as never, "ingress-class": { className: "x" } }, RULES)).toEqual([
            expect.stringContaining('"no-such-rule" is not a rule; the rules are container-resources, '),
            '"ingress-tls": level "strict" is not one of advisory, mandatory, disabled',
            '"ingress-class" has no setting "className" (its settings: ingressClassName)',
        ]);
        expect(configProblems({ all: "mandatory", "ingress-class": { enforcementLevel: "advisory", ingressClassName: "edge" } }, RULES)).toEqual([]);
    });

    it("refuses values of the wrong type, as pulumi preview --policy-pack-config does, instead of reading them as unset", () => {
        const rules = "the configuration is a list; it must be a mapping of rule ids";
        expect(configProblems(["container-resources"], RULES)).toEqual([expect.stringContaining(rules)]);
        expect(configProblems(null, RULES)[0]).toContain("the configuration is null;");
        expect(configProblems("mandatory", RULES)[0]).toContain('the configuration is a string ("mandatory");');
        expect(configProblems({ "ingress-tls": 1 }, RULES)).toEqual(['"ingress-tls" is a number (1); it must be a level (advisory, mandatory, disabled) or a mapping of enforcementLevel and settings']);
        expect(configProblems({ "ingress-tls": ["mandatory"] }, RULES)[0]).toContain('"ingress-tls" is a list; it must be a level');
        expect(configProblems({ all: true }, RULES)[0]).toContain('"all" is a boolean (true); it must be a level');
        expect(configProblems({ "ingress-tls": { enforcementLevel: 2 } }, RULES)).toEqual(['"ingress-tls": level 2 (a number (2)) is not one of advisory, mandatory, disabled']);
        expect(configProblems({ "ingress-tls": { enforcementLevel: "Mandatory" } }, RULES)).toEqual(['"ingress-tls": level "Mandatory" is not one of advisory, mandatory, disabled']);
        expect(configProblems({ "load-balancer-namespace": { namespaces: "edge" } }, RULES)).toEqual(['"load-balancer-namespace": setting "namespaces" is a string ("edge"); it must be a list of strings']);
        expect(configProblems({ "load-balancer-namespace": { namespaces: ["edge", 7] } }, RULES)).toEqual(['"load-balancer-namespace": setting "namespaces" has an entry 2 that is a number (7); it must be a string']);
        expect(configProblems({ "host-path-allow-list": { allowedPaths: ["var/log"] } }, RULES)).toEqual(['"host-path-allow-list": setting "allowedPaths" has an entry 1 that is "var/log", which does not match ^/']);
        expect(configProblems({ "ingress-class": { ingressClassName: { name: "edge" } } }, RULES)).toEqual(['"ingress-class": setting "ingressClassName" is a mapping; it must be a string']);
        // The neighbours: every setting of the right type passes.
        expect(configProblems({ "load-balancer-namespace": { namespaces: [] }, "host-path-allow-list": { enforcementLevel: "disabled", allowedPaths: ["/var/log"] } }, RULES)).toEqual([]);
    });
});

describe("docs/policy.md", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const text = (require("fs") as typeof import("fs")).readFileSync(require("path").join(__dirname, "..", "..", "docs", "policy.md"), "utf8");

    it("lists every rule at its level", () => {
        for (const r of RULES) expect(text, r.id).toContain(`| \`${r.id}\` | ${r.level} |`);
    });

    it("names every namespace a binding leaves out, and the rules it is exempt from", () => {
        for (const r of RULES) {
            for (const e of r.kind === "kubernetes" ? (r.exemptions ?? []) : []) {
                const row = text.split("\n").find((l) => l.startsWith(`| \`${e.namespace}\` |`));
                expect(row, e.namespace).toBeDefined();
                if (e.namespace !== "kube-system") expect(row, `${e.namespace} ${r.id}`).toContain(`\`${r.id}\``);
            }
        }
    });
});
