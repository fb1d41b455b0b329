/**
 * Charts from a local folder of archives instead of their Helm repositories: what an air-gapped install needs,
 * and what lets `pulumi up`, `mara plan` and `mara render` run without a network. The folder holds one archive
 * per chart the stack installs, named as `helm pull` and `helm package` name them (`<chart>-<version>.tgz`),
 * and a `SHA256SUMS` file (`sha256sum *.tgz > SHA256SUMS`, read as sha256sum reads it: sha256sums.ts). Each archive
 * the stack uses is checked for what it is, not only for its bytes: its `Chart.yaml` must name the pinned chart and
 * version (archivedChart.ts), and its digest must match the one recorded, so that a truncated copy, a different
 * build, or an archive of another chart or version under the pinned name is refused before anything is installed.
 */
// The default import: `import * as fs` copies fs's properties, and reading fs.promises loads its promise API and readline.
import fs from "fs";
import * as path from "path";
import { HELM_MAX_CHART_BYTES, readArchivedChart } from "./archivedChart";
import { pathStatus, readCapped, shellWord, shownPath } from "./localPaths";
import type { ConfigProblem } from "./problems";
import { MAX_CHECKSUM_FILE_BYTES, readChecksumList } from "./sha256sums";

/** A chart the stack installs: its name and the version it pins. */
export interface ChartPin {
    readonly chart: string;
    readonly version: string;
    /** The Helm repository it comes from otherwise, for the `helm pull` a fix suggests. */
    readonly repositoryUrl?: string;
}

/** What is wrong with the archive folder, its SHA256SUMS, or the archive of one chart. */
export interface ArchiveProblem {
    /** What the problem is about. */
    readonly subject: "folder" | "checksums" | "archive";
    /** The chart, for an archive's problem. */
    readonly chart?: string;
    /** What is wrong, completing "the folder …, which" (folder, archive) or "whose SHA256SUMS" (checksums). */
    readonly problem: string;
    /** How to mend it, when it is more particular than rebuilding the folder. */
    readonly fix?: string;
}

/** The archive of each pinned chart in `dir`, or the problems that keep them from being used. */
export type ArchiveLookup =
    | { readonly ok: true; readonly archives: ReadonlyMap<string, string> }
    | { readonly ok: false; readonly problems: readonly ArchiveProblem[] };

/** File name of a chart archive, as `helm pull` and `helm package` name it. */
export const chartArchiveName = (pin: ChartPin) => `${pin.chart}-${pin.version}.tgz`;

/** How many of the checksum list's bad lines a message names. */
const LINES_SHOWN = 5;

/** An archive larger than this cannot hold a chart Helm loads (gzip adds a few bytes per 64 KiB to incompressible data). */
const MAX_ARCHIVE_BYTES = HELM_MAX_CHART_BYTES + 16 * 1024 * 1024;

/** The SHA-256 digest of a file, read in pieces (an archive may be larger than one read can return). */
function sha256(file: string): string {
    // crypto is loaded only when a folder is checked: `mara validate` otherwise starts without it (test/cli/startup.test.ts).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const hash = (require("crypto") as typeof import("crypto")).createHash("sha256");
    const fd = fs.openSync(file, "r");
    try {
        const buffer = Buffer.alloc(1024 * 1024);
        for (let n = fs.readSync(fd, buffer, 0, buffer.length, null); n > 0; n = fs.readSync(fd, buffer, 0, buffer.length, null)) hash.update(buffer.subarray(0, n));
    } finally {
        fs.closeSync(fd);
    }
    return hash.digest("hex");
}

/** The words of an error from reading a file, never JavaScript's own text. */
const readError = (e: unknown) => `cannot be read (${(e as NodeJS.ErrnoException).code ?? "read error"})`;

/** The folder itself: a readable folder, or why not. */
function folderProblem(dir: string): ArchiveProblem | undefined {
    const status = pathStatus(dir);
    if (status.kind === "directory") return undefined;
    if (status.kind === "missing") {
        return { subject: "folder", problem: status.link === undefined ? "does not exist" : `is a symbolic link to ${shownPath(status.link)}, which does not exist`, fix: status.link === undefined ? undefined : `point the link at the folder of archives (ls -l ${shellWord(dir)})` };
    }
    if (status.kind === "file") return { subject: "folder", problem: "is a file, not a folder" };
    return { subject: "folder", problem: status.reason, fix: status.fix };
}

