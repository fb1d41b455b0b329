import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterEach, describe, expect, it } from "vitest";
import { formatProblem, validateConfig } from "../../config";
import { lookUpChartArchives, parseChecksums } from "../../config/chartArchives";
import { CHART_IDS, CHARTS } from "../../contracts";
import { releasesOf } from "../../cli/render/collect";
import { fixture } from "../support/config";

const VENDORED = path.join(__dirname, "..", "charts");
const PINS = CHART_IDS.map((id) => ({ chart: CHARTS[id].chart, version: CHARTS[id].version }));
const temps: string[] = [];
afterEach(() => temps.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A copy of the vendored folder, changed by `edit`. */
function copyOfVendored(edit: (dir: string) => void = () => {}): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "chart-archives-"));
    temps.push(dir);
    for (const f of fs.readdirSync(VENDORED)) if (f.endsWith(".tgz") || f === "SHA256SUMS") fs.copyFileSync(path.join(VENDORED, f), path.join(dir, f));
    edit(dir);
    return dir;
}
const problemsOf = (dir: string) => {
    const found = lookUpChartArchives(dir, PINS);
    return found.ok ? [] : found.problems.map((p) => `${p.chart ?? "(folder)"}: ${p.problem}`);
};

describe("chart archives from a local folder", () => {
    it("finds every pinned chart in the vendored folder, digests checked", () => {
        const found = lookUpChartArchives(VENDORED, PINS);
        expect(found.ok).toBe(true);
        if (found.ok) expect([...found.archives.keys()].sort()).toEqual(PINS.map((p) => p.chart).sort());
    });

    it("refuses a folder that does not exist, or a file in its place", () => {
        expect(problemsOf(path.join(VENDORED, "nope"))).toEqual(["(folder): does not exist"]);
        expect(problemsOf(path.join(VENDORED, "SHA256SUMS"))).toEqual(["(folder): is not a folder"]);
    });

    it("refuses a folder without SHA256SUMS", () => {
        expect(problemsOf(copyOfVendored((d) => fs.rmSync(path.join(d, "SHA256SUMS"))))).toEqual(["(folder): has no readable SHA256SUMS file recording the archives' digests"]);
    });

    it("names a missing archive and the versions that are there instead", () => {
        const dir = copyOfVendored((d) => fs.renameSync(path.join(d, `fluent-bit-${CHARTS.logagent.version}.tgz`), path.join(d, "fluent-bit-0.1.0.tgz")));
        expect(problemsOf(dir)).toEqual([`fluent-bit: has no fluent-bit-${CHARTS.logagent.version}.tgz (it has fluent-bit-0.1.0.tgz)`]);
    });

    it("refuses an archive one byte different from its recorded digest", () => {
        const name = `cert-manager-${CHARTS.certManager.version}.tgz`;
        const dir = copyOfVendored((d) => {
            const bytes = fs.readFileSync(path.join(d, name));
            bytes[bytes.length - 1] ^= 1;
            fs.writeFileSync(path.join(d, name), bytes);
        });
        expect(problemsOf(dir)).toEqual([expect.stringMatching(new RegExp(`^cert-manager: has ${name}, but its SHA-256 is [0-9a-f]{64}, not the [0-9a-f]{64} SHA256SUMS records$`))]);
    });

    it("refuses an archive SHA256SUMS does not list, and a malformed line", () => {
        const dir = copyOfVendored((d) => {
            const lines = fs.readFileSync(path.join(d, "SHA256SUMS"), "utf8").split("\n").filter((l) => !l.includes("eck-operator"));
            fs.writeFileSync(path.join(d, "SHA256SUMS"), [...lines, "not a digest  x.tgz"].join("\n"));
        });
        expect(problemsOf(dir)).toEqual(['(folder): has a SHA256SUMS line that is not "<sha256> <file>": "not a digest  x.tgz"', `eck-operator: has eck-operator-${CHARTS.logstore.version}.tgz, but SHA256SUMS records no digest for it`]);
    });

    it("reads sha256sum's binary-mode marker and upper-case digests", () => {
        const d = "A".repeat(64);
        expect(parseChecksums(`${d} *a.tgz\n${d.toLowerCase()}  b.tgz\n`).sums).toEqual(new Map([["a.tgz", d.toLowerCase()], ["b.tgz", d.toLowerCase()]]));
    });
});

