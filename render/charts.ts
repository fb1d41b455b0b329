/**
 * The chart archives Helm renders: the vendored ones in test/charts/ (every version contracts/charts.ts pins, with
 * SHA256SUMS and provenance; `mara` runs from a clone of the repository, so they are always there), and for a
 * version nobody vendored (a stack that overrides a pin) an archive `helm pull` fetched into a cache. Also what is
 * inside an archive (default values of the chart and its subcharts, values.schema.json, CRDs), unpacked once into
 * a cache.
 */
import { execFileSync } from "child_process";
import * as crypto from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parse, parseAllDocuments } from "yaml";
import { helmBinary, ROOT } from "./helm";
import { MAX_CHECKSUM_FILE_BYTES, readChecksumList } from "../config/sha256sums";
import { isMap, type KubeObject } from "../contracts/kubeObject";

/** Where the vendored chart archives and their SHA256SUMS and provenance live. */
export const CHARTS_DIR = path.join(ROOT, "test", "charts");

/**
 * Cache for unpacked and pulled charts: node_modules/.cache (a fresh `npm ci` starts it anew), else, before any
 * install, `$XDG_CACHE_HOME/mara` or `~/.cache/mara`.
 */
export function chartCacheDir(env: NodeJS.ProcessEnv = process.env): string {
    if (fs.existsSync(path.join(ROOT, "node_modules"))) return path.join(ROOT, "node_modules", ".cache", "mara-charts");
    return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "mara", "charts");
}
const UNPACKED = path.join(chartCacheDir(), "unpacked");

/** File name of a chart archive, as `helm pull` and `helm package` name it. */
export const archiveName = (chart: string, version: string) => `${chart}-${version}.tgz`;

/** Path of the vendored archive of a chart version, or undefined when none is vendored. */
export function vendoredChart(chart: string, version: string): string | undefined {
    const p = path.join(CHARTS_DIR, archiveName(chart, version));
    return fs.existsSync(p) ? p : undefined;
}

/** Where a chart version comes from, and where its archive is when it is not vendored. */
export interface ChartSource {
    chart: string;
    version: string;
    /** Helm repository URL (`oci://` repositories included), as the release gives it. */
    repositoryUrl: string;
}

/** Raised when a chart version is neither vendored nor cached and `helm pull` could not fetch it. */
export class ChartUnavailableError extends Error {
    constructor(message: string) {
        super(message);
        this.name = "ChartUnavailableError";
    }
}

/**
 * The archive of a chart version: the vendored one (its digest checked against SHA256SUMS), else one pulled earlier
 * into the cache, else `helm pull` of exactly that version into the cache.
 *
 * @throws ChartUnavailableError naming the chart, version and repository, the command that fetches it, and the
 *   vendored versions, when it cannot be had (typically: no network).
 * @throws Error when a vendored archive does not match its recorded digest.
 */
export function chartArchive(src: ChartSource, env: NodeJS.ProcessEnv = process.env): string {
    const vendored = vendoredChart(src.chart, src.version);
    if (vendored) {
        const recorded = recordedChecksums().get(path.basename(vendored));
        const actual = sha256(vendored);
        if (recorded !== actual) throw new Error(`${vendored} does not match its SHA256SUMS digest (${recorded ?? "none recorded"}, file has ${actual}); restore it from the package or the repository.`);
        return vendored;
    }
    const pulledDir = path.join(chartCacheDir(env), "pulled");
    const file = path.join(pulledDir, archiveName(src.chart, src.version));
    if (fs.existsSync(file)) return file;
    const oci = src.repositoryUrl.startsWith("oci://");
    const args = oci ? ["pull", `${src.repositoryUrl.replace(/\/$/, "")}/${src.chart}`, "--version", src.version] : ["pull", src.chart, "--repo", src.repositoryUrl, "--version", src.version];
    fs.mkdirSync(pulledDir, { recursive: true });
    const tmp = fs.mkdtempSync(path.join(pulledDir, ".pull-"));
    try {
        execFileSync(helmBinary(env).path, [...args, "--destination", tmp], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 });
        const [got] = fs.readdirSync(tmp).filter((f) => f.endsWith(".tgz"));
        if (!got) throw new Error("helm pull wrote no archive");
        fs.renameSync(path.join(tmp, got), file);
        return file;
    } catch (e) {
        const err = e as { stderr?: string; message: string };
        const why = (err.stderr || err.message).trim().split("\n").at(-1);
        const vendoredVersions = fs.existsSync(CHARTS_DIR) ? fs.readdirSync(CHARTS_DIR).filter((f) => f.startsWith(`${src.chart}-`) && f.endsWith(".tgz")).map((f) => f.slice(src.chart.length + 1, -4)) : [];
        throw new ChartUnavailableError(
            `chart ${src.chart} ${src.version} is not vendored (${vendoredVersions.length ? `vendored: ${vendoredVersions.join(", ")}` : "no version of it is vendored"}) and \`helm ${args.join(" ")}\` failed: ${why}. ` +
                `Fetch it with that command where there is network access and put ${archiveName(src.chart, src.version)} in ${pulledDir}, or pin a vendored version.`,
        );
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
}

