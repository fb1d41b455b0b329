/**
 * Where a command may write (`mara render --out`, `mara plan --mermaid`/`--dot`), checked before any work is done:
 * a path under a regular file, a link to nothing, a file system that refuses new folders (`/proc`, a read-only mount)
 * or a folder without write permission is refused with the reason, instead of failing after a whole render. Folders
 * are created one level at a time: Node's recursive `mkdir` retries for ever when a file system answers "no such
 * file" for a parent that exists, as `/proc` does.
 */
import * as fs from "fs";
import * as path from "path";
import { shownPath } from "../config/localPaths";

/** Words for the system errors a write can meet. */
const REASONS: Readonly<Record<string, string>> = {
    EACCES: "permission denied",
    EPERM: "the operation is not permitted",
    EROFS: "the file system is read-only",
    ENOENT: "the file system does not accept new entries there",
    ENOSPC: "the disk is full",
    EDQUOT: "the disk quota is used up",
    ENAMETOOLONG: "the name is too long",
    ELOOP: "it is a loop of symbolic links",
    ENOTDIR: "a part of the path is a file",
};

/** A system error in words, with its code. */
export function reasonOf(err: unknown): string {
    const code = (err as NodeJS.ErrnoException)?.code;
    return code ? `${REASONS[code] ?? (err as Error).message} (${code})` : String((err as Error)?.message ?? err);
}

/** What is at a path, without following a last link; undefined when nothing is. */
function lstat(p: string): fs.Stats | undefined {
    try {
        return fs.lstatSync(p);
    } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "ENOTDIR") return undefined;
        throw e;
    }
}

/** The nearest path at or above `p` that exists, with what it is (links followed). */
function nearestExisting(p: string): { path: string; stats: fs.Stats } | undefined {
    for (let d = path.resolve(p); ; d = path.dirname(d)) {
        try {
            return { path: d, stats: fs.statSync(d) };
        } catch (e) {
            const code = (e as NodeJS.ErrnoException).code;
            if (code !== "ENOENT" && code !== "ENOTDIR") throw e;
        }
        if (path.dirname(d) === d) return undefined;
    }
}

/**
 * Why no folder can be created inside `dir` (existing or to be created), or undefined: the nearest existing folder on
 * its path must be a folder and must accept a new folder, which is tried (and removed again) rather than guessed from
 * permission bits.
 */
function creatableUnder(dir: string, shown: string): string | undefined {
    let found: ReturnType<typeof nearestExisting>;
    try {
        found = nearestExisting(dir);
    } catch (e) {
        return `${shown} cannot be written: ${reasonOf(e)}`;
    }
    if (!found) return `${shown} cannot be written: no part of its path exists`;
    if (!found.stats.isDirectory()) return `${shownPath(found.path)} is a file, so ${shown} cannot be written`;
    let probe: string | undefined;
    try {
        probe = fs.mkdtempSync(path.join(found.path, ".mara-write-check-"));
    } catch (e) {
        return `${shown} cannot be written: ${shownPath(found.path)} does not accept new entries: ${reasonOf(e)}`;
    } finally {
        if (probe) fs.rmSync(probe, { recursive: true, force: true });
    }
    return undefined;
}

/** Where a folder is written: the folder itself, or the folder a link at its place points to. */
export interface OutputFolder {
    /** The folder to replace (a link's target, resolved). */
    readonly real: string;
    /** Whether `--out` named a link (which is kept, pointing at the new contents). */
    readonly viaLink: boolean;
}

/**
 * Why `dir` cannot receive a render, or where it goes. Allowed: a missing folder whose parents can be created, an
 * empty folder, an earlier render (holding `marker`), or a link to one of those (the link is kept).
 *
 * @param shown - the path as the user wrote it, for messages.
 */
export function outputFolder(dir: string, marker: string, given = dir): { problem: string } | OutputFolder {
    // A name with a space, a newline or a control character is quoted, so the message says exactly which path.
    const shown = shownPath(given);
    let st: fs.Stats | undefined;
    try {
        st = lstat(dir);
    } catch (e) {
        return { problem: `${shown} cannot be written: ${reasonOf(e)}` };
    }
    let real = path.resolve(dir);
    let viaLink = false;
    if (st?.isSymbolicLink()) {
        let target: string;
        try {
            target = fs.realpathSync(dir);
        } catch (e) {
            // A loop of links is there, but never reaches a folder: it must not be called missing.
            if ((e as NodeJS.ErrnoException).code === "ELOOP") return { problem: `${shown} is a loop of symbolic links (ELOOP): following it never reaches a folder; point the link at a folder (ls -l shows where it points), or choose another --out` };
            return { problem: `${shown} is a link to ${shownPath(path.resolve(path.dirname(dir), fs.readlinkSync(dir)))}, which does not exist; point the link at a folder, or choose another --out` };
        }
        st = fs.statSync(target);
        real = target;
        viaLink = true;
    }
    if (st && !st.isDirectory()) return { problem: `${shown} exists and is not a folder` };
    if (st) {
        const entries = fs.readdirSync(real);
        if (entries.length > 0 && !entries.includes(marker)) {
            return { problem: `${shown} is not empty and was not written by mara render (no ${marker} in it); choose an empty or new folder, so nothing of yours is replaced` };
        }
    }
    // The render is written beside the folder and renamed into place, so its parent must take a new folder.
    const problem = creatableUnder(path.dirname(real), shown);
    return problem ? { problem } : { real, viaLink };
}

/** Why a file cannot be written at `file` (a graph), or undefined. */
export function outputFileProblem(file: string, given = file): string | undefined {
    const shown = shownPath(given);
    let st: fs.Stats | undefined;
    try {
        st = fs.statSync(file);
    } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== "ENOENT" && code !== "ENOTDIR") return `${shown} cannot be written: ${reasonOf(e)}`;
    }
    if (st?.isDirectory()) return `${shown} is a folder`;
    if (st) {
        try {
            fs.accessSync(file, fs.constants.W_OK);
        } catch (e) {
            return `${shown} cannot be written: ${reasonOf(e)}`;
        }
        return undefined;
    }
    return creatableUnder(path.dirname(path.resolve(file)), shown);
}

/** Creates `dir` and its missing parents, one level at a time (see the module comment); an error names the level. */
export function makeDirs(dir: string): void {
    const missing: string[] = [];
    for (let d = path.resolve(dir); !fs.existsSync(d); d = path.dirname(d)) {
        missing.unshift(d);
        if (path.dirname(d) === d) break;
    }
    for (const d of missing) fs.mkdirSync(d);
}