describe("mara:chartArchiveDir in validation", () => {
    const withDir = (dir: string) => {
        const raw = fixture("mara-kubeconfig");
        return validateConfig({ ...raw, baseDir: path.join(__dirname, "..", ".."), values: { ...raw.values, "mara:chartArchiveDir": dir }, inspectPath: undefined });
    };

    it("gives every release its archive, resolved against the project directory", () => {
        const result = withDir("./test/charts");
        expect(result.problems.map(formatProblem)).toEqual([]);
        expect(result.config!.ingress.chart.archive).toBe(path.join(VENDORED, `nginx-ingress-${CHARTS.ingress.version}.tgz`));
        expect(result.config!.certManager.chart.archive).toBe(path.join(VENDORED, `cert-manager-${CHARTS.certManager.version}.tgz`));
    });

    it("names the key, the folder and the fix when an archive is missing", () => {
        const dir = copyOfVendored((d) => fs.rmSync(path.join(d, `nginx-ingress-${CHARTS.ingress.version}.tgz`)));
        const messages = withDir(dir).problems.map(formatProblem);
        expect(messages).toHaveLength(1);
        expect(messages[0]).toContain(`mara:chartArchiveDir = "${dir}": (chart nginx-ingress) names the folder ${dir}, which has no nginx-ingress-${CHARTS.ingress.version}.tgz`);
        expect(messages[0]).toContain("sha256sum *.tgz > SHA256SUMS");
    });

    it("needs Argo CD's archive only from a stack that installs Argo CD (mara:delivery gitops, mara:gitopsArgoCd install)", () => {
        const dir = copyOfVendored((d) => fs.rmSync(path.join(d, `argo-cd-${CHARTS.argoCd.version}.tgz`)));
        expect(withDir(dir).problems.map(formatProblem)).toEqual([]);
        const gitops = (more: Record<string, string>) => {
            const raw = fixture("mara-kubeconfig");
            const values = { ...raw.values, "mara:delivery": "gitops", "mara:gitopsRepoUrl": "https://git.example.com/platform-config.git", "mara:gitopsPath": "deploy/prod", ...more };
            return validateConfig({ ...raw, baseDir: path.join(__dirname, "..", ".."), values, inspectPath: undefined });
        };
        expect(gitops({ "mara:chartArchiveDir": dir, "mara:gitopsArgoCd": "external" }).problems.map(formatProblem)).toEqual([]);
        const messages = gitops({ "mara:chartArchiveDir": dir }).problems.map(formatProblem);
        expect(messages).toHaveLength(1);
        expect(messages[0]).toContain(`(chart argo-cd) names the folder ${dir}, which has no argo-cd-${CHARTS.argoCd.version}.tgz`);
        const installed = gitops({ "mara:chartArchiveDir": "./test/charts" });
        expect(installed.problems.map(formatProblem)).toEqual([]);
        expect(installed.config!.gitops.argoCdChart.archive).toBe(path.join(VENDORED, `argo-cd-${CHARTS.argoCd.version}.tgz`));
    });

    it("leaves charts to their repositories when the key is not set", () => {
        const result = validateConfig(fixture("mara-kubeconfig"));
        expect(result.config?.ingress.chart.archive).toBeUndefined();
    });
});

describe("a release installed from a local archive, as mara render reads it", () => {
    it("takes chart and version from the archive's name and renders from the archive itself", () => {
        const archive = path.join(VENDORED, `cert-manager-${CHARTS.certManager.version}.tgz`);
        const [spec] = releasesOf([{ type: "kubernetes:helm.sh/v3:Release", name: "cm", urn: "urn:x", inputs: { name: "certmgr", chart: archive, namespace: "cert-manager", values: {} } } as never]);
        expect(spec).toMatchObject({ chart: "cert-manager", version: CHARTS.certManager.version, archive, repositoryUrl: "" });
        const [remote] = releasesOf([{ type: "kubernetes:helm.sh/v3:Release", name: "cm", urn: "urn:x", inputs: { name: "certmgr", chart: "cert-manager", version: "v1.21.1", repositoryOpts: { repo: "https://charts.jetstack.io" }, namespace: "cert-manager", values: {} } } as never]);
        expect(remote).toMatchObject({ chart: "cert-manager", version: "v1.21.1", repositoryUrl: "https://charts.jetstack.io" });
        expect(remote!.archive).toBeUndefined();
    });
});
