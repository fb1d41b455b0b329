/**
 * Charts from a local folder of archives instead of their Helm repositories: what an air-gapped install needs,
 * and what lets `pulumi up`, `mara plan` and `mara render` run without a network. The folder holds one archive
 * per chart the stack installs, named as `helm pull` and `helm package` name them (`<chart>-<version>.tgz`),
 * and a `SHA256SUMS` file (`sha256sum *.tgz > SHA256SUMS`) whose digest of each archive must match, so that
 * a truncated copy or a different build of the same version is refused before anything is installed.
 */
import fs from "fs";
import * as path from "path";

/** A chart the stack installs: its name and the version it pins. */
export interface ChartPin {
    readonly chart: string;
    readonly version: string;
}

/** What is wrong with the archive folder for one chart, or with the folder itself. */
export interface ArchiveProblem {
    /** The chart, or undefined when the problem is the folder's. */
    readonly chart?: string;
    readonly problem: string;
}

/** The archive of each pinned chart in `dir`, or the problems that keep them from being used. */
export type ArchiveLookup =
    | { readonly ok: true; readonly archives: ReadonlyMap<string, string> }
    | { readonly ok: false; readonly problems: readonly ArchiveProblem[] };

/** File name of a chart archive, as `helm pull` and `helm package` name it. */
export const chartArchiveName = (pin: ChartPin) => `${pin.chart}-${pin.version}.tgz`;

/** Reads a SHA256SUMS file (as `sha256sum` writes it, text or binary mode) into archive name → digest. */
export function parseChecksums(text: string): { sums: Map<string, string>; malformed: string[] } {
    const sums = new Map<string, string>();
    const malformed: string[] = [];
    for (const line of text.split(/\r?\n/)) {
        if (!line.trim()) continue;
        const m = /^([0-9a-fA-F]{64})\s+\*?(.+)$/.exec(line.trim());
        if (m) sums.set(m[2]!, m[1]!.toLowerCase());
        else malformed.push(line.length > 80 ? `${line.slice(0, 80)}…` : line);
    }
    return { sums, malformed };
}

// crypto is loaded only when a folder is checked: `mara validate` otherwise starts without it (test/cli/startup.test.ts).
const sha256 = (file: string) => (require("crypto") as typeof import("crypto")).createHash("sha256").update(fs.readFileSync(file)).digest("hex");

/**
 * Finds and checks the archive of every pinned chart in `dir` (an absolute path): the folder exists, has a
 * readable SHA256SUMS, and each archive is there, is a file, and matches its recorded digest.
 */
export function lookUpChartArchives(dir: string, pins: readonly ChartPin[]): ArchiveLookup {
    let stat: fs.Stats;
    try {
        stat = fs.statSync(dir);
    } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        return { ok: false, problems: [{ problem: code === "ENOENT" || code === "ENOTDIR" ? "does not exist" : `cannot be read (${code})` }] };
    }
    if (!stat.isDirectory()) return { ok: false, problems: [{ problem: "is not a folder" }] };
    const sumsFile = path.join(dir, "SHA256SUMS");
    let sumsText: string;
    try {
        sumsText = fs.readFileSync(sumsFile, "utf8");
    } catch {
        return { ok: false, problems: [{ problem: "has no readable SHA256SUMS file recording the archives' digests" }] };
    }
    const { sums, malformed } = parseChecksums(sumsText);
    const problems: ArchiveProblem[] = malformed.map((l) => ({ problem: `has a SHA256SUMS line that is not "<sha256> <file>": ${JSON.stringify(l)}` }));
    const archives = new Map<string, string>();
    for (const pin of pins) {
        const name = chartArchiveName(pin);
        const file = path.join(dir, name);
        if (!fs.existsSync(file)) {
            const others = fs.readdirSync(dir).filter((f) => f.startsWith(`${pin.chart}-`) && f.endsWith(".tgz"));
            problems.push({ chart: pin.chart, problem: `has no ${name}${others.length ? ` (it has ${others.join(", ")})` : ""}` });
            continue;
        }
        if (!fs.statSync(file).isFile()) {
            problems.push({ chart: pin.chart, problem: `has ${name}, but it is not a file` });
            continue;
        }
        const recorded = sums.get(name);
        if (!recorded) {
            problems.push({ chart: pin.chart, problem: `has ${name}, but SHA256SUMS records no digest for it` });
            continue;
        }
        const actual = sha256(file);
        if (actual !== recorded) {
            problems.push({ chart: pin.chart, problem: `has ${name}, but its SHA-256 is ${actual}, not the ${recorded} SHA256SUMS records` });
            continue;
        }
        archives.set(pin.chart, file);
    }
    return problems.length ? { ok: false, problems } : { ok: true, archives };
}
