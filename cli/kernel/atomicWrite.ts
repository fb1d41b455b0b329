/** Writes a file so that readers see the old or the new contents, never half of either. */
import * as crypto from "crypto";
import * as fs from "fs";
import * as path from "path";

/**
 * Writes `text` to `file` through a temporary file in the same directory and a rename, with the given
 * mode (the file is created with it, so credentials are never readable by others, even briefly). A
 * symlink is followed, so a kubeconfig linked from elsewhere stays linked.
 */
export function writeFileAtomic(file: string, text: string, mode = 0o600): void {
    const target = fs.existsSync(file) ? fs.realpathSync(file) : file;
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${crypto.randomBytes(6).toString("hex")}.tmp`);
    const fd = fs.openSync(tmp, "wx", mode);
    try {
        fs.writeFileSync(fd, text);
        fs.fsyncSync(fd);
    } finally {
        fs.closeSync(fd);
    }
    try {
        fs.chmodSync(tmp, mode); // the umask may have narrowed it; never widened, but make it exact
        fs.renameSync(tmp, target);
    } catch (err) {
        fs.rmSync(tmp, { force: true });
        throw err;
    }
}
