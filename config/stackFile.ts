/**
 * Reads a `Pulumi.<stack>.yaml` file (ours or MARA's) into the raw form Pulumi would hand the
 * program, so the same validation runs offline: in tests and in `mara validate` / `mara plan`.
 */
import * as fs from "fs";
import { parse } from "yaml";
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
    /** Whether a file exists (a kubeconfig path). Default: this machine's file system. */
    readonly fileExists?: (path: string) => boolean;
}

/**
 * Parses stack file text. Scalars are kept exactly as written (the YAML failsafe schema), as the
 * Pulumi CLI does: `eks:k8s_version: 1.30` stays "1.30", not 1.3. Lists and maps become JSON.
 */
export function parseStackFile(text: string, opts: StackFileOptions = {}): RawConfig {
    const project = opts.project ?? "mara";
    const doc: unknown = parse(text, { schema: "failsafe" }) ?? {};
    if (typeof doc !== "object" || Array.isArray(doc)) throw new Error("The stack file is not a YAML mapping.");
    const config = (doc as Record<string, unknown>).config ?? {};
    if (typeof config !== "object" || config === null || Array.isArray(config)) {
        throw new Error("The stack file's `config` section is not a mapping of keys to values.");
    }
    const values: Record<string, string> = {};
    const secretKeys = new Set<string>();
    for (const [rawKey, value] of Object.entries(config as Record<string, unknown>)) {
        const key = normaliseKey(rawKey, project);
        if (isSecure(value)) {
            secretKeys.add(key);
            values[key] = opts.secrets?.[key] ?? ENCRYPTED_PLACEHOLDER;
        } else {
            values[key] = typeof value === "string" ? value : JSON.stringify(value);
        }
    }
    return { project, stack: opts.stack ?? "dev", values, secretKeys, env: opts.env ?? {}, fileExists: opts.fileExists ?? fs.existsSync };
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
