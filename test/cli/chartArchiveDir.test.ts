/**
 * `mara:chartArchiveDir` through the commands: `mara plan` (text and JSON) shows the same charts, versions and images
 * with the folder as without it; `mara validate` refuses an archive of another chart or version under a pinned name,
 * and a malformed SHA256SUMS in a bounded number of lines and bytes (counted, not timed); pipes where files belong
 * end the command at once (run as child processes, so a command that waits fails the test instead of hanging it).
 */
import { execFile, execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHARTS } from "../../contracts";
import { runMara } from "./support/io";

const ROOT = path.join(__dirname, "..", "..");
const VENDORED = path.join(ROOT, "test", "charts");
const FIXTURE = fs.readFileSync(path.join(ROOT, "test", "fixtures", "Pulumi.mara-kubeconfig.yaml"), "utf8");
const INGRESS = `nginx-ingress-${CHARTS.ingress.version}.tgz`;
const made: string[] = [];
const tmp = (prefix = "mara-archive-dir-") => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    made.push(dir);
    return dir;
};
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A copy of the vendored archives and their SHA256SUMS, changed by `edit`. */
function folder(edit: (dir: string) => void = () => {}): string {
    const dir = tmp("chart archives ");
    for (const f of fs.readdirSync(VENDORED)) if (f.endsWith(".tgz") || f === "SHA256SUMS") fs.copyFileSync(path.join(VENDORED, f), path.join(dir, f));
    edit(dir);
    return dir;
}

/** The MARA-format existing-cluster stack file, with the archive folder when one is given. */
function stackFile(archives?: string): string {
    const file = path.join(tmp(), "Pulumi.lab.yaml");
    fs.writeFileSync(file, archives === undefined ? FIXTURE : `${FIXTURE}  mara:chartArchiveDir: ${JSON.stringify(archives)}\n`);
    return file;
}

/** SHA256SUMS as sha256sum writes it for the folder's archives. */
const resum = (d: string) => fs.writeFileSync(path.join(d, "SHA256SUMS"), execFileSync("sha256sum", fs.readdirSync(d).filter((f) => f.endsWith(".tgz")).sort(), { cwd: d }));

/** Runs the real command in a child process with a deadline. */
async function maraProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
        const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(ROOT, "bin", "mara.js"), ...args], { cwd: ROOT, timeout: 60_000, killSignal: "SIGKILL" });
        return { code: 0, stdout, stderr };
    } catch (e) {
        const err = e as { code?: number; killed?: boolean; stdout: string; stderr: string };
        if (err.killed) throw new Error(`mara ${args.join(" ")} did not finish within 60 s`);
        return { code: err.code ?? -1, stdout: err.stdout, stderr: err.stderr };
    }
}

const noTrace = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+|unexpected error|TypeError|Cannot read properties/);

describe("mara plan with a valid archive folder shows what it shows without one", () => {
    type Release = { resource: string; chart: string; version: string; repository?: string; archive?: string };
    type PlanJson = { helmReleases: Release[]; images: { image: string; usedBy: string[] }[]; unlistedCharts: string[] };
    let without: { text: string; json: PlanJson };
    let withDir: { text: string; json: PlanJson };
    let archives: string;

    beforeAll(async () => {
        // A folder whose path has a space: a path like any other.
        archives = folder();
        const run = async (file: string) => {
            const text = await runMara(["plan", "-c", file]);
            const json = await runMara(["plan", "-c", file, "--json"]);
            expect(text.code, text.stderr).toBe(0);
            expect(json.code, json.stderr).toBe(0);
            return { text: text.stdout, json: JSON.parse(json.stdout) as PlanJson };
        };
        without = await run(stackFile());
        withDir = await run(stackFile(archives));
    }, 240_000);

    it("JSON: every release's chart and version, and every image, the same", () => {
        const charts = (j: PlanJson) => j.helmReleases.map((r) => [r.resource, r.chart, r.version]);
        expect(charts(withDir.json)).toEqual(charts(without.json));
        expect(withDir.json.helmReleases.length).toBeGreaterThanOrEqual(9);
        for (const r of withDir.json.helmReleases) expect(r.version, r.resource).not.toBe("");
        expect(withDir.json.images).toEqual(without.json.images);
        expect(withDir.json.images.length).toBeGreaterThan(20);
        expect(withDir.json.unlistedCharts).toEqual(without.json.unlistedCharts);
    });

    it("JSON: a release from the folder names its archive instead of a repository", () => {
        const ingress = withDir.json.helmReleases.find((r) => r.chart === "nginx-ingress")!;
        expect(ingress).toMatchObject({ version: CHARTS.ingress.version, archive: path.join(archives, INGRESS) });
        expect(ingress.repository).toBeUndefined();
        expect(without.json.helmReleases.find((r) => r.chart === "nginx-ingress")).toMatchObject({ repository: CHARTS.ingress.repositoryUrl });
    });

    it("text: the same chart@version lines and images, each release from its archive", () => {
        const section = (text: string, from: string, to: string) => text.slice(text.indexOf(from), text.indexOf(to, text.indexOf(from)));
        const releases = (text: string) => section(text, "Helm releases (chart@version):", "Container images:").replace(/ {2}\(namespace [^,)]+(, from [^)]+)?\)/g, "");
        expect(releases(withDir.text)).toBe(releases(without.text));
        expect(section(withDir.text, "Container images:", "\n\n")).toBe(section(without.text, "Container images:", "\n\n"));
        expect(withDir.text).toContain(`nginx-ingress@${CHARTS.ingress.version}  (namespace nginx-ingress, from ${path.join(archives, INGRESS)})`);
        expect(withDir.text).not.toMatch(/\.tgz@/);
    });
});

