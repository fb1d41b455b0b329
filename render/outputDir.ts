/**
 * Writes a render into its folder as a whole: the files go to a fresh folder beside it, which then replaces the old
 * one, so objects dropped since the last render disappear and a reader never sees half of two renders. A folder
 * that holds anything but an earlier render is never replaced; a link named as the folder is kept, and what it points
 * to is replaced. Files the earlier render did not write are carried into the new one (userFiles.ts). Whether the
 * folder can be written at all is checked first (host/outputPath.ts).
 */
import * as crypto from "crypto";
import * as fs from "fs";
import * as path from "path";
import { makeDirs, outputFolder, OutputFolder } from "../host/outputPath";
import { carryOver, filesToKeep, markerText } from "./userFiles";

/** The file that marks a folder as written by `mara render` (so it may be replaced by the next render). */
export const MARKER = ".mara-render";

/**
 * Why `dir` may not be written to, or undefined when it may (missing with creatable parents, empty, an earlier render,
 * or a link to one of those).
 *
 * @param shown - the path as the user wrote it, for the message.
 */
export function outputDirProblem(dir: string, shown = dir): string | undefined {
    const folder = outputFolder(dir, MARKER, shown);
    return "problem" in folder ? folder.problem : undefined;
}

/**
 * Replaces `dir` (or the folder a link at `dir` points to) with `files` (relative paths to text) and the marker,
 * keeping the files an earlier render did not write.
 */
export function writeOutputDir(dir: string, files: ReadonlyMap<string, string>, marker: string): OutputFolder {
    const folder = outputFolder(dir, MARKER);
    if ("problem" in folder) throw new Error(folder.problem);
    const target = folder.real;
    const parent = path.dirname(target);
    makeDirs(parent);
    const kept = fs.existsSync(target) ? filesToKeep(target, MARKER, files) : [];
    const suffix = crypto.randomBytes(6).toString("hex");
    const fresh = path.join(parent, `.${path.basename(target)}.${suffix}.new`);
    const old = path.join(parent, `.${path.basename(target)}.${suffix}.old`);
    try {
        for (const [rel, text] of files) {
            const file = path.join(fresh, rel);
            makeDirs(path.dirname(file));
            fs.writeFileSync(file, text);
        }
        makeDirs(fresh);
        carryOver(target, fresh, kept);
        fs.writeFileSync(path.join(fresh, MARKER), markerText(marker, files.keys()));
        if (fs.existsSync(target)) fs.renameSync(target, old);
        try {
            fs.renameSync(fresh, target);
        } catch (e) {
            // The earlier render goes back in place rather than being lost with the new one.
            if (fs.existsSync(old)) fs.renameSync(old, target);
            throw e;
        }
    } finally {
        fs.rmSync(fresh, { recursive: true, force: true });
        fs.rmSync(old, { recursive: true, force: true });
    }
    return folder;
}