/** What SHA256SUMS records, and whether an archive it does not list is worth its own problem. */
interface Checksums {
    readonly sums: ReadonlyMap<string, string>;
    /** False when the list has problems of its own: rewriting it lists every archive, so "not listed" would be noise. */
    readonly complete: boolean;
}

/**
 * SHA256SUMS read and checked; its problems reported as one, naming a few lines and counting the rest. Undefined when
 * there is no list to read at all, so that each archive is not also reported as unlisted.
 */
function checksumsOf(dir: string, problems: ArchiveProblem[]): Checksums | undefined {
    const file = path.join(dir, "SHA256SUMS");
    const status = pathStatus(file);
    if (status.kind === "missing") {
        problems.push({ subject: "folder", problem: status.link === undefined ? "has no SHA256SUMS file recording the archives' digests" : `has SHA256SUMS as a symbolic link to ${shownPath(status.link)}, which does not exist` });
        return undefined;
    }
    if (status.kind === "directory") {
        problems.push({ subject: "folder", problem: "has a folder named SHA256SUMS where the file of the archives' digests belongs" });
        return undefined;
    }
    if (status.kind === "unusable") {
        problems.push({ subject: "checksums", problem: status.reason, fix: status.fix });
        return undefined;
    }
    let bytes: Buffer;
    try {
        bytes = readCapped(file, MAX_CHECKSUM_FILE_BYTES);
    } catch (e) {
        problems.push({ subject: "checksums", problem: readError(e) });
        return undefined;
    }
    if (bytes.length > MAX_CHECKSUM_FILE_BYTES) {
        problems.push({ subject: "checksums", problem: `is larger than ${MAX_CHECKSUM_FILE_BYTES / 1024 / 1024} MiB; a list of chart archives' digests is a few kilobytes, so this is not one` });
        return undefined;
    }
    const list = readChecksumList(bytes);
    const whole = list.problems.find((p) => p.line === 0);
    if (whole) {
        problems.push({ subject: "checksums", problem: whole.problem });
        return undefined;
    }
    // One problem for the whole list, naming a few lines: a file of a million bad lines reads as one short paragraph.
    const total = list.problems.length + list.moreProblems;
    if (total > 0) {
        const shown = list.problems.slice(0, LINES_SHOWN).map((p) => `line ${p.line}: ${p.problem}`);
        const rest = total - shown.length;
        problems.push({
            subject: "checksums",
            problem: `has ${total === 1 ? "a line" : `${total.toLocaleString("en-US")} lines`} that sha256sum --check cannot use or that name no archive of this folder: ${shown.join("; ")}${rest > 0 ? `; and ${rest.toLocaleString("en-US")} more` : ""}`,
        });
    }
    return { sums: list.sums, complete: total === 0 };
}

/** The command that fetches a pinned chart's archive, as `helm pull` takes an OCI reference or a repository. */
function pullCommand(pin: ChartPin): string {
    const repo = pin.repositoryUrl ?? "<its repository>";
    return repo.startsWith("oci://") ? `helm pull ${repo.replace(/\/$/, "")}/${pin.chart} --version ${pin.version}` : `helm pull ${pin.chart} --repo ${repo} --version ${pin.version}`;
}

/** Other versions of a chart in the folder, for the message about a missing one (a few, then a count). */
function otherVersions(dir: string, pin: ChartPin): string {
    let names: string[];
    try {
        names = fs.readdirSync(dir).filter((f) => f.startsWith(`${pin.chart}-`) && f.endsWith(".tgz") && f !== chartArchiveName(pin));
    } catch {
        return "";
    }
    if (names.length === 0) return "";
    const shown = names.sort().slice(0, 5).map(shownPath).join(", ");
    return ` (it has ${shown}${names.length > 5 ? ` and ${names.length - 5} more` : ""})`;
}

