/**
 * Reads configuration from the running Pulumi program and validates it once, before any resource is
 * registered. Warnings go to the Pulumi log; problems stop the program with one message listing them all.
 */
// The SDK's modules rather than its index, so that loading config/ (as `mara validate` does) does not load the whole SDK.
import * as log from "@pulumi/pulumi/log";
import { getProject, getStack } from "@pulumi/pulumi/metadata";
import { allConfig } from "@pulumi/pulumi/runtime/config";
import type { MaraConfig } from "./model";
import { ConfigError } from "./configError";
import type { RawConfig } from "./resolve";
import { validateConfig } from "./validate";

// `isConfigSecret` is exported by the SDK's runtime/config module but not declared in its typings.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const runtimeConfig: { isConfigSecret(key: string): boolean } = require("@pulumi/pulumi/runtime/config");

/** Config of the running program, as raw strings, with the keys that were stored encrypted. */
export function runtimeRawConfig(env: Readonly<Record<string, string | undefined>> = process.env): RawConfig {
    const all = allConfig();
    // The SDK keeps its list of secret keys in the same map under a key without a namespace.
    const values = Object.fromEntries(Object.entries(all).filter(([k]) => k.includes(":")));
    const secretKeys = new Set(Object.keys(values).filter((k) => runtimeConfig.isConfigSecret(k)));
    // The Pulumi CLI runs the program in the project directory, which relative paths in the configuration name.
    return { project: getProject(), stack: getStack(), values, secretKeys, env, baseDir: process.cwd() };
}

/**
 * Loads, validates and freezes the program's configuration. Throws a `ConfigError` naming every bad
 * key, its value, what is allowed and how to fix it.
 */
export function loadConfig(raw: RawConfig = runtimeRawConfig()): MaraConfig {
    const result = validateConfig(raw);
    // Not awaited: loadConfig is synchronous, and the SDK keeps the program running until the message is sent
    // (rpcKeepAlive) and catches the send's own failure.
    for (const warning of result.warnings) void log.warn(warning);
    if (!result.config) throw new ConfigError(result.problems);
    return result.config;
}
