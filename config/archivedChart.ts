/**
 * Which chart a chart archive holds: the `name` and `version` of its top-level `Chart.yaml`, read the way Helm 3
 * reads an archive, so that an archive of another chart or another version under a pinned archive's name is found
 * before Helm installs it.
 *
 * Helm's rule (helm/helm, `pkg/chart/loader/archive.go`, `LoadArchiveFiles`, v3.17–v3.21; the Kubernetes provider's
 * `helm.v3.Release` and `mara render` both load archives with it): the archive is gzip-compressed tar; directory
 * entries and PAX headers are skipped; every other entry's name loses its first path component (the top-level
 * directory, whatever it is called) and is then refused if it is absolute, is empty, starts with `..` or with a drive
 * letter; an entry named `Chart.yaml` at the very top is refused ("chart yaml not in base directory"); no file may be
 * over 5 MiB (`MaxDecompressedFileSize`) nor all files together over 100 MiB (`MaxDecompressedChartSize`).
 * `pkg/chart/loader/load.go` (`LoadFiles`) then reads `Chart.yaml` (the entry whose name is that after the first
 * component) as the chart's metadata, and `pkg/chart/metadata.go` (`Metadata.Validate`) requires its `name` and
 * `version`.
 *
 * Reading stops at the first top-level `Chart.yaml`: `helm package` writes it first, so a valid archive costs a few
 * kilobytes of decompression. Helm would take a later second one instead, which no tool writes; the digest in
 * SHA256SUMS, checked beside this, pins the exact bytes. Reading is bounded in entries and decompressed bytes, so a
 * compression bomb or an archive of a million empty entries ends with a problem, not a hang.
 */
// The default import: `import * as fs` copies fs's properties, and reading fs.promises loads its promise API and readline.
import fs from "fs";
import * as path from "path";
import { parseDocument } from "yaml";

/** Helm's `MaxDecompressedChartSize`: the most file data a chart archive may hold. */
export const HELM_MAX_CHART_BYTES = 100 * 1024 * 1024;
/** Helm's `MaxDecompressedFileSize`: the largest file in a chart archive. */
export const HELM_MAX_FILE_BYTES = 5 * 1024 * 1024;
/** The most decompressed tar bytes read: Helm's limit on file data plus room for the entries' headers. */
export const MAX_TAR_BYTES = HELM_MAX_CHART_BYTES + 16 * 1024 * 1024;
/** The most tar entries read before giving up: charts hold hundreds (kube-prometheus-stack 310). */
export const MAX_ENTRIES = 50_000;
/** PAX headers and GNU long names are kept up to this size, as Go's archive/tar does (`maxSpecialFileSize`). */
const MAX_SPECIAL_BYTES = 1024 * 1024;

/** The chart an archive holds. */
export interface ArchivedChart {
    readonly name: string;
    readonly version: string;
    /** The entry it was read from, such as `nginx-ingress/Chart.yaml`. */
    readonly entry: string;
}

/** How much of an archive was read: the bound tests count instead of timing. */
export interface ReadCounts {
    /** Compressed bytes read from the file. */
    compressed: number;
    /** Decompressed tar bytes examined. */
    tar: number;
    /** Tar entries (headers) examined. */
    entries: number;
}

/** The chart in an archive, or why the archive is not one Helm would load. */
export type ArchivedChartRead =
    | { readonly ok: true; readonly chart: ArchivedChart; readonly read: ReadCounts }
    | { readonly ok: false; readonly problem: string; readonly read: ReadCounts };

/** A tar header, after PAX and GNU long-name records are applied. */
interface TarHeader {
    readonly name: string;
    readonly type: string;
    readonly size: number;
}

const BLOCK = 512;
const padded = (size: number) => Math.ceil(size / BLOCK) * BLOCK;

/** A NUL-terminated string field of a tar header. */
function field(h: Uint8Array, offset: number, length: number): string {
    const bytes = h.subarray(offset, offset + length);
    const end = bytes.indexOf(0);
    return Buffer.from(bytes.subarray(0, end < 0 ? length : end)).toString("utf8");
}

/** A numeric field: octal text, or GNU's base-256 when the high bit of the first byte is set (Go's `parseNumeric`). */
function numeric(h: Uint8Array, offset: number, length: number): number | undefined {
    const bytes = h.subarray(offset, offset + length);
    if (bytes[0]! & 0x80) {
        let n = bytes[0]! & 0x7f;
        for (const b of bytes.subarray(1)) n = n * 256 + b;
        return Number.isSafeInteger(n) ? n : undefined;
    }
    const text = Buffer.from(bytes).toString("latin1").replace(/[\0 ]+$/, "").replace(/^ +/, "");
    if (text === "") return 0;
    return /^[0-7]+$/.test(text) ? parseInt(text, 8) : undefined;
}

