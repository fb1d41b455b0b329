/**
 * An add-on of your own, in one place (docs/library.md, "Your own add-on"): its name, its keys, its rules, its
 * mapping from their validated values onto its arguments, and how it is created from the platform's outputs.
 * `loadAddOns` validates every add-on's keys before anything is registered and hands the Platform what it installs
 * (`PlatformArgs.addOns`); a bad value stops the program with the platform's own message.
 */
import type * as pulumi from "@pulumi/pulumi";
// The SDK's log module alone, as config/load.ts does.
import * as log from "@pulumi/pulumi/log";
import type { AddOn, PlatformContext } from "../components/addOn";
import { AddOnKeyTable, AddOnValues, ConfigError, runtimeRawConfig, validateAddOnKeys, type RawConfig } from "../config";
import type { Findings } from "../config/resolve";

/** An add-on unit of your own: everything the platform needs to configure and install it. */
export interface AddOnUnit<K extends AddOnKeyTable, Args> {
    /** The one name: of the Platform's child (`<platform>-<name>`), of `Platform.addOns`'s entry, and, by convention, of its keys' namespace. */
    readonly name: string;
    /** Its configuration keys, declared with `addOnKey` / `addOnSecretKey`, by the ids `args` reads them with. */
    readonly keys: K;
    /** Rules across its keys, reported as every key problem is (`findings.problem({ key, value, problem, allowed, fix })`). */
    check?(values: AddOnValues<K>, keyOf: (id: keyof K) => string, findings: Pick<Findings, "problem" | "warn">): void;
    /** Its arguments from its keys' validated values. */
    args(values: AddOnValues<K>): Args;
    /** Creates it on the platform; pass `opts` (the Platform as parent, with its providers) to its component. */
    create(platform: PlatformContext, args: Args, opts: pulumi.ComponentResourceOptions): pulumi.Resource;
}

/** Declares an add-on unit; the identity, typed, so `args` and `create` agree on the arguments. */
export function defineAddOn<K extends AddOnKeyTable, Args>(unit: AddOnUnit<K, Args>): AddOnUnit<K, Args> {
    return unit;
}

/**
 * Validates the add-ons' keys (and rules) against the stack's configuration and returns what the Platform installs.
 * Throws a `ConfigError` listing every problem of every add-on before any resource is registered; warnings go to the
 * Pulumi log. Call it beside `loadConfig`, before creating anything.
 */
export function loadAddOns(units: readonly AddOnUnit<AddOnKeyTable, unknown>[], raw: RawConfig = runtimeRawConfig()): AddOn[] {
    const results = units.map((u) => ({ u, result: validateAddOnKeys(u.keys, raw, u.check?.bind(u)) }));
    for (const { result } of results) for (const w of result.warnings) void log.warn(w);
    const problems = results.flatMap(({ result }) => result.problems);
    if (problems.length > 0) throw new ConfigError(problems);
    return results.map(({ u, result }) => {
        const args = u.args(result.values!);
        return { name: u.name, create: (platform, opts) => u.create(platform, args, opts) };
    });
}
