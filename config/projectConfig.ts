/**
 * What the Pulumi CLI does with Pulumi.yaml's `config:` block before the program starts, so offline runs see
 * the configuration `pulumi up` delivers. Modelled on the CLI's own merge (pulumi/pulumi,
 * `sdk/go/common/workspace/config.go`: `mergeConfig`, `createConfigValue`, `validateStackConfigValue`, and
 * `RewriteShorthandConfigValues` in `project.go`):
 *
 * - A project key (bare, or `<project>:key`) written as a plain value is a default; a namespaced key written as
 *   a plain value (`pulumi:disable-default-providers: [...]`) is a value. Both are added only where the stack
 *   does not set the key; `default` wins over `value` when a declaration has both.
 * - Added scalars arrive as Go's `%v` text: `3`, `true`, `1.35`; lists and maps as compact JSON.
 * - A project key with neither a default nor a value that the stack does not set stops the run.
 * - Stack values of declared keys are then checked against the declared type (integers must parse as
 *   integers, booleans must be exactly `true` or `false`) and `secret: true` keys must be stored encrypted.
 */
import { parse } from "yaml";
import type { RawConfig } from "./resolve";

/** A `config:` entry of Pulumi.yaml after short-hand values are rewritten. */
interface Declaration {
    type?: "string" | "integer" | "boolean" | "array";
    items?: { type: string; items?: Declaration["items"] };
    default?: unknown;
    value?: unknown;
    secret?: boolean;
}

/** The error the CLI prints when stack config does not fit the project's declarations. */
export class ProjectConfigError extends Error {}

const isPrimitive = (v: unknown) => typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** A value as the CLI stores it in the config map: Go `%v` text for scalars, compact JSON otherwise. */
function configText(value: unknown): string {
    if (isPrimitive(value)) return String(value);
    return JSON.stringify(sortKeys(value));
}

/**
 * Go's encoding/json writes map keys sorted, so the CLI hands the program a stack value that is a mapping as JSON
 * with sorted keys, whatever order the stack file has (shown by the real-engine tier, test/engine/config.test.ts).
 */
export function sortKeys(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(sortKeys);
    if (value && typeof value === "object") {
        return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
    }
    return value;
}

/** Whether a stack value fits a declared type, by the CLI's `ValidateConfigValue` rules. */
function fits(type: string, items: Declaration["items"], value: unknown): boolean {
    switch (type) {
        case "string":
            return typeof value === "string";
        case "integer":
            return (typeof value === "number" && Number.isInteger(value)) || (typeof value === "string" && /^[+-]?\d+$/.test(value));
        case "boolean":
            return typeof value === "boolean" || value === "true" || value === "false";
        default:
            return Array.isArray(value) && items !== undefined && value.every((v) => fits(items.type, items.items, v));
    }
}

const typeName = (d: Declaration): string => (d.items ? `array<${typeName(d.items as Declaration)}>` : d.type!);

/**
 * The raw config the program receives when the CLI runs it with this Pulumi.yaml: project defaults and
 * values merged in, then checked. Throws {@link ProjectConfigError} with the CLI's wording where the CLI
 * would refuse to run.
 */
export function applyProjectConfig(raw: RawConfig, projectYaml: string): RawConfig {
    const project = parse(projectYaml) as { name: string; config?: Record<string, unknown> };
    const values: Record<string, string> = { ...raw.values };
    const missing: string[] = [];
    const declarations: [string, string, Declaration][] = [];
    for (const name of Object.keys(project.config ?? {}).sort()) {
        const entry = project.config![name];
        const key = name.includes(":") ? name : `${project.name}:${name}`;
        const ofProject = key.startsWith(`${project.name}:`);
        const decl: Declaration = isPrimitive(entry) || Array.isArray(entry) ? (ofProject ? { default: entry } : { value: entry }) : (entry as Declaration);
        declarations.push([name, key, decl]);
        if (key in values) continue;
        if (decl.default !== undefined) values[key] = configText(decl.default);
        else if (decl.value !== undefined) values[key] = configText(decl.value);
        else if (ofProject) missing.push(name);
    }
    if (missing.length > 0) {
        const quoted = missing.map((k) => `'${k}'`);
        const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
        throw new ProjectConfigError(`Stack '${raw.stack}' is missing configuration value${missing.length > 1 ? "s" : ""} ${list}`);
    }
    for (const [name, key, decl] of declarations) {
        if (!decl.type || !(key in raw.values)) continue;
        if (decl.secret && !raw.secretKeys.has(key)) {
            throw new ProjectConfigError(`Stack '${raw.stack}' with configuration key '${name}' must be encrypted as it's secret`);
        }
        let content: unknown = raw.values[key];
        // The stack file's lists and maps reach the program as JSON; the CLI checks them as structures.
        if (decl.type === "array") {
            try {
                content = JSON.parse(raw.values[key]!);
            } catch {
                // Not JSON: a plain string, which no array type accepts.
            }
        }
        if (!fits(decl.type, decl.items, content)) {
            throw new ProjectConfigError(`Stack '${raw.stack}' with configuration key '${name}' must be of type '${typeName(decl)}'`);
        }
    }
    return { ...raw, values };
}