/** The archive of one pinned chart: there, a file, the pinned chart and version inside, listed, and its digest matching. */
function archiveProblem(dir: string, pin: ChartPin, checksums: Checksums | undefined): ArchiveProblem | undefined {
    const name = chartArchiveName(pin);
    const file = path.join(dir, name);
    const bad = (problem: string, fix?: string): ArchiveProblem => ({ subject: "archive", chart: pin.chart, problem, fix });
    const status = pathStatus(file);
    if (status.kind === "missing") return bad(status.link === undefined ? `has no ${name}${otherVersions(dir, pin)}` : `has ${name} as a symbolic link to ${shownPath(status.link)}, which does not exist`);
    if (status.kind === "directory") return bad(`has ${name}, but it is a folder, not a chart archive`);
    if (status.kind === "unusable") return bad(`has ${name}, which ${status.reason}`, status.fix);
    if (status.size > MAX_ARCHIVE_BYTES) return bad(`has ${name}, which is ${Math.round(status.size / 1024 / 1024)} MiB, more than any chart Helm loads (${HELM_MAX_CHART_BYTES / 1024 / 1024} MiB of files)`);
    let inside: ReturnType<typeof readArchivedChart>;
    try {
        inside = readArchivedChart(file);
    } catch (e) {
        return bad(`has ${name}, which ${readError(e)}`);
    }
    const pull = `put the archive of ${pin.chart} ${pin.version} there (${pullCommand(pin)}) and list its digest in SHA256SUMS`;
    if (!inside.ok) return bad(`has ${name}, which ${inside.problem}`, pull);
    const { chart } = inside;
    if (chart.name !== pin.chart || chart.version !== pin.version) {
        const what = chart.name !== pin.chart ? `chart ${chart.name} ${chart.version}` : `version ${chart.version} of ${chart.name}`;
        return bad(`has ${name}, but it holds ${what} (its ${chart.entry}), not ${pin.chart} ${pin.version}, which the stack pins`, pull);
    }
    // Without a readable SHA256SUMS (its own problem) there is no digest to compare.
    const recorded = checksums?.sums.get(name);
    if (!recorded) return checksums?.complete ? bad(`has ${name}, but SHA256SUMS records no digest for it`) : undefined;
    let actual: string;
    try {
        actual = sha256(file);
    } catch (e) {
        return bad(`has ${name}, which ${readError(e)}`);
    }
    if (actual !== recorded) return bad(`has ${name}, but its SHA-256 is ${actual}, not the ${recorded} SHA256SUMS records`);
    return undefined;
}

/**
 * Finds and checks the archive of every pinned chart in `dir` (an absolute path): the folder exists, has a
 * readable SHA256SUMS that sha256sum could have written, and each archive is there, is a file, holds the pinned
 * chart and version, is listed, and matches its recorded digest.
 */
export function lookUpChartArchives(dir: string, pins: readonly ChartPin[]): ArchiveLookup {
    const folder = folderProblem(dir);
    if (folder) return { ok: false, problems: [folder] };
    const problems: ArchiveProblem[] = [];
    const checksums = checksumsOf(dir, problems);
    const archives = new Map<string, string>();
    for (const pin of pins) {
        const problem = archiveProblem(dir, pin, checksums);
        if (problem) problems.push(problem);
        else archives.set(pin.chart, path.join(dir, chartArchiveName(pin)));
    }
    return problems.length ? { ok: false, problems } : { ok: true, archives };
}

/** What the folder must hold, in the words messages use after "Allowed:". */
export const CHART_ARCHIVE_DIR_ALLOWED = "a folder with <chart>-<version>.tgz for every chart the stack installs and a SHA256SUMS file of their digests";

/**
 * The problems of a lookup as configuration problems of `key`: each names the folder as resolved, what is wrong and
 * the fix; the checksum file's own problems are few (the lookup lists ten and counts the rest).
 *
 * @param setting - the key's value as the user wrote it; `dir` is it resolved.
 */
export function chartArchiveProblems(problems: readonly ArchiveProblem[], key: string, setting: string, dir: string): ConfigProblem[] {
    const shown = shownPath(dir);
    const remote = `pulumi config rm ${key} to fetch charts from their repositories`;
    const rebuild = `put the archives there (\`helm pull <chart> --repo <url> --version <version>\`) and run \`sha256sum *.tgz > SHA256SUMS\` in it, or ${remote}`;
    const rewrite = `write it as sha256sum does: cd ${shellWord(dir)} && sha256sum *.tgz > SHA256SUMS`;
    return problems.map((p) => ({
        key,
        value: setting,
        problem:
            p.subject === "checksums"
                ? `names the folder ${shown}, whose SHA256SUMS ${p.problem}`
                : `${p.chart ? `(chart ${p.chart}) ` : ""}names the folder ${shown}, which ${p.problem}`,
        allowed: CHART_ARCHIVE_DIR_ALLOWED,
        fix: p.subject === "checksums" ? (p.fix ? `${p.fix}; or ${rewrite}` : rewrite) : p.fix ? `${p.fix}; or ${remote}` : rebuild,
    }));
}