describe("mara validate refuses what an archive really is", () => {
    it("another chart under the pinned name, its digest listed by sha256sum: exit 1, naming the file, what it holds and the pin", async () => {
        const dir = folder((d) => {
            fs.copyFileSync(path.join(d, `cert-manager-${CHARTS.certManager.version}.tgz`), path.join(d, INGRESS));
            resum(d);
        });
        for (const command of ["validate", "plan"]) {
            const r = await runMara([command, "-c", stackFile(dir)]);
            expect(r.code, command).toBe(1);
            expect(r.stderr).toContain(
                `mara:chartArchiveDir = ${JSON.stringify(dir)}: (chart nginx-ingress) names the folder ${JSON.stringify(dir)}, which has ${INGRESS}, but it holds chart cert-manager ${CHARTS.certManager.version} (its cert-manager/Chart.yaml), not nginx-ingress ${CHARTS.ingress.version}, which the stack pins`,
            );
            expect(r.stdout).toBe("");
            noTrace(r.stderr);
        }
    });
});

describe("a malformed SHA256SUMS: bounded output", () => {
    it("50,000 bad lines: one problem, at most 5 lines and 2 KB of output", async () => {
        const dir = folder((d) => fs.appendFileSync(path.join(d, "SHA256SUMS"), Array.from({ length: 50_000 }, (_, i) => `not a digest ${i}`).join("\n")));
        const r = await runMara(["validate", "-c", stackFile(dir)]);
        expect(r.code).toBe(1);
        const out = r.stdout + r.stderr;
        expect(out.split("\n").length).toBeLessThanOrEqual(5);
        expect(Buffer.byteLength(out)).toBeLessThan(2_000);
        expect(out).toContain("whose SHA256SUMS has 50,000 lines that sha256sum --check cannot use");
        expect(out).toContain("; and 49,995 more.");
        noTrace(out);
    });

    it("100 MB of binary: one problem", async () => {
        const dir = folder((d) => {
            fs.rmSync(path.join(d, "SHA256SUMS"));
            fs.writeFileSync(path.join(d, "SHA256SUMS"), "");
            fs.truncateSync(path.join(d, "SHA256SUMS"), 100_000_000);
        });
        const r = await runMara(["validate", "-c", stackFile(dir)]);
        expect(r.code).toBe(1);
        expect(r.stderr.split("\n").filter((l) => /^\s+\d+\. /.test(l))).toHaveLength(1);
        expect(r.stderr).toContain("whose SHA256SUMS is larger than 1 MiB");
        expect(Buffer.byteLength(r.stderr)).toBeLessThan(2_000);
    });
});

describe("pipes where files belong: the command ends at once", () => {
    it("SHA256SUMS, an archive and the kubeconfig as named pipes: exit 1 with what each is", async () => {
        const dir = folder((d) => {
            for (const f of ["SHA256SUMS", INGRESS]) {
                fs.rmSync(path.join(d, f));
                execFileSync("mkfifo", [path.join(d, f)]);
            }
        });
        const r = await maraProcess(["validate", "-c", stackFile(dir)]);
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toContain("whose SHA256SUMS is a named pipe, not a regular file");
        expect(r.stderr).toContain(`which has ${INGRESS}, which is a named pipe, not a regular file`);
        const pipe = path.join(tmp(), "kubeconfig");
        execFileSync("mkfifo", [pipe]);
        const file = stackFile();
        fs.writeFileSync(file, FIXTURE.replace(/kubernetes:kubeconfig: .*/, `kubernetes:kubeconfig: ${pipe}`));
        const k = await maraProcess(["validate", "-c", file]);
        expect(k.code, k.stderr).toBe(1);
        expect(k.stderr).toContain(`kubernetes:kubeconfig = "${pipe}": names a path that is a named pipe, not a regular file`);
        noTrace(r.stderr + k.stderr);
    }, 150_000);
});
