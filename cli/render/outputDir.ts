/**
 * Writes a render into its folder as a whole: the files go to a fresh folder beside it, which then replaces the old
 * one, so objects dropped since the last render disappear and a reader never sees half of two renders. A folder
 * that holds anything but an earlier render is never replaced.
 */
import * as crypto from "crypto";
import * as fs from "fs";
import * as path from "path";

/** The file that marks a folder as written by `mara render` (so it may be replaced by the next render). */
export const MARKER = ".mara-render";

/** Why `dir` may not be written to, or undefined when it may (missing, empty, or an earlier render). */
export function outputDirProblem(dir: string): string | undefined {
    if (!fs.existsSync(dir)) return undefined;
    if (!fs.statSync(dir).isDirectory()) return `${dir} exists and is not a folder`;
    const entries = fs.readdirSync(dir);
    if (entries.length === 0 || entries.includes(MARKER)) return undefined;
    return `${dir} is not empty and was not written by mara render (no ${MARKER} in it); choose an empty or new folder, so nothing of yours is replaced`;
}

/** Replaces `dir` with exactly `files` (relative paths to text) plus the marker. */
export function writeOutputDir(dir: string, files: ReadonlyMap<string, string>, marker: string): void {
    const problem = outputDirProblem(dir);
    if (problem) throw new Error(problem);
    const parent = path.dirname(path.resolve(dir));
    fs.mkdirSync(parent, { recursive: true });
    const suffix = crypto.randomBytes(6).toString("hex");
    const fresh = path.join(parent, `.${path.basename(dir)}.${suffix}.new`);
    const old = path.join(parent, `.${path.basename(dir)}.${suffix}.old`);
    try {
        for (const [rel, text] of files) {
            const file = path.join(fresh, rel);
            fs.mkdirSync(path.dirname(file), { recursive: true });
            fs.writeFileSync(file, text);
        }
        fs.writeFileSync(path.join(fresh, MARKER), marker);
        if (fs.existsSync(dir)) fs.renameSync(dir, old);
        fs.renameSync(fresh, dir);
    } finally {
        fs.rmSync(fresh, { recursive: true, force: true });
        fs.rmSync(old, { recursive: true, force: true });
    }
}
