/** Helpers that build raw config for tests, from fixture files or inline key maps. */
import * as fs from "fs";
import * as path from "path";
import { parseStackFile, RawConfig, StackFileOptions } from "../../config";

export const FIXTURES = path.join(__dirname, "..", "fixtures");

/** Reads a fixture stack file (by base name, e.g. "mara-aws") into raw config. */
export function fixture(name: string, opts: StackFileOptions = {}): RawConfig {
    const text = fs.readFileSync(path.join(FIXTURES, `Pulumi.${name}.yaml`), "utf8");
    return parseStackFile(text, { stack: "dev", ...opts });
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
