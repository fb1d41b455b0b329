/** `mara doctor`'s table of the Kubernetes versions each pinned chart accepts is what the vendored Chart.yaml files say. */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CHARTS } from "../../contracts";
import { CHART_KUBE_VERSIONS } from "../../cli/doctor/chartKubeVersions";
import { chartContents, vendoredChart } from "../support/charts";

describe("CHART_KUBE_VERSIONS", () => {
    it("holds each pinned chart's kubeVersion constraint, and no other", () => {
        const found: Record<string, string> = {};
        for (const c of Object.values(CHARTS)) {
            const archive = vendoredChart(c.chart, c.version);
            expect(archive, `${c.chart}@${c.version} is vendored`).toBeDefined();
            const meta = parse(fs.readFileSync(path.join(chartContents(archive!).dir, "Chart.yaml"), "utf8")) as { kubeVersion?: string };
            if (meta.kubeVersion) found[`${c.chart}@${c.version}`] = meta.kubeVersion;
        }
        expect(CHART_KUBE_VERSIONS).toEqual(found);
    });
});