/** SHA256SUMS as a map from archive name to digest. */
export function recordedChecksums(dir = CHARTS_DIR): Map<string, string> {
    // The same reader as mara:chartArchiveDir's (config/sha256sums.ts): sha256sum's own forms, bounded, and a problem in
    // words rather than a raw line thrown at the user.
    const file = path.join(dir, "SHA256SUMS");
    const fd = fs.openSync(file, "r");
    let bytes: Buffer;
    try {
        bytes = Buffer.alloc(MAX_CHECKSUM_FILE_BYTES + 1);
        bytes = bytes.subarray(0, fs.readSync(fd, bytes, 0, bytes.length, 0));
    } finally {
        fs.closeSync(fd);
    }
    if (bytes.length > MAX_CHECKSUM_FILE_BYTES) throw new Error(`${file} is larger than ${MAX_CHECKSUM_FILE_BYTES} bytes, far more than a list of chart archives; restore it from the package or the repository.`);
    const list = readChecksumList(bytes);
    const first = list.problems[0];
    if (first) {
        const more = list.problems.length - 1 + list.moreProblems;
        throw new Error(`${file}: ${first.line > 0 ? `line ${first.line}: ` : ""}${first.problem}${more > 0 ? ` (and ${more} more problem${more === 1 ? "" : "s"})` : ""}; restore it from the package or the repository.`);
    }
    return new Map(list.sums);
}

/** The SHA-256 digest of a file. */
export const sha256 = (file: string) => crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");

/** What a chart archive holds that the render checks need. */
export interface ChartContents {
    /** Directory the archive was unpacked into (the chart's own directory). */
    dir: string;
    /** Chart.yaml. */
    meta: { name: string; version: string; appVersion?: string; dependencies?: { name: string; alias?: string; condition?: string }[] };
    /** Default values: the chart's values.yaml with each subchart's defaults under its name or alias. */
    defaults: Record<string, unknown>;
    /** values.schema.json, when the chart has one. */
    schema?: Record<string, unknown>;
}

const contents = new Map<string, ChartContents>();

/** Unpacks (once) and reads a vendored chart archive. */
export function chartContents(archive: string): ChartContents {
    let hit = contents.get(archive);
    if (hit) return hit;
    const base = path.basename(archive, ".tgz");
    const target = path.join(UNPACKED, `${base}-${sha256(archive).slice(0, 12)}`);
    const complete = () => fs.existsSync(path.join(target, ".complete"));
    if (!complete()) {
        // Unpacked beside the target and renamed into place, so test files running side by side never see half a chart.
        const tmp = `${target}.${process.pid}.tmp`;
        fs.rmSync(tmp, { recursive: true, force: true });
        fs.mkdirSync(tmp, { recursive: true });
        execFileSync("tar", ["-xzf", archive, "-C", tmp]);
        fs.writeFileSync(path.join(tmp, ".complete"), "");
        try {
            fs.renameSync(tmp, target);
        } catch {
            if (complete()) {
                // Another test process unpacked the same archive first.
                fs.rmSync(tmp, { recursive: true, force: true });
            } else {
                // Left over from an interrupted run.
                fs.rmSync(target, { recursive: true, force: true });
                fs.renameSync(tmp, target);
            }
        }
    }
    const [top] = fs.readdirSync(target).filter((f) => f !== ".complete");
    const dir = path.join(target, top!);
    hit = { dir, meta: readYaml(path.join(dir, "Chart.yaml")) as ChartContents["meta"], defaults: defaultsOf(dir) };
    const schemaFile = path.join(dir, "values.schema.json");
    if (fs.existsSync(schemaFile)) hit.schema = JSON.parse(fs.readFileSync(schemaFile, "utf8")) as Record<string, unknown>;
    contents.set(archive, hit);
    return hit;
}

function readYaml(file: string): unknown {
    return fs.existsSync(file) ? (parse(fs.readFileSync(file, "utf8")) ?? {}) : {};
}

/** A chart's defaults with its subcharts' defaults nested under their names (as Helm merges them). */
function defaultsOf(dir: string): Record<string, unknown> {
    const values = readYaml(path.join(dir, "values.yaml")) as Record<string, unknown>;
    const meta = readYaml(path.join(dir, "Chart.yaml")) as ChartContents["meta"];
    const subDir = path.join(dir, "charts");
    if (!fs.existsSync(subDir)) return values;
    for (const sub of fs.readdirSync(subDir)) {
        const subPath = path.join(subDir, sub);
        if (!fs.statSync(subPath).isDirectory()) continue;
        const subMeta = readYaml(path.join(subPath, "Chart.yaml")) as ChartContents["meta"];
        const dep = meta.dependencies?.find((d) => d.name === subMeta.name);
        const key = dep?.alias ?? subMeta.name;
        values[key] = mergeDefaults(defaultsOf(subPath), values[key]);
    }
    return values;
}

function mergeDefaults(base: unknown, over: unknown): unknown {
    if (isMap(base) && isMap(over)) {
        const out: Record<string, unknown> = { ...base };
        for (const [k, v] of Object.entries(over)) out[k] = mergeDefaults(base[k], v);
        return out;
    }
    return over === undefined ? base : over;
}

/** Every CustomResourceDefinition the chart renders with `--include-crds`, read from rendered manifests. */
export function crdsIn(objects: KubeObject[]): KubeObject[] {
    return objects.filter((o) => o.kind === "CustomResourceDefinition" && /^apiextensions\.k8s\.io\//.test(String(o.apiVersion)));
}

/** Splits a rendered multi-document manifest into objects (empty documents dropped). */
export function parseManifest(text: string): KubeObject[] {
    return parseAllDocuments(text)
        .map((d) => {
            if (d.errors.length) throw new Error(`rendered YAML does not parse: ${d.errors[0]!.message}`);
            return d.toJS() as KubeObject | null;
        })
        .filter((o): o is KubeObject => isMap(o));
}
