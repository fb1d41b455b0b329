/**
 * Each rule's passing and failing examples, for tests outside this package: a test API server can install
 * `admissionPolicies(...)` and apply these objects, expecting the failing ones refused (in `deny` mode) and the
 * passing ones admitted. The examples live with their rules; this gathers them by rule.
 */
import { POLICY_PREFIX } from "./admission";
import { KUBERNETES_RULES } from "./kubernetes";
import type { KubeObject, PulumiResource } from "./rule";
import { RULES } from "./rules";

/** The examples of one rule about Kubernetes objects. */
export interface KubernetesFixture {
    /** The rule's id. */
    readonly rule: string;
    /** The name of its ValidatingAdmissionPolicy and binding. */
    readonly policyName: string;
    /** The rule's default level: in `deny` mode a mandatory rule refuses its failing objects, an advisory one warns. */
    readonly level: string;
    /** Namespaces its binding leaves out. */
    readonly exemptNamespaces: readonly string[];
    /** Objects the API server admits. */
    readonly pass: readonly KubeObject[];
    /** Objects it refuses (or warns about). */
    readonly fail: readonly KubeObject[];
}

/** The passing and failing objects of every rule about Kubernetes objects (copies: a test may change them). */
export function kubernetesFixtures(): KubernetesFixture[] {
    const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
    return KUBERNETES_RULES.map((r) => ({
        rule: r.id,
        policyName: `${POLICY_PREFIX}${r.id}`,
        level: r.level,
        exemptNamespaces: (r.exemptions ?? []).map((e) => e.namespace),
        pass: copy(r.examples.pass),
        fail: copy(r.examples.fail),
    }));
}

/** The examples of every rule, Pulumi resources for the cloud rules and whole stacks for the stack rules. */
export function ruleFixtures(): { rule: string; kind: string; pass: unknown[]; fail: unknown[] }[] {
    return RULES.map((r) => ({ rule: r.id, kind: r.kind, pass: JSON.parse(JSON.stringify(r.examples.pass)) as (KubeObject | PulumiResource)[], fail: JSON.parse(JSON.stringify(r.examples.fail)) as (KubeObject | PulumiResource)[] }));
}
