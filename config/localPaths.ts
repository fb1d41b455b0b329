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
    /** Nothing is there; `link` is the target of a symbolic link at the path that points at nothing. */
    | { readonly kind: "missing"; readonly link?: string }
    /** Something is there that cannot be read as a file: `reason` says what, `fix` how to mend it. */
    | { readonly kind: "unreadable"; readonly reason: string; readonly fix?: string };

/** What is at a path, links followed, without reading it. */
export type PathStatus =
    | { readonly kind: "file"; readonly size: number }
    | { readonly kind: "directory" }
    | { readonly kind: "missing"; readonly link?: string }
    | { readonly kind: "unusable"; readonly reason: string; readonly fix: string };

/** Local files the configuration names (kubeconfigs, certificates, keys) are read up to this size. */
export const MAX_LOCAL_FILE_BYTES = 16 * 1024 * 1024;

/**
 * A path as messages show it: as it is when it is plain, else JSON-quoted, so a space, a newline or a control
 * character in a name stays visible and cannot break the message's line.
 */
export function shownPath(p: string): string {
    return /^[\w@%+=:,./~-]+$/.test(p) ? p : JSON.stringify(p);
}

/** A path as one word of a POSIX shell command (fixes print commands to paste). */
export function shellWord(p: string): string {
    return /^[\w@%+=:,./~-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}

/** Why a system call on `p` failed, in words, with the fix; the code stays in parentheses for searching. */
function unusable(code: string | undefined, p: string, message: string): { kind: "unusable"; reason: string; fix: string } {
    const where = shellWord(p);
    switch (code) {
        case "ELOOP":
            return { kind: "unusable", reason: "is a loop of symbolic links (ELOOP): following them never reaches a file", fix: `see where the links point with ls -l ${where}, and point the link at the real file or folder` };
        case "EACCES":
        case "EPERM":
            return { kind: "unusable", reason: `cannot be reached: permission denied (${code})`, fix: `give your user access to it and to every folder on its way (ls -ld ${where})` };
        case "ENAMETOOLONG":
            return { kind: "unusable", reason: "is too long a name for the file system (ENAMETOOLONG)", fix: "use a shorter path" };
        default:
            return { kind: "unusable", reason: `cannot be examined (${code ?? message})`, fix: `check it with ls -l ${where}` };
    }
}

/** Where a symbolic link at `p` points when it points at nothing; undefined when `p` is no such link. */
function danglingLink(p: string): string | undefined {
    try {
        if (!fs.lstatSync(p).isSymbolicLink()) return undefined;
        return path.resolve(path.dirname(p), fs.readlinkSync(p));
    } catch {
        return undefined;
    }
}

/**
 * What is at `p`, links followed: a file (with its size), a folder, nothing (and the link that points at nothing,
 * if one does), or something no command can use as either — a loop of links, a named pipe (reading one waits for
 * a writer for ever), a socket, a device, a path the user may not reach — said in words with its fix.
 */
export function pathStatus(p: string): PathStatus {
    // No file name holds a NUL (the system would refuse the call with JavaScript's own words); a YAML "\0" can.
    if (p.includes("\0")) return { kind: "unusable", reason: "holds a NUL character, which no file name can", fix: "remove it from the path" };
    let st: fs.Stats;
    try {
        st = fs.statSync(p);
    } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "ENOTDIR") {
            const link = danglingLink(p);
            return link === undefined ? { kind: "missing" } : { kind: "missing", link };
        }
        return unusable(code, p, (e as Error).message);
    }
    if (st.isDirectory()) return { kind: "directory" };
    if (st.isFile()) return { kind: "file", size: st.size };
    const what = st.isFIFO() ? "a named pipe" : st.isSocket() ? "a socket" : st.isCharacterDevice() ? "a character device" : st.isBlockDevice() ? "a block device" : "a special file";
    return { kind: "unusable", reason: `is ${what}, not a regular file`, fix: "point it at a regular file (a pipe or device cannot be read like one)" };
}

/** The first `limit + 1` bytes of a file at most, so that a huge file is told from a large one without reading it all. */
export function readCapped(file: string, limit: number): Buffer {
    const fd = fs.openSync(file, "r");
    try {
        const chunks: Buffer[] = [];
        let total = 0;
        for (;;) {
            const chunk = Buffer.alloc(Math.min(64 * 1024, limit + 1 - total));
            const n = fs.readSync(fd, chunk, 0, chunk.length, null);
            if (n === 0) break;
            chunks.push(chunk.subarray(0, n));
            total += n;
            if (total > limit) break;
        }
        return Buffer.concat(chunks);
    } finally {
        fs.closeSync(fd);
    }
}

/** Reads what is at `file` on this machine: its text, or what is there instead. */
export function inspectLocalPath(file: string): LocalPath {
    const status = pathStatus(file);
    if (status.kind === "unusable") return { kind: "unreadable", reason: status.reason, fix: status.fix };
    if (status.kind !== "file") return status;
    let bytes: Buffer;
    try {
        bytes = readCapped(file, MAX_LOCAL_FILE_BYTES);
    } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "EACCES" || code === "EPERM") {
            return { kind: "unreadable", reason: `cannot be read: permission denied (${code})`, fix: `make it readable by your user (chmod u+r ${shellWord(file)})` };
        }
        const u = unusable(code, file, (e as Error).message);
        return { kind: "unreadable", reason: u.reason, fix: u.fix };
    }
    if (bytes.length > MAX_LOCAL_FILE_BYTES) {
        return { kind: "unreadable", reason: `is larger than ${MAX_LOCAL_FILE_BYTES / 1024 / 1024} MiB, far more than such a file holds`, fix: "point it at the right file" };
    }
    return { kind: "file", text: bytes.toString("utf8") };
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
