/**
 * Runs a ValidatingAdmissionPolicy the way the API server does, offline: its variables in order, then each
 * validation, over `object` and `request`, with a JavaScript CEL implementation (@marcbachmann/cel-js, a
 * development dependency; docs/dependencies.md says why that one). Kubernetes types the object by its schema;
 * here whole numbers become CEL ints, which is what those fields are, and every other value is dynamic.
 */
import type { KubeObject } from "../../policy/rule";

type CelModule = { Environment: new (opts: Record<string, unknown>) => { evaluate(expr: string, ctx: Record<string, unknown>): unknown; check(expr: string): { valid: boolean; error?: Error } } };

let celModule: Promise<CelModule> | undefined;
/** The CEL implementation; an ES module, so loaded with import(). */
const cel = () => (celModule ??= import("@marcbachmann/cel-js") as unknown as Promise<CelModule>);

/**
 * A JSON value as CEL sees a Kubernetes object: whole numbers are ints, and a field that is null or absent is
 * absent (the API server decodes `volumes: null`, which Helm renders for an empty list, into no field at all).
 */
export function toCel(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(toCel);
    if (typeof value === "number" && Number.isInteger(value)) return BigInt(value);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null).map(([k, v]) => [k, toCel(v)]));
    return value;
}

/** What the policy decided about one object. */
export interface Decision {
    /** True when every validation held. */
    readonly allowed: boolean;
    /** The messages of the validations that did not hold. */
    readonly messages: string[];
    /** An expression that could not be evaluated (the policy's failurePolicy decides what the server does). */
    readonly error?: string;
}

interface PolicySpec {
    variables?: { name: string; expression: string }[];
    validations: { expression: string; message: string }[];
}

/** Evaluates a ValidatingAdmissionPolicy's variables and validations for a CREATE of `object`. */
export async function admit(policy: KubeObject, object: KubeObject): Promise<Decision> {
    const { Environment } = await cel();
    const env = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false });
    const spec = policy.spec as PolicySpec;
    const obj = toCel(JSON.parse(JSON.stringify(object)));
    const request = { operation: "CREATE", namespace: object.metadata?.namespace ?? "default", name: object.metadata?.name ?? "", kind: { kind: object.kind } };
    const variables: Record<string, unknown> = {};
    const ctx = { object: obj, oldObject: null, request, variables };
    try {
        for (const v of spec.variables ?? []) variables[v.name] = env.evaluate(v.expression, ctx);
        const failed = spec.validations.filter((v) => env.evaluate(v.expression, ctx) !== true);
        return { allowed: failed.length === 0, messages: failed.map((v) => v.message) };
    } catch (e) {
        return { allowed: false, messages: [], error: (e as Error).message.split("\n")[0] };
    }
}

/** Every expression of a policy that does not parse and type-check (with every variable dynamic). */
export async function compileProblems(policy: KubeObject): Promise<string[]> {
    const { Environment } = await cel();
    const env = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false });
    const spec = policy.spec as PolicySpec;
    const out: string[] = [];
    for (const e of [...(spec.variables ?? []).map((v) => v.expression), ...spec.validations.map((v) => v.expression)]) {
        try {
            const r = env.check(e);
            if (!r.valid) out.push(`${e}: ${r.error?.message ?? "invalid"}`);
        } catch (err) {
            out.push(`${e}: ${(err as Error).message.split("\n")[0]}`);
        }
    }
    return out;
}