/** Whether a header's checksum matches (Go's archive/tar accepts the unsigned and the signed sum). */
function checksumOk(h: Uint8Array): boolean {
    const recorded = numeric(h, 148, 8);
    let unsigned = 0;
    let signed = 0;
    for (let i = 0; i < BLOCK; i++) {
        const b = i >= 148 && i < 156 ? 0x20 : h[i]!;
        unsigned += b;
        signed += b > 127 ? b - 256 : b;
    }
    return recorded === unsigned || recorded === signed;
}

/** PAX records (`<length> <key>=<value>\n`), or undefined when malformed. */
function paxRecords(data: Uint8Array): Map<string, string> | undefined {
    const out = new Map<string, string>();
    const text = Buffer.from(data).toString("utf8");
    for (let at = 0; at < text.length; ) {
        const m = /^(\d+) /.exec(text.slice(at, at + 21));
        if (!m) return undefined;
        const record = Buffer.from(text.slice(at)).subarray(0, Number(m[1])).toString("utf8");
        const eq = record.indexOf("=");
        if (eq < 0 || !record.endsWith("\n")) return undefined;
        out.set(record.slice(m[0].length, eq), record.slice(eq + 1, -1));
        at += record.length;
    }
    return out;
}

/**
 * Why Helm refuses an entry's name, or the name inside the chart (the first path component removed, cleaned as Go's
 * `path.Clean` does).
 */
function chartPath(name: string): { path: string } | { refused: string } {
    const delimiter = name.includes("\\") ? "\\" : "/";
    const parts = name.split(delimiter);
    const rest = parts.slice(1).join("/");
    if (rest.startsWith("/")) return { refused: `entry ${JSON.stringify(name)} is an absolute path (Helm: "chart illegally contains absolute paths")` };
    let clean = path.posix.normalize(rest);
    if (clean.length > 1 && clean.endsWith("/")) clean = clean.slice(0, -1);
    if (clean === ".") return { refused: `entry ${JSON.stringify(name)} is outside a top-level directory (Helm: "chart illegally contains content outside the base directory"); a chart archive holds one folder, the chart's, with every file inside it` };
    if (clean.startsWith("..")) return { refused: `entry ${JSON.stringify(name)} leads out of the chart (Helm: "chart illegally references parent directory")` };
    if (/^[a-zA-Z]:\//.test(clean)) return { refused: `entry ${JSON.stringify(name)} names a drive (Helm: "chart contains illegally named files")` };
    if (parts[0] === "Chart.yaml") return { refused: `entry ${JSON.stringify(name)} is under a Chart.yaml at the top of the archive (Helm: "chart yaml not in base directory")` };
    return { path: clean };
}

/** The name and version a Chart.yaml declares, or what is wrong with it. */
function chartYaml(data: Uint8Array, entry: string): ArchivedChart | string {
    let text = Buffer.from(data).toString("utf8");
    if (text.startsWith("\uFEFF")) text = text.slice(1);
    const parsed = parseDocument(text, { prettyErrors: false });
    const error = parsed.errors[0];
    if (error) {
        const pos = error.linePos?.[0];
        return `its ${entry} is not valid YAML${pos ? ` (line ${pos.line}, column ${pos.col})` : ""}`;
    }
    const doc: unknown = parsed.toJS();
    if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return `its ${entry} is not a mapping of chart settings`;
    const meta = doc as Record<string, unknown>;
    // Helm reads these fields into strings; a YAML number (`version: 1.0`) is taken as its text.
    const text_ = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined);
    const name = text_(meta.name);
    const version = text_(meta.version);
    if (!name) return `its ${entry} has no name (Helm: "chart.metadata.name is required")`;
    if (!version) return `its ${entry} has no version (Helm: "chart.metadata.version is required")`;
    return { name, version, entry };
}

/** Bytes arriving in pieces, taken from the front. */
class ByteQueue {
    private chunks: Uint8Array[] = [];
    private offset = 0;
    length = 0;

    push(chunk: Uint8Array): void {
        if (chunk.length === 0) return;
        this.chunks.push(chunk);
        this.length += chunk.length;
    }

    /** Removes and returns the first `n` bytes (n ≤ length). */
    take(n: number): Uint8Array {
        const out = new Uint8Array(n);
        let filled = 0;
        while (filled < n) {
            const head = this.chunks[0]!;
            const part = head.subarray(this.offset, this.offset + n - filled);
            out.set(part, filled);
            filled += part.length;
            this.offset += part.length;
            if (this.offset === head.length) {
                this.chunks.shift();
                this.offset = 0;
            }
        }
        this.length -= n;
        return out;
    }

