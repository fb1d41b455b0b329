/**
 * Reads a `Pulumi.<stack>.yaml` file (ours or MARA's) into the raw form Pulumi would hand the
 * program, so the same validation runs offline: in tests and in `mara validate` / `mara plan`.
 */
import { ENCRYPTED_PLACEHOLDER } from "./encryptedPlaceholder";
import { Document, isMap, isScalar, LineCounter, parseAllDocuments, visit, YAMLError } from "yaml";
import type { LocalPath } from "./localPaths";
import { sortKeys } from "./projectConfig";
import type { RawConfig } from "./resolve";

export { ENCRYPTED_PLACEHOLDER };

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
    // Duplicate keys are found below, in one pass: the parser's own check compares every key with every other, which
    // takes minutes for a file of 20,000 keys.
    const all = parseAllDocuments(text, { schema: "failsafe", prettyErrors: false, logLevel: "silent", lineCounter: lines, uniqueKeys: false });
    const docs: Document[] = Array.isArray(all) ? all : [];
    const at = (e: YAMLError | number) => {
        const { line, col } = lines.linePos(typeof e === "number" ? e : e.pos[0]);
        return `line ${line}, column ${col}`;
    };
    const error = docs.flatMap((d) => d.errors)[0];
    if (error) throw new StackFileSyntaxError(`${at(error)}: ${error.message.split("\n")[0]}`);
    const duplicate = docs.map(firstDuplicateKey).find((d) => d !== undefined);
    if (duplicate !== undefined) throw new StackFileSyntaxError(`${at(duplicate)}: Map keys must be unique`);
    // The Pulumi CLI reads a stack file's first document and drops the rest without a word: say so instead.
    const held = docs.filter((d) => !isEmptyDocument(d));
    if (held.length > 1) {
        const { line } = lines.linePos(held[1]!.range?.[0] ?? 0);
        throw new StackFileSyntaxError(
            `it holds ${held.length} YAML documents (the second starts at line ${line}), and a stack file is one: the Pulumi CLI would read the first and ignore the rest. ` +
                `Merge them into one \`config:\` mapping, or remove the '---' line and what you did not mean to keep`,
        );
    }
    const parsed = held[0] ?? docs[0] ?? new Document(null);
    const yamlWarnings = parsed.warnings.map((w) => `${at(w)}: ${w.message.split("\n")[0]}`);
    const doc: unknown = parsed.toJS() ?? {};
    if (typeof doc !== "object" || Array.isArray(doc)) {
        throw new Error(`The stack file is ${Array.isArray(doc) ? "a YAML list" : "a single YAML value"}, not a mapping; a stack file is a mapping with a \`config:\` section of keys and values.`);
    }
    const config = (doc as Record<string, unknown>).config ?? {};
    if (typeof config !== "object" || config === null || Array.isArray(config)) {
        throw new Error("The stack file's `config` section is not a mapping of keys to values.");
    }
    const salt = (doc as Record<string, unknown>).encryptionsalt;
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
        stackFile: { encrypted, passphrase: typeof salt === "string", warnings: yamlWarnings, ...(typeof salt === "string" ? { encryptionSalt: salt } : {}) },
    };
}

/** Where the first key that repeats an earlier one of the same mapping starts, or undefined. */
function firstDuplicateKey(doc: Document): number | undefined {
    let found: number | undefined;
    visit(doc, {
        Map(_, map) {
            if (!isMap(map)) return undefined;
            const seen = new Set<unknown>();
            for (const pair of map.items) {
                const key = isScalar(pair.key) ? pair.key.value : pair.key;
                if (seen.has(key)) {
                    found = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
                    return visit.BREAK;
                }
                seen.add(key);
            }
            return undefined;
        },
    });
    return found;
}

/** A document with nothing in it: a trailing `---`, or only comments. */
function isEmptyDocument(d: Document): boolean {
    return d.contents === null || (isScalar(d.contents) && (d.contents.value === null || d.contents.value === ""));
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
