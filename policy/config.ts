/**
 * The pack's configuration: per rule, a level or an object with a level and settings, and `all` for every rule.
 * It is the JSON `pulumi preview --policy-pack-config` reads, so one file configures the pack under Pulumi,
 * `mara plan --policy` offline, and the admission policies.
 */
import { defaultSettings, Level, Rule } from "./rule";

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

/** Problems with a configuration: unknown rules, unknown settings, levels that are not levels. */
export function configProblems(config: PolicyConfig, rules: readonly Rule[]): string[] {
    const levels = ["advisory", "mandatory", "disabled"];
    const out: string[] = [];
    for (const [id, entry] of Object.entries(config)) {
        const rule = rules.find((r) => r.id === id);
        if (!rule && id !== "all") {
            out.push(`"${id}" is not a rule; the rules are ${rules.map((r) => r.id).join(", ")}`);
            continue;
        }
        const level = typeof entry === "string" ? entry : entry?.enforcementLevel;
        if (level !== undefined && !levels.includes(level)) out.push(`"${id}": level "${level}" is not one of ${levels.join(", ")}`);
        if (entry && typeof entry === "object") {
            for (const key of Object.keys(entry)) {
                if (key !== "enforcementLevel" && !(rule && key in (rule.settings as object))) out.push(`"${id}" has no setting "${key}"`);
            }
        }
    }
    return out;
}
