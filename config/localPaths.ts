/**
 * Local paths the configuration names (a kubeconfig file, a source checkout), resolved the way `pulumi up`
 * resolves them: `~` is the home directory, and a relative path is relative to the project directory, where
 * the Pulumi CLI starts the program, never to the directory a `mara` command happens to be run from. One
 * resolver for `mara validate`, `mara plan` and the program, so all three look at the same file.
 */
// The default import: `import * as fs` copies fs's properties, and reading fs.promises loads its promise API and readline.
import fs from "fs";
import * as path from "path";
import { isLocalPath } from "../contracts/kicSource";

/** What is at a local path. */
export type LocalPath =
    | { readonly kind: "file"; readonly text: string }
    | { readonly kind: "directory" }
    | { readonly kind: "missing" }
    | { readonly kind: "unreadable"; readonly reason: string };

/** Reads what is at `file` on this machine: its text, or what is there instead. */
export function inspectLocalPath(file: string): LocalPath {
    let stat: fs.Stats;
    try {
        stat = fs.statSync(file);
    } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        return code === "ENOENT" || code === "ENOTDIR" ? { kind: "missing" } : { kind: "unreadable", reason: code ?? (e as Error).message };
    }
    if (stat.isDirectory()) return { kind: "directory" };
    try {
        return { kind: "file", text: fs.readFileSync(file, "utf8") };
    } catch (e) {
        return { kind: "unreadable", reason: (e as NodeJS.ErrnoException).code ?? (e as Error).message };
    }
}

/**
 * The absolute path a configured local path names: `~` and `~/…` expand to HOME, a relative path resolves
 * against `baseDir` (the project directory).
 */
export function resolveLocalPath(setting: string, baseDir: string, env: Readonly<Record<string, string | undefined>>): string {
    const home = env.HOME ?? env.USERPROFILE ?? "";
    const expanded = setting === "~" ? home : setting.startsWith("~/") ? path.join(home, setting.slice(2)) : setting;
    return path.resolve(baseDir, expanded);
}

/** A source location split into where it is and which revision it names (`#v5.5.4`). */
export interface SourceLocation {
    /** The URL or path without the `#ref` fragment (and, for `file://` URLs, without the scheme). */
    readonly location: string;
    /** The fragment after `#` (a tag or branch), when there is one. */
    readonly ref?: string;
    /** Whether the location is on this machine (a path, or a `file://` URL). */
    readonly local: boolean;
}

/**
 * Splits a source location: `file:///src/kic#v5.5.4` is the directory `/src/kic` at ref `v5.5.4`;
 * `https://github.com/nginx/kubernetes-ingress.git#v5.5.4` is a remote repository at that tag; `~/kic` and
 * `./kic` are local directories.
 */
export function parseSourceLocation(url: string): SourceLocation {
    const hash = url.indexOf("#");
    const ref = hash >= 0 ? url.slice(hash + 1) || undefined : undefined;
    const base = hash >= 0 ? url.slice(0, hash) : url;
    if (base.startsWith("file://")) return { location: decodeURIComponent(base.slice("file://".length)), ref, local: true };
    return { location: base, ref, local: isLocalPath(base) };
}