    /** Removes up to `n` bytes without copying them; returns how many. */
    drop(n: number): number {
        let dropped = 0;
        while (dropped < n && this.chunks.length > 0) {
            const head = this.chunks[0]!;
            const step = Math.min(n - dropped, head.length - this.offset);
            dropped += step;
            this.offset += step;
            if (this.offset === head.length) {
                this.chunks.shift();
                this.offset = 0;
            }
        }
        this.length -= dropped;
        return dropped;
    }
}

type Outcome = { chart: ArchivedChart } | { problem: string };

/** A tar stream read entry by entry until the top-level Chart.yaml, within the bounds above. */
class ChartYamlScan {
    readonly read: ReadCounts = { compressed: 0, tar: 0, entries: 0 };
    outcome: Outcome | undefined;
    private readonly queue = new ByteQueue();
    /** What the bytes at the front of the queue are. */
    private state:
        | { kind: "header" }
        | { kind: "skip"; left: number }
        | { kind: "keep"; size: number; use: (data: Uint8Array) => void } = { kind: "header" };
    private pax = new Map<string, string>();
    private longName: string | undefined;
    /** File data counted against Helm's chart size limit. */
    private chartBytes = 0;

    feed(chunk: Uint8Array): void {
        if (this.outcome) return;
        this.queue.push(chunk);
        while (!this.outcome) {
            if (this.state.kind === "skip") {
                const dropped = this.queue.drop(this.state.left);
                this.consumed(dropped);
                this.state.left -= dropped;
                if (this.state.left > 0) return;
                this.state = { kind: "header" };
                continue;
            }
            const need = this.state.kind === "header" ? BLOCK : padded(this.state.size);
            if (this.queue.length < need) return;
            const bytes = this.queue.take(need);
            this.consumed(need);
            if (this.state.kind === "keep") {
                const use = this.state.use;
                this.state = { kind: "header" };
                use(bytes);
                continue;
            }
            this.header(bytes);
        }
    }

    /** The decompressed stream ended. */
    end(): void {
        if (this.outcome) return;
        this.outcome = {
            problem:
                this.state.kind === "header" && this.queue.length === 0
                    ? `holds no Chart.yaml in a top-level directory (Helm: "Chart.yaml file is missing")`
                    : "ends in the middle of a tar entry (the archive is cut short)",
        };
    }

    private consumed(n: number): void {
        this.read.tar += n;
        if (this.read.tar > MAX_TAR_BYTES && !this.outcome) {
            this.outcome = { problem: `has no top-level Chart.yaml in its first ${MAX_TAR_BYTES / 1024 / 1024} MiB of tar data; Helm loads no chart over ${HELM_MAX_CHART_BYTES / 1024 / 1024} MiB` };
        }
    }

    private header(h: Uint8Array): void {
        if (h.every((b) => b === 0)) {
            this.outcome = { problem: `holds no Chart.yaml in a top-level directory (Helm: "Chart.yaml file is missing")` };
            return;
        }
        if (++this.read.entries > MAX_ENTRIES) {
            this.outcome = { problem: `has no top-level Chart.yaml among its first ${MAX_ENTRIES.toLocaleString("en-US")} entries` };
            return;
        }
        if (!checksumOk(h)) {
            this.outcome = { problem: `is not a tar archive inside its gzip compression (entry ${this.read.entries} has no valid tar header)` };
            return;
        }
        const size = numeric(h, 124, 12);
        if (size === undefined) {
            this.outcome = { problem: `is not a tar archive inside its gzip compression (entry ${this.read.entries} has no valid size)` };
            return;
        }
        const type = String.fromCharCode(h[156]!);
        const ustar = field(h, 257, 6) === "ustar" && field(h, 263, 2) === "00";
        const prefix = ustar ? field(h, 345, 155) : "";
        let name = prefix ? `${prefix}/${field(h, 0, 100)}` : field(h, 0, 100);
        if (type === "x" || type === "L") {
            if (size > MAX_SPECIAL_BYTES) {
                this.outcome = { problem: `has a ${type === "x" ? "PAX header" : "long name"} of ${size} bytes (Go's archive/tar, which Helm reads archives with, stops at ${MAX_SPECIAL_BYTES})` };
                return;
            }
            this.state = {
                kind: "keep",
                size,
                use: (data) => {
                    const bytes = data.subarray(0, size);
                    if (type === "L") {
                        this.longName = field(bytes, 0, bytes.length);
                        return;
                    }
                    const records = paxRecords(bytes);
                    if (!records) this.outcome = { problem: `is not a valid tar archive (entry ${this.read.entries} is a malformed PAX header)` };
                    else this.pax = records;
                },
            };
            return;
        }
        let entrySize = size;
        if (this.longName !== undefined) name = this.longName;
        const paxPath = this.pax.get("path");
        if (paxPath !== undefined) name = paxPath;
        const paxSize = this.pax.get("size");
        if (paxSize !== undefined && /^\d+$/.test(paxSize)) entrySize = Number(paxSize);
        this.longName = undefined;
        this.pax = new Map();
        this.entry({ name, type, size: entrySize });
    }

