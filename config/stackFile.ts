/**
 * Reads a `Pulumi.<stack>.yaml` file (ours or MARA's) into the raw form Pulumi would hand the
 * program, so the same validation runs offline: in tests and in `mara validate` / `mara plan`.
 */
import { LineCounter, parseDocument, YAMLError } from "yaml";
import type { LocalPath } from "./localPaths";
import { sortKeys } from "./projectConfig";
import type { RawConfig } from "./resolve";

/** Stand-in for values stored encrypted (`secure:`), which cannot be decrypted offline. */
export const ENCRYPTED_PLACEHOLDER = "<encrypted>";

/** Options for reading a stack file. */
export interface StackFileOptions {
    /** Pulumi project name (the namespace of bare keys). Default "mara". */
    readonly project?: string;
    /** Stack name. Default "dev". */
    readonly stack?: string;
    /** Plain values for keys stored encrypted, when known (tests); otherwise a placeholder is used. */
    readonly secrets?: Readonly<Record<string, string>>;
    /** Environment consulted for credentials and region. Default: empty. */
    readonly env?: Readonly<Record<string, string | undefined>>;
    /** What is at a local path (a kubeconfig). Default: this machine's file system. */
    readonly inspectPath?: (path: string) => LocalPath;
    /** The project directory, which relative paths in the configuration are relative to. Default: the working directory. */
    readonly baseDir?: string;
    /** The day the configuration is checked for. Default: now. */
    readonly today?: Date;
}

/** A stack file the YAML parser cannot read, with where. No part of the file's text is quoted (it may hold secrets). */
export class StackFileSyntaxError extends Error {}

/**
 * Parses stack file text. Scalars are kept exactly as written (the YAML failsafe schema), as the
 * Pulumi CLI does: `eks:k8s_version: 1.30` stays "1.30", not 1.3. Lists and maps become JSON. What the YAML
 * parser would warn about is returned in `stackFile.warnings` (never printed by the parser itself), and syntax
 * errors name the line and column without quoting the file, which may hold plain-text secrets.
 */
export function parseStackFile(text: string, opts: StackFileOptions = {}): RawConfig {
    const project = opts.project ?? "mara";
    const lines = new LineCounter();
    // Not prettyErrors: those quote the offending line, which may be a plain-text secret.
    const parsed = parseDocument(text, { schema: "failsafe", prettyErrors: false, logLevel: "silent", lineCounter: lines });
    const at = (e: YAMLError) => {
        const { line, col } = lines.linePos(e.pos[0]);
        return `line ${line}, column ${col}`;
    };
    if (parsed.errors.length > 0) {
        const e = parsed.errors[0]!;
        throw new StackFileSyntaxError(`${at(e)}: ${e.message.split("\n")[0]}`);
    }
    const yamlWarnings = parsed.warnings.map((w) => `${at(w)}: ${w.message.split("\n")[0]}`);
    const doc: unknown = parsed.toJS() ?? {};
    if (typeof doc !== "object" || Array.isArray(doc)) throw new Error("The stack file is not a YAML mapping.");
    const config = (doc as Record<string, unknown>).config ?? {};
    if (typeof config !== "object" || config === null || Array.isArray(config)) {
        throw new Error("The stack file's `config` section is not a mapping of keys to values.");
    }
    const values: Record<string, string> = {};
    const secretKeys = new Set<string>();
    const encrypted: Record<string, unknown> = {};
    for (const [rawKey, value] of Object.entries(config as Record<string, unknown>)) {
        const key = normaliseKey(rawKey, project);
        if (isSecure(value)) {
            secretKeys.add(key);
            encrypted[key] = (value as { secure: unknown }).secure;
            values[key] = opts.secrets?.[key] ?? ENCRYPTED_PLACEHOLDER;
        } else {
            values[key] = typeof value === "string" ? value : JSON.stringify(sortKeys(value));
        }
    }
    return {
        project,
        stack: opts.stack ?? "dev",
        values,
        secretKeys,
        env: opts.env ?? {},
        inspectPath: opts.inspectPath,
        baseDir: opts.baseDir,
        today: opts.today,
        stackFile: { encrypted, passphrase: typeof (doc as Record<string, unknown>).encryptionsalt === "string", warnings: yamlWarnings },
    };
}

/**
 * Normalises a key as the Pulumi CLI does: `proj:config:key` is the legacy spelling of `proj:key`, and a
 * key without a namespace belongs to the project.
 */
function normaliseKey(key: string, project: string): string {
    const parts = key.split(":");
    if (parts.length === 1) return `${project}:${key}`;
    return parts.length === 3 && parts[1] === "config" ? `${parts[0]}:${parts[2]}` : key;
}

function isSecure(value: unknown): boolean {
    return typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 && "secure" in value;
}
