/** Helpers that build raw config for tests, from fixture files or inline key maps. */
import * as fs from "fs";
import * as path from "path";
import { applyProjectConfig, parseStackFile, RawConfig, StackFileOptions } from "../../config";

export const FIXTURES = path.join(__dirname, "..", "fixtures");
/** The project file whose `config:` defaults the Pulumi CLI merges into every stack's config. */
export const PULUMI_YAML = path.join(__dirname, "..", "..", "Pulumi.yaml");

/** Options of {@link fixture}. */
export interface FixtureOptions extends StackFileOptions {
    /**
     * Merge Pulumi.yaml's `config:` defaults in, as `pulumi up` and `pulumi preview` do before the program starts.
     * Default true: tests see the configuration the program really receives.
     */
    readonly projectDefaults?: boolean;
}

/** Reads a fixture stack file (by base name, e.g. "mara-aws") into raw config, as the Pulumi CLI delivers it. */
export function fixture(name: string, opts: FixtureOptions = {}): RawConfig {
    return stackFile(fs.readFileSync(path.join(FIXTURES, `Pulumi.${name}.yaml`), "utf8"), opts);
}

/** Stack file text to raw config, with the project defaults merged in unless `projectDefaults` is false. */
export function stackFile(text: string, opts: FixtureOptions = {}): RawConfig {
    const raw = parseStackFile(text, { stack: "dev", ...opts });
    return opts.projectDefaults === false ? raw : applyProjectConfig(raw, fs.readFileSync(PULUMI_YAML, "utf8"));
}

/** Raw config from an inline key map; `secret` lists keys stored encrypted. */
export function rawConfig(
    values: Record<string, string>,
    opts: { secret?: string[]; env?: Record<string, string>; stack?: string; files?: string[] } = {},
): RawConfig {
    const files = new Set(opts.files ?? []);
    return { project: "mara", stack: opts.stack ?? "dev", values, secretKeys: new Set(opts.secret ?? []), env: opts.env ?? {}, fileExists: (p) => files.has(p) };
}

/** Minimal valid AWS config plus overrides. */
export function aws(overrides: Record<string, string> = {}, opts: { secret?: string[]; env?: Record<string, string>; files?: string[] } = {}): RawConfig {
    return rawConfig({ "kubernetes:infra_type": "aws", "aws:region": "us-east-1", ...overrides }, opts);
}