    private entry(e: TarHeader): void {
        const skip = () => {
            this.state = { kind: "skip", left: padded(e.size) };
        };
        // Global PAX headers, GNU long link names and directories carry no file (Go's reader and Helm skip them).
        const directory = e.type === "5" || (e.type === "\0" && e.name.endsWith("/"));
        if (e.type === "g" || e.type === "K" || directory) return skip();
        const where = chartPath(e.name);
        if ("refused" in where) {
            this.outcome = { problem: `is not a chart archive Helm loads: ${where.refused}` };
            return;
        }
        if (e.size > HELM_MAX_FILE_BYTES) {
            this.outcome = { problem: `holds ${JSON.stringify(e.name)} of ${e.size} bytes, and Helm loads no chart file over ${HELM_MAX_FILE_BYTES / 1024 / 1024} MiB` };
            return;
        }
        this.chartBytes += e.size;
        if (this.chartBytes > HELM_MAX_CHART_BYTES) {
            this.outcome = { problem: `holds more than ${HELM_MAX_CHART_BYTES / 1024 / 1024} MiB of files before its Chart.yaml, and Helm loads no chart that large` };
            return;
        }
        if (where.path !== "Chart.yaml") return skip();
        const regular = e.type === "0" || e.type === "\0" || e.type === "7";
        if (!regular) {
            this.outcome = { problem: `has ${JSON.stringify(e.name)} as a ${e.type === "2" ? "symbolic link" : e.type === "1" ? "hard link" : "special file"}, not a file, so Helm would read no chart metadata from it` };
            return;
        }
        this.state = {
            kind: "keep",
            size: e.size,
            use: (data) => {
                const found = chartYaml(data.subarray(0, e.size), e.name);
                this.outcome = typeof found === "string" ? { problem: found } : { chart: found };
            },
        };
    }
}

/** Compressed bytes handed to the decompressor at a time: a compression bomb's output per step stays near 16 MiB. */
const STEP = 16 * 1024;

/**
 * Reads the chart an archive holds from `next`, which fills a buffer with the archive's next bytes and returns how
 * many (0 at the end).
 */
function readFrom(next: (into: Uint8Array) => number): ArchivedChartRead {
    const scan = new ChartYamlScan();
    const done = (): ArchivedChartRead => {
        const o = scan.outcome!;
        return "chart" in o ? { ok: true, chart: o.chart, read: scan.read } : { ok: false, problem: o.problem, read: scan.read };
    };
    const buffer = new Uint8Array(64 * 1024);
    let n = next(buffer);
    scan.read.compressed += n;
    // Helm's ensureArchive looks for gzip's signature first; anything else is not a chart archive.
    if (n < 3 || buffer[0] !== 0x1f || buffer[1] !== 0x8b || buffer[2] !== 0x08) {
        scan.outcome = { problem: `is not a gzip-compressed archive (Helm: "does not appear to be a gzipped archive")` };
        return done();
    }
    // fflate is loaded only when an archive is read: `mara validate` otherwise starts without it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Gunzip } = require("fflate") as typeof import("fflate");
    const gunzip = new Gunzip((chunk) => scan.feed(chunk));
    try {
        while (n > 0 && !scan.outcome) {
            for (let at = 0; at < n && !scan.outcome; at += STEP) gunzip.push(buffer.subarray(at, Math.min(at + STEP, n)));
            if (scan.outcome) break;
            n = next(buffer);
            scan.read.compressed += n;
        }
        if (!scan.outcome) {
            gunzip.push(new Uint8Array(0), true);
            scan.end();
        }
    } catch (e) {
        // fflate's own words name the damage ("invalid block type", "unexpected EOF").
        if (!scan.outcome) scan.outcome = { problem: `has damaged gzip data (${(e as Error).message || "cannot be decompressed"})` };
    }
    return done();
}

/** The chart an archive file holds (its top-level Chart.yaml's name and version), or why it holds none Helm would load. */
export function readArchivedChart(file: string): ArchivedChartRead {
    const fd = fs.openSync(file, "r");
    try {
        return readFrom((into) => fs.readSync(fd, into, 0, into.length, null));
    } finally {
        fs.closeSync(fd);
    }
}

/** {@link readArchivedChart} of bytes in memory. */
export function readArchivedChartBytes(bytes: Uint8Array): ArchivedChartRead {
    let at = 0;
    return readFrom((into) => {
        const part = bytes.subarray(at, at + into.length);
        into.set(part);
        at += part.length;
        return part.length;
    });
}
