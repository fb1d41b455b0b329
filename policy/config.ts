/**
 * The pack's configuration: per rule, a level or an object with a level and settings, and `all` for every rule.
 * It is the JSON `pulumi preview --policy-pack-config` reads, so one file configures the pack under Pulumi,
 * `mara plan --policy` offline, and the admission policies.
 */
import { isMap } from "../contracts/kubeObject";
import { defaultSettings, Level, Rule, RuleSetting } from "./rule";

/** One rule's entry: a level, or a level and settings. */
export type RuleConfig = Level | ({ readonly enforcementLevel?: Level } & Readonly<Record<string, unknown>>);

/** The pack's configuration: rule id (or `all`) → its entry. */
export type PolicyConfig = Readonly<Record<string, RuleConfig | undefined>>;

/** A rule's level and settings once the configuration is applied. */
export interface Resolved<S> {
    readonly level: Level;
    readonly settings: S;
}

/** The level and settings of `rule` under `config`: its own entry, then `all`, then the rule's defaults. */
export function resolveRule<S>(rule: Rule & { readonly settings: unknown }, config: PolicyConfig = {}): Resolved<S> {
    const own = config[rule.id];
    const all = config.all;
    const levelOf = (c: RuleConfig | undefined) => (typeof c === "string" ? c : c?.enforcementLevel);
    const level = levelOf(own) ?? levelOf(all) ?? rule.level;
    const given = typeof own === "object" ? own : {};
    const settings = { ...(defaultSettings(rule) as object) } as Record<string, unknown>;
    for (const key of Object.keys(rule.settings as object)) if (given[key] !== undefined) settings[key] = given[key];
    return { level, settings: settings as S };
}

/** The levels a rule's entry may name. */
export const LEVELS: readonly Level[] = ["advisory", "mandatory", "disabled"];

/**
 * Problems with a configuration: not a mapping of rule ids, unknown rules, an entry that is neither a level nor a
 * mapping, levels that are not levels, unknown settings, and settings whose value does not fit the setting's JSON
 * schema. Pulumi refuses the same file in `pulumi preview --policy-pack-config` (pulumi/pulumi,
 * pkg/resource/analyzer/config.go: an entry "must be a string or object", an enforcement level "must be a string" and
 * one Pulumi knows, and ValidatePolicyPackConfig checks each policy's properties against its configSchema), so `mara
 * plan --policy` and the admission policies refuse it too, rather than reading a number as no level at all.
 */
export function configProblems(config: unknown, rules: readonly Rule[]): string[] {
    if (!isMap(config)) return [`the configuration is ${kindOf(config)}; it must be a mapping of rule ids (or "all") to a level or to a mapping of a level and settings`];
    const out: string[] = [];
    for (const [id, entry] of Object.entries(config)) {
        const rule = rules.find((r) => r.id === id);
        if (!rule && id !== "all") {
            out.push(`"${id}" is not a rule; the rules are ${rules.map((r) => r.id).join(", ")}`);
            continue;
        }
        if (typeof entry !== "string" && !isMap(entry)) {
            out.push(`"${id}" is ${kindOf(entry)}; it must be a level (${LEVELS.join(", ")}) or a mapping of enforcementLevel and settings`);
            continue;
        }
        const level = typeof entry === "string" ? entry : entry.enforcementLevel;
        if (level !== undefined && !(typeof level === "string" && (LEVELS as readonly string[]).includes(level))) {
            out.push(`"${id}": level ${typeof level === "string" ? `"${level}"` : `${JSON.stringify(level)} (${kindOf(level)})`} is not one of ${LEVELS.join(", ")}`);
        }
        if (typeof entry === "string") continue;
        for (const [key, value] of Object.entries(entry)) {
            if (key === "enforcementLevel") continue;
            const setting = rule ? (rule.settings as Record<string, RuleSetting<unknown>>)[key] : undefined;
            if (!setting) {
                out.push(`"${id}" has no setting "${key}"${rule && Object.keys(rule.settings).length ? ` (its settings: ${Object.keys(rule.settings).join(", ")})` : ""}`);
                continue;
            }
            const why = schemaProblem(value, setting.schema as Schema);
            if (why) out.push(`"${id}": setting "${key}" ${why}`);
        }
    }
    return out;
}

/** The part of JSON schema the rules' settings use. */
interface Schema {
    readonly type?: string;
    readonly items?: Schema;
    readonly pattern?: string;
    readonly enum?: readonly unknown[];
}

/** Why `value` does not fit `schema` (type, items, pattern, enum), or undefined. */
function schemaProblem(value: unknown, schema: Schema): string | undefined {
    const fits: Record<string, (v: unknown) => boolean> = {
        string: (v) => typeof v === "string",
        number: (v) => typeof v === "number" && Number.isFinite(v),
        integer: (v) => Number.isInteger(v),
        boolean: (v) => typeof v === "boolean",
        array: Array.isArray,
        object: isMap,
    };
    const wanted = schema.type === "array" ? `a list${schema.items?.type ? ` of ${schema.items.type === "string" ? "strings" : `${schema.items.type} values`}` : ""}` : `${schema.type === "integer" ? "an" : "a"} ${schema.type}`;
    if (schema.type && fits[schema.type] && !fits[schema.type]!(value)) return `is ${kindOf(value)}; it must be ${wanted}`;
    if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) return `is ${JSON.stringify(value)}; it must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(", ")}`;
    if (schema.pattern && typeof value === "string" && !new RegExp(schema.pattern).test(value)) return `is "${value}", which does not match ${schema.pattern}`;
    if (schema.items && Array.isArray(value)) {
        for (const [i, item] of value.entries()) {
            const why = schemaProblem(item, schema.items);
            if (why) return `has an entry ${i + 1} that ${why}`;
        }
    }
    return undefined;
}

/** What a JSON value is, in words. */
function kindOf(v: unknown): string {
    if (v === null) return "null";
    if (Array.isArray(v)) return "a list";
    if (typeof v === "object") return "a mapping";
    if (typeof v === "number") return `a number (${v})`;
    if (typeof v === "boolean") return `a boolean (${v})`;
    if (typeof v === "string") return `a string ("${v}")`;
    return typeof v;
}
