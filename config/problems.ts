/**
 * Configuration problems and the error that carries them. Every problem names the key as the user
 * wrote it, the offending value, what is allowed and a concrete fix, so a failed preview reads as
 * instructions rather than a stack trace.
 */
import { shorten, shortenValue } from "./redact";

/** One thing wrong with the configuration. */
export interface ConfigProblem {
    /** The key as written in the stack file (a MARA key when that is what was set). */
    readonly key: string;
    /** The offending value, or undefined when the key is missing. */
    readonly value?: string;
    /** What is wrong, as a phrase completing "<key> <value> …" ("is not a whole number"). */
    readonly problem: string;
    /** What is accepted. */
    readonly allowed: string;
    /** How to fix it, usually a `pulumi config set` command. */
    readonly fix: string;
}

/** Renders one problem as a single line; a huge value shows its start and its length. */
export function formatProblem(p: ConfigProblem): string {
    const value = p.value === undefined ? "" : ` = ${JSON.stringify(shortenValue(p.value))}`;
    return shorten(`${p.key}${value}: ${p.problem}. Allowed: ${p.allowed}. Fix: ${p.fix}`);
}

/** `pulumi config set` command for a key, with `--secret` and shell quoting where needed. */
export function configSetCommand(key: string, value: string, secret = false): string {
    const quoted = /^[\w.:/@+=,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
    return `pulumi config set ${secret ? "--secret " : ""}${key} ${quoted}`;
}
