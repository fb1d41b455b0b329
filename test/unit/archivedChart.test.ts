/**
 * What chart an archive holds, read as Helm 3 reads it (config/archivedChart.ts). Archives a tool writes are made by
 * the tool (`helm package`, GNU tar); archives no tool writes on purpose by hand (test/support/tarball.ts). Every
 * archive small enough is also given to the real Helm (`helm show chart`), and the reader must agree with it: the
 * same name and version where Helm loads the chart, a problem where Helm refuses it. Bounds are proved by counting
 * what was read, never by timing.
 */
import { execFileSync, spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as zlib from "zlib";
import { parse } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { HELM_MAX_CHART_BYTES, MAX_ENTRIES, MAX_TAR_BYTES, readArchivedChart, readArchivedChartBytes } from "../../config/archivedChart";
import { helmBinary } from "../support/helm";
import { chartYaml, TAR_END, tarEntry, tgz } from "../support/tarball";

const VENDORED = path.join(__dirname, "..", "charts");
const made: string[] = [];
const tmp = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "archived-chart-"));
    made.push(dir);
    return dir;
};
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A chart folder with a Chart.yaml and one template. */
function chartDir(parent: string, dirName: string, name: string, version: string): string {
    const dir = path.join(parent, dirName);
    fs.mkdirSync(path.join(dir, "templates"), { recursive: true });
    fs.writeFileSync(path.join(dir, "Chart.yaml"), chartYaml(name, version));
    fs.writeFileSync(path.join(dir, "values.yaml"), "replicas: 1\n");
    fs.writeFileSync(path.join(dir, "templates", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n");
    return dir;
}

/** What Helm makes of an archive: the chart's name and version, or its error. */
function helmShow(file: string): { name: string; version: string } | { error: string } {
    const r = spawnSync(helmBinary().path, ["show", "chart", file], { encoding: "utf8", timeout: 60_000 });
    if (r.status !== 0) return { error: r.stderr.trim() };
    const meta = parse(r.stdout) as { name: string; version: string };
    return { name: String(meta.name), version: String(meta.version) };
}

/** The reader's verdict on a file, checked against Helm's. */
function agreesWithHelm(file: string) {
    const ours = readArchivedChart(file);
    const helm = helmShow(file);
    if ("error" in helm) expect(ours.ok, `Helm refuses it (${helm.error}); the reader must too`).toBe(false);
    else {
        expect(ours.ok, `Helm loads it as ${helm.name} ${helm.version}`).toBe(true);
        if (ours.ok) expect({ name: ours.chart.name, version: ours.chart.version }).toEqual(helm);
    }
    return ours;
}

const write = (dir: string, name: string, bytes: Buffer) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    return file;
};

describe("archives tools write", () => {
    it("every vendored archive: its own chart and version, from its first few entries", () => {
        const files = fs.readdirSync(VENDORED).filter((f) => f.endsWith(".tgz"));
        expect(files.length).toBeGreaterThanOrEqual(10);
        for (const f of files) {
            const r = readArchivedChart(path.join(VENDORED, f));
            expect(r.ok, f).toBe(true);
            if (!r.ok) continue;
            expect(`${r.chart.name}-${r.chart.version}.tgz`).toBe(f);
            expect(r.chart.entry).toBe(`${r.chart.name}/Chart.yaml`);
            // helm package and the Go packager write Chart.yaml among the first entries: a few kilobytes are read.
            expect(r.read.entries).toBeLessThanOrEqual(4);
            expect(r.read.tar).toBeLessThanOrEqual(8 * 1024);
        }
    });

    it("helm package: the chart's name and version, whatever the archive is called", () => {
        const dir = tmp();
        const src = chartDir(dir, "src", "demo", "1.2.3");
        execFileSync(helmBinary().path, ["package", src, "--destination", dir], { stdio: "ignore" });
        const packaged = path.join(dir, "demo-1.2.3.tgz");
        const renamed = path.join(dir, "nginx-ingress-2.6.4.tgz");
        fs.copyFileSync(packaged, renamed);
        for (const file of [packaged, renamed]) {
            const r = agreesWithHelm(file);
            expect(r.ok && r.chart).toEqual({ name: "demo", version: "1.2.3", entry: "demo/Chart.yaml" });
        }
    });

    it("GNU tar, Chart.yaml after the templates, under a directory of another name, and as ./", () => {
        const dir = tmp();
        chartDir(dir, "not-the-chart-name", "demo", "0.1.0");
        // Templates first: tar writes what it is given in that order.
        execFileSync("tar", ["-czf", path.join(dir, "late.tgz"), "-C", dir, "not-the-chart-name/templates", "not-the-chart-name/values.yaml", "not-the-chart-name/Chart.yaml"]);
        const late = agreesWithHelm(path.join(dir, "late.tgz"));
        expect(late.ok && late.chart.entry).toBe("not-the-chart-name/Chart.yaml");
        expect(late.read.entries).toBe(4);
        execFileSync("tar", ["-czf", path.join(dir, "dot.tgz"), "-C", path.join(dir, "not-the-chart-name"), "."]);
        const dot = agreesWithHelm(path.join(dir, "dot.tgz"));
        expect(dot.ok && dot.chart.name).toBe("demo");
    });

    it("a chart directory name past 100 characters: GNU long names and PAX headers", () => {
        const dir = tmp();
        const long = `chart-${"x".repeat(140)}`;
        chartDir(dir, long, "longname", "2.0.0");
        for (const format of ["gnu", "posix"]) {
            const file = path.join(dir, `${format}.tgz`);
            execFileSync("tar", [`--format=${format}`, "-czf", file, "-C", dir, long]);
            const r = agreesWithHelm(file);
            expect(r.ok && r.chart, format).toEqual({ name: "longname", version: "2.0.0", entry: `${long}/Chart.yaml` });
        }
    });

    it("a byte-order mark before Chart.yaml (Helm trims it) and a quoted version", () => {
        const dir = tmp();
        const file = write(dir, "bom.tgz", tgz(tarEntry("c/Chart.yaml", `\uFEFFapiVersion: v2\nname: bom\nversion: "3.0.0"\n`), tarEntry("c/templates/a.yaml", "{}\n")));
        const r = agreesWithHelm(file);
        expect(r.ok && [r.chart.name, r.chart.version]).toEqual(["bom", "3.0.0"]);
    });
});

describe("archives Helm refuses, refused with Helm's rule", () => {
    const cases: [string, Buffer, RegExp][] = [
        ["Chart.yaml at the top of the archive", tgz(tarEntry("Chart.yaml", chartYaml("top", "1.0.0"))), /entry "Chart\.yaml" is outside a top-level directory.*outside the base directory/],
        ["a top-level folder named Chart.yaml", tgz(tarEntry("Chart.yaml/x", "x"), tarEntry("c/Chart.yaml", chartYaml("c", "1.0.0"))), /under a Chart\.yaml at the top.*chart yaml not in base directory/],
        ["a file outside any directory", tgz(tarEntry("README.md", "hi"), tarEntry("c/Chart.yaml", chartYaml("c", "1.0.0"))), /outside a top-level directory/],
        ["an entry leading out of the chart", tgz(tarEntry("c/../../etc/x", "x"), tarEntry("c/Chart.yaml", chartYaml("c", "1.0.0"))), /leads out of the chart.*references parent directory/],
        ["no Chart.yaml", tgz(tarEntry("c/values.yaml", "a: 1\n")), /holds no Chart\.yaml in a top-level directory/],
        ["only a subchart's Chart.yaml", tgz(tarEntry("c/charts/sub/Chart.yaml", chartYaml("sub", "1.0.0"))), /holds no Chart\.yaml in a top-level directory/],
        ["Chart.yaml as a symbolic link", tgz(tarEntry("c/Chart.yaml", "", "2", "/etc/passwd")), /as a symbolic link, not a file/],
        ["Chart.yaml without a version", tgz(tarEntry("c/Chart.yaml", "apiVersion: v2\nname: c\n")), /has no version.*chart\.metadata\.version is required/],
        ["Chart.yaml that is not YAML", tgz(tarEntry("c/Chart.yaml", "name: [unclosed\n")), /is not valid YAML/],
        ["a file over Helm's 5 MiB", tgz(tarEntry("c/big.bin", Buffer.alloc(5 * 1024 * 1024 + 1)), tarEntry("c/Chart.yaml", chartYaml("c", "1.0.0"))), /Helm loads no chart file over 5 MiB/],
        ["a plain tar, not compressed", Buffer.concat([tarEntry("c/Chart.yaml", chartYaml("c", "1.0.0")), TAR_END]), /is not a gzip-compressed archive/],
        ["a YAML file", Buffer.from(chartYaml("c", "1.0.0")), /is not a gzip-compressed archive/],
        ["gzip of something that is not tar", zlib.gzipSync(Buffer.from("just text, not a tar archive at all\n".repeat(40))), /is not a tar archive inside its gzip compression/],
        ["an archive cut short before its Chart.yaml", tgz(tarEntry("c/values.yaml", "x".repeat(200_000)), tarEntry("c/Chart.yaml", chartYaml("c", "1.0.0"))).subarray(0, 300), /cut short|damaged gzip data/],
        ["an empty file", Buffer.alloc(0), /is not a gzip-compressed archive/],
    ];
    for (const [name, bytes, problem] of cases) {
        it(name, () => {
            const dir = tmp();
            const r = agreesWithHelm(write(dir, "chart-1.0.0.tgz", bytes));
            expect(r.ok).toBe(false);
            if (!r.ok) {
                expect(r.problem).toMatch(problem);
                // The words are the reader's or Helm's, never JavaScript's.
                expect(r.problem).not.toMatch(/undefined|TypeError|RangeError|Cannot read/);
            }
        });
    }
});

describe("bounded reading", () => {
    /** A gzip member holding `count` tar entries of `size` zero bytes each (gzip members may be concatenated). */
    const member = (count: number, size: number, prefix = "c/blob") => zlib.gzipSync(Buffer.concat(Array.from({ length: count }, (_, i) => tarEntry(`${prefix}${i}`, Buffer.alloc(size)))));

    it("a compression bomb (4 MiB files of zeros past Helm's 100 MiB): stops at the limit, having read kilobytes", () => {
        // 27 members of one 4 MiB file each: 108 MiB of tar data from about 120 KiB on disk, then the Chart.yaml.
        const one = member(1, 4 * 1024 * 1024);
        const bytes = Buffer.concat([...Array.from({ length: 27 }, () => one), tgz(tarEntry("c/Chart.yaml", chartYaml("c", "1.0.0")))]);
        expect(bytes.length).toBeLessThan(200 * 1024);
        const r = readArchivedChartBytes(bytes);
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.problem).toContain(`more than ${HELM_MAX_CHART_BYTES / 1024 / 1024} MiB of files`);
        expect(r.read.tar).toBeLessThanOrEqual(HELM_MAX_CHART_BYTES + 4 * 1024 * 1024 + 512);
        expect(r.read.entries).toBeLessThanOrEqual(26);
    }, 60_000);

    it("more entries than the limit before any Chart.yaml: stops after the limit", () => {
        const thousand = member(1000, 0);
        const bytes = Buffer.concat([...Array.from({ length: Math.ceil(MAX_ENTRIES / 1000) + 1 }, () => thousand), tgz(tarEntry("c/Chart.yaml", chartYaml("c", "1.0.0")))]);
        const r = readArchivedChartBytes(bytes);
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.problem).toContain(`first ${MAX_ENTRIES.toLocaleString("en-US")} entries`);
        expect(r.read.entries).toBe(MAX_ENTRIES + 1);
        expect(r.read.tar).toBeLessThanOrEqual(MAX_TAR_BYTES);
    }, 60_000);

    it("a folder entry claiming gigabytes: bounded by the tar bytes read, not by its claim", () => {
        // A directory's data is skipped by Go's tar reader; a size field of 8 GiB must not be trusted to end anything.
        const dirEntry = tarEntry("c/", "", "5");
        dirEntry.write(`${(8 * 1024 ** 3).toString(8).padStart(11, "0")}\0`, 124, "latin1");
        dirEntry.write(" ".repeat(8), 148, "latin1");
        let sum = 0;
        for (const b of dirEntry.subarray(0, 512)) sum += b;
        dirEntry.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
        const r = readArchivedChartBytes(zlib.gzipSync(Buffer.concat([dirEntry, Buffer.alloc(1024 * 1024)])));
        expect(r.ok).toBe(false);
        expect(r.read.tar).toBeLessThanOrEqual(MAX_TAR_BYTES);
    });
});
