import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterEach, describe, expect, it } from "vitest";
import { formatProblem, validateConfig } from "../../config";
import { lookUpChartArchives } from "../../config/chartArchives";
import { CHART_IDS, CHARTS } from "../../contracts";
import { releasesOf } from "../../render/collect";
import { fixture } from "../support/config";
import { helmBinary } from "../support/helm";

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
        expect(problemsOf(path.join(VENDORED, "SHA256SUMS"))).toEqual(["(folder): is a file, not a folder"]);
    });

    it("refuses a folder without SHA256SUMS", () => {
        expect(problemsOf(copyOfVendored((d) => fs.rmSync(path.join(d, "SHA256SUMS"))))).toEqual(["(folder): has no SHA256SUMS file recording the archives' digests"]);
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

    it("refuses an archive SHA256SUMS does not list", () => {
        const dir = copyOfVendored((d) => {
            const lines = fs.readFileSync(path.join(d, "SHA256SUMS"), "utf8").split("\n").filter((l) => !l.includes("eck-operator"));
            fs.writeFileSync(path.join(d, "SHA256SUMS"), lines.join("\n"));
        });
        expect(problemsOf(dir)).toEqual([`eck-operator: has eck-operator-${CHARTS.logstore.version}.tgz, but SHA256SUMS records no digest for it`]);
    });

    it("a malformed line: one problem for the list, and no archive called unlisted (rewriting the list lists them all)", () => {
        const dir = copyOfVendored((d) => {
            const lines = fs.readFileSync(path.join(d, "SHA256SUMS"), "utf8").split("\n").filter((l) => !l.includes("eck-operator"));
            fs.writeFileSync(path.join(d, "SHA256SUMS"), [...lines, "not a digest  x.tgz"].join("\n"));
        });
        expect(problemsOf(dir)).toEqual([
            `(folder): has a line that sha256sum --check cannot use or that name no archive of this folder: line ${PINS.length + 1}: it does not start with a SHA-256 digest (64 hexadecimal digits): "not a digest  x.tgz"`,
        ]);
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

    it("a path like any other: under ~, with .., through a link to the folder, with a newline in its name", () => {
        const home = fs.mkdtempSync(path.join(os.tmpdir(), "chart-archive-home-"));
        temps.push(home);
        const copy = copyOfVendored();
        fs.renameSync(copy, path.join(home, "charts"));
        fs.symlinkSync(path.join(home, "charts"), path.join(home, "linked charts"));
        const odd = path.join(home, "odd\nname");
        fs.cpSync(path.join(home, "charts"), odd, { recursive: true });
        const raw = fixture("mara-kubeconfig");
        const at = (dir: string) => validateConfig({ ...raw, env: { ...raw.env, HOME: home }, baseDir: path.join(__dirname, "..", ".."), values: { ...raw.values, "mara:chartArchiveDir": dir }, inspectPath: undefined });
        for (const [setting, folder] of [
            ["~/charts", path.join(home, "charts")],
            [`${home}/linked charts/../charts`, path.join(home, "charts")],
            [`${home}/linked charts`, path.join(home, "linked charts")],
            [odd, odd],
        ]) {
            const result = at(setting);
            expect(result.problems.map(formatProblem), setting).toEqual([]);
            expect(result.config!.ingress.chart.archive).toBe(path.join(folder, `nginx-ingress-${CHARTS.ingress.version}.tgz`));
        }
        fs.rmSync(path.join(odd, "SHA256SUMS"));
        expect(at(odd).problems.map(formatProblem)[0]).toContain(`names the folder ${JSON.stringify(odd)}, which has no SHA256SUMS file`);
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

describe("an archive is what its name says (its Chart.yaml), not only what SHA256SUMS records", () => {
    const INGRESS = `nginx-ingress-${CHARTS.ingress.version}.tgz`;
    /** SHA256SUMS as GNU sha256sum writes it for every archive in the folder. */
    const resum = (d: string) => fs.writeFileSync(path.join(d, "SHA256SUMS"), execFileSync("sha256sum", fs.readdirSync(d).filter((f) => f.endsWith(".tgz")).sort(), { cwd: d }));

    it("another chart under the pinned archive's name, its digest listed: refused, naming both", () => {
        const dir = copyOfVendored((d) => {
            fs.copyFileSync(path.join(d, `cert-manager-${CHARTS.certManager.version}.tgz`), path.join(d, INGRESS));
            resum(d);
        });
        expect(problemsOf(dir)).toEqual([
            `nginx-ingress: has ${INGRESS}, but it holds chart cert-manager ${CHARTS.certManager.version} (its cert-manager/Chart.yaml), not nginx-ingress ${CHARTS.ingress.version}, which the stack pins`,
        ]);
    });

    it("another version of the chart (helm package --version) under the pinned name, its digest listed: refused", () => {
        const dir = copyOfVendored((d) => {
            const src = fs.mkdtempSync(path.join(os.tmpdir(), "chart-src-"));
            temps.push(src);
            execFileSync("tar", ["-xzf", path.join(d, INGRESS), "-C", src]);
            execFileSync(helmBinary().path, ["package", path.join(src, "nginx-ingress"), "--version", "2.6.3", "--destination", src], { stdio: "ignore" });
            fs.copyFileSync(path.join(src, "nginx-ingress-2.6.3.tgz"), path.join(d, INGRESS));
            resum(d);
        });
        expect(problemsOf(dir)).toEqual([`nginx-ingress: has ${INGRESS}, but it holds version 2.6.3 of nginx-ingress (its nginx-ingress/Chart.yaml), not nginx-ingress ${CHARTS.ingress.version}, which the stack pins`]);
    });

    it("a file that is no chart archive at all, listed: refused with Helm's words", () => {
        const dir = copyOfVendored((d) => {
            fs.writeFileSync(path.join(d, INGRESS), "<html>404 Not Found</html>\n");
            resum(d);
        });
        expect(problemsOf(dir)).toEqual([`nginx-ingress: has ${INGRESS}, which is not a gzip-compressed archive (Helm: "does not appear to be a gzipped archive")`]);
    });

    it("a folder sha256sum described, other files with a newline or a backslash in their names included: accepted", () => {
        const dir = copyOfVendored((d) => {
            fs.writeFileSync(path.join(d, "notes\nfrom ops.tgz"), "x");
            fs.writeFileSync(path.join(d, "C:\\backup.tgz"), "y");
            resum(d);
            expect(fs.readFileSync(path.join(d, "SHA256SUMS"), "utf8")).toMatch(/^\\[0-9a-f]{64} {2}notes\\nfrom ops\.tgz$/m);
        });
        expect(problemsOf(dir)).toEqual([]);
    });
});

describe("the folder's paths, named for what they are", () => {
    const INGRESS = `nginx-ingress-${CHARTS.ingress.version}.tgz`;

    it("an archive that is a loop of links: a loop, never 'has no' (it is there)", () => {
        const dir = copyOfVendored((d) => {
            fs.rmSync(path.join(d, INGRESS));
            fs.symlinkSync("loop-b", path.join(d, INGRESS));
            fs.symlinkSync(INGRESS, path.join(d, "loop-b"));
        });
        const problems = problemsOf(dir);
        expect(problems).toEqual([`nginx-ingress: has ${INGRESS}, which is a loop of symbolic links (ELOOP): following them never reaches a file`]);
    });

    it("an archive that is a link to nothing, a folder, or a named pipe", () => {
        const dangling = copyOfVendored((d) => {
            fs.rmSync(path.join(d, INGRESS));
            fs.symlinkSync("/nowhere/nginx-ingress.tgz", path.join(d, INGRESS));
        });
        expect(problemsOf(dangling)).toEqual([`nginx-ingress: has ${INGRESS} as a symbolic link to /nowhere/nginx-ingress.tgz, which does not exist`]);
        const folder = copyOfVendored((d) => {
            fs.rmSync(path.join(d, INGRESS));
            fs.mkdirSync(path.join(d, INGRESS));
        });
        expect(problemsOf(folder)).toEqual([`nginx-ingress: has ${INGRESS}, but it is a folder, not a chart archive`]);
        const pipe = copyOfVendored((d) => {
            fs.rmSync(path.join(d, INGRESS));
            execFileSync("mkfifo", [path.join(d, INGRESS)]);
        });
        // Looked at, never opened: reading a pipe would wait for a writer for ever.
        expect(problemsOf(pipe)).toEqual([`nginx-ingress: has ${INGRESS}, which is a named pipe, not a regular file`]);
    });

    it("the folder: a loop, a file, a link to nothing, /proc; SHA256SUMS a folder, a loop or a pipe", () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "chart-archive-paths-"));
        temps.push(dir);
        fs.symlinkSync("b", path.join(dir, "a"));
        fs.symlinkSync("a", path.join(dir, "b"));
        fs.symlinkSync(path.join(dir, "gone"), path.join(dir, "dangling"));
        expect(problemsOf(path.join(dir, "a"))).toEqual(["(folder): is a loop of symbolic links (ELOOP): following them never reaches a file"]);
        expect(problemsOf(path.join(dir, "dangling"))).toEqual([`(folder): is a symbolic link to ${path.join(dir, "gone")}, which does not exist`]);
        expect(problemsOf(path.join(VENDORED, "SHA256SUMS"))).toEqual(["(folder): is a file, not a folder"]);
        expect(problemsOf("/proc/self")[0]).toBe("(folder): has no SHA256SUMS file recording the archives' digests");
        const sumsDir = copyOfVendored((d) => {
            fs.rmSync(path.join(d, "SHA256SUMS"));
            fs.mkdirSync(path.join(d, "SHA256SUMS"));
        });
        expect(problemsOf(sumsDir)[0]).toBe("(folder): has a folder named SHA256SUMS where the file of the archives' digests belongs");
        const sumsLoop = copyOfVendored((d) => {
            fs.rmSync(path.join(d, "SHA256SUMS"));
            fs.symlinkSync("SHA256SUMS", path.join(d, "SHA256SUMS"));
        });
        expect(problemsOf(sumsLoop)[0]).toBe("(folder): is a loop of symbolic links (ELOOP): following them never reaches a file");
        const sumsPipe = copyOfVendored((d) => {
            fs.rmSync(path.join(d, "SHA256SUMS"));
            execFileSync("mkfifo", [path.join(d, "SHA256SUMS")]);
        });
        expect(problemsOf(sumsPipe)[0]).toBe("(folder): is a named pipe, not a regular file");
    });
});

describe("SHA256SUMS problems are few and short, however many lines are wrong", () => {
    const validated = (dir: string) => {
        const raw = fixture("mara-kubeconfig");
        return validateConfig({ ...raw, values: { ...raw.values, "mara:chartArchiveDir": dir }, inspectPath: undefined }).problems.map(formatProblem);
    };

    it("50,000 malformed lines: one problem naming five of them and counting the rest", () => {
        const dir = copyOfVendored((d) => fs.appendFileSync(path.join(d, "SHA256SUMS"), Array.from({ length: 50_000 }, (_, i) => `garbage ${i}`).join("\n")));
        expect(fs.statSync(path.join(dir, "SHA256SUMS")).size).toBeGreaterThan(500_000);
        const messages = validated(dir);
        // The archives themselves are fine: only the list's lines are wrong.
        expect(messages).toHaveLength(1);
        expect(messages[0]).toMatch(/whose SHA256SUMS has 50,000 lines that sha256sum --check cannot use or that name no archive of this folder: line \d+: .*"garbage 0"; .*"garbage 4"; and 49,995 more\. Allowed/);
        expect(messages[0]!.length).toBeLessThan(1_200);
    });

    it("a list over 1 MiB: one problem, and no archive reported unlisted", () => {
        const dir = copyOfVendored((d) => fs.appendFileSync(path.join(d, "SHA256SUMS"), "x".repeat(2 * 1024 * 1024)));
        const messages = validated(dir);
        expect(messages).toHaveLength(1);
        expect(messages[0]).toContain("whose SHA256SUMS is larger than 1 MiB; a list of chart archives' digests is a few kilobytes, so this is not one");
    });

    it("a name leading out of the folder and a name listed twice: refused, naming both lines, with the fix that rewrites the list", () => {
        const dir = copyOfVendored((d) => fs.appendFileSync(path.join(d, "SHA256SUMS"), `${"0".repeat(64)}  ../secrets.tgz\n${"1".repeat(64)}  ./fluent-bit-${CHARTS.logagent.version}.tgz\n`));
        const messages = validated(dir);
        expect(messages).toHaveLength(1);
        expect(messages[0]).toContain(`whose SHA256SUMS has 2 lines that sha256sum --check cannot use or that name no archive of this folder: line ${PINS.length + 1}: it names "../secrets.tgz", which leads out of the folder ('..'); list the archives by their names in it; line ${PINS.length + 2}: it lists "fluent-bit-${CHARTS.logagent.version}.tgz" again (first on line`);
        for (const m of messages) expect(m).toContain(`Fix: write it as sha256sum does: cd ${dir} && sha256sum *.tgz > SHA256SUMS`);
    });
});
