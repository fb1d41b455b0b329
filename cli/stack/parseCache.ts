/**
 * A parse remembered on disk by the exact text it was given: the next process reading the same text gets the
 * result as JSON instead of parsing again. For Pulumi.yaml, whose 16 kB a cold YAML parser takes longer to read
 * than the rest of `mara validate` takes to run; the text changes only when `npm run gen` rewrites it.
 */
// The default import: `import * as fs` copies fs's properties, and reading fs.promises loads its promise API and readline.
import fs from "fs";
import * as path from "path";
import { PROJECT_DIR } from "../kernel/io";

/** Where the entries live: ignored with node_modules, next to the compiled-module caches of bin/tsLoader.js. */
export const PARSE_CACHE_DIR = path.join(PROJECT_DIR, "node_modules", ".cache", "mara-parsed");

/**
 * `parse(text)`, or the result an earlier process stored for exactly this `text` under `name`.
 *
 * @param name - the entry's file name in the cache (one entry per name; a new text replaces it).
 * @param parse - a pure function whose result survives JSON unchanged.
 * @param dir - the cache folder; a folder that cannot be written only costs the parse next time.
 */
export function cachedParse<T>(name: string, text: string, parse: (text: string) => T, dir: string = PARSE_CACHE_DIR): T {
    const entry = path.join(dir, `${name}.json`);
    try {
        const stored = JSON.parse(fs.readFileSync(entry, "utf8")) as { text: string; result: T };
        if (stored.text === text) return stored.result;
    } catch {
        // no entry yet, or an unreadable one: parse
    }
    const result = parse(text);
    try {
        fs.mkdirSync(dir, { recursive: true });
        const tmp = `${entry}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, JSON.stringify({ text, result }));
        fs.renameSync(tmp, entry);
    } catch {
        // read-only checkout: nothing remembered
    }
    return result;
}
