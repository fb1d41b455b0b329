/** Helpers that build raw config for tests, from fixture files or inline key maps. */
import * as fs from "fs";
import * as path from "path";
import { applyProjectConfig, LocalPath, parseStackFile, RawConfig, StackFileOptions } from "../../config";

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
    const raw = parseStackFile(text, { stack: "dev", today: TEST_TODAY, ...opts });
    return opts.projectDefaults === false ? raw : applyProjectConfig(raw, fs.readFileSync(PULUMI_YAML, "utf8"));
}

/** The fixture kubeconfig (one context, `lab-admin`, of cluster `lab`). */
export const KUBECONFIG_TEXT = fs.readFileSync(path.join(FIXTURES, "kubeconfig.yaml"), "utf8");

/** Local files a test config sees: paths (holding the fixture kubeconfig) or paths with their text; directories. */
export interface LocalFiles {
    files?: string[] | Record<string, string>;
    directories?: string[];
}

/** An `inspectPath` that sees only the given files and directories. */
export function localFiles(l: LocalFiles): (p: string) => LocalPath {
    const files = Array.isArray(l.files) ? Object.fromEntries(l.files.map((f) => [f, KUBECONFIG_TEXT])) : (l.files ?? {});
    const dirs = new Set(l.directories ?? []);
    return (p) => (p in files ? { kind: "file", text: files[p]! } : dirs.has(p) ? { kind: "directory" } : { kind: "missing" });
}

/** The day tests check configuration for, so date-dependent rules (which versions EKS creates) are stable. */
export const TEST_DAY = "2026-11-20";
export const TEST_TODAY = new Date(`${TEST_DAY}T00:00:00Z`);

/** Raw config from an inline key map; `secret` lists keys stored encrypted. */
export function rawConfig(
    values: Record<string, string>,
    opts: { secret?: string[]; env?: Record<string, string>; stack?: string; today?: Date; baseDir?: string } & LocalFiles = {},
): RawConfig {
    return {
        project: "mara",
        stack: opts.stack ?? "dev",
        values,
        secretKeys: new Set(opts.secret ?? []),
        env: opts.env ?? {},
        // The listed files and directories only, when a test names some; else this machine's file system.
        inspectPath: opts.files || opts.directories ? localFiles(opts) : undefined,
        baseDir: opts.baseDir,
        today: opts.today ?? TEST_TODAY,
    };
}

/** Minimal valid AWS config plus overrides. */
export function aws(overrides: Record<string, string> = {}, opts: Parameters<typeof rawConfig>[1] = {}): RawConfig {
    return rawConfig({ "kubernetes:infra_type": "aws", "aws:region": "us-east-1", ...overrides }, opts);
}
