/**
 * Loads a module of this package on first use, so a stack loads only the cloud SDKs its path needs.
 * Under Pulumi the program runs through ts-node (or as compiled JavaScript), so a plain require works;
 * a host that transforms modules itself (the test runner) has no `.ts` loader for `require`, and then
 * ts-node is registered, transpile-only, the way Pulumi runs the program.
 */
import * as path from "path";

/** Requires `relative` (as in an import) from `dir`. */
export function lazyRequire<T>(dir: string, relative: string): T {
    const file = path.join(dir, relative);
    try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        return require(file) as T;
    } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND" || require.extensions[".ts"]) throw e;
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        (require("ts-node") as typeof import("ts-node")).register({ transpileOnly: true, project: path.join(__dirname, "..", "tsconfig.json") });
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        return require(file) as T;
    }
}
