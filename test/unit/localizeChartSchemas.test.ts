import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterEach, describe, expect, it } from "vitest";
import { lookUpChartArchives } from "../../config/chartArchives";
import { CHART_IDS, CHARTS } from "../../contracts";
import { localizeChartArchives, withoutRemoteRefs } from "../../tools/localizeChartSchemas";

const VENDORED = path.join(__dirname, "..", "charts");
const temps: string[] = [];
afterEach(() => temps.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe("charts made installable without a network", () => {
    it("drops remote $refs only, keeping local ones and every other rule", () => {
        const found: string[] = [];
        const out = withoutRemoteRefs({ properties: { a: { $ref: "https://x/defs.json#/definitions/A", description: "kept" }, b: { $ref: "#/definitions/B" }, c: { type: "integer", minimum: 1 } } }, found);
        expect(out).toEqual({ properties: { a: { description: "kept" }, b: { $ref: "#/definitions/B" }, c: { type: "integer", minimum: 1 } } });
        expect(found).toEqual(["https://x/defs.json#/definitions/A"]);
    });

    it("rewrites nginx-ingress's archive and SHA256SUMS so the folder still checks, and only that archive", () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "localize-"));
        temps.push(dir);
        for (const f of fs.readdirSync(VENDORED)) if (f.endsWith(".tgz") || f === "SHA256SUMS") fs.copyFileSync(path.join(VENDORED, f), path.join(dir, f));
        const done = localizeChartArchives(dir);
        expect(done.map((d) => path.basename(d.archive))).toEqual([`nginx-ingress-${CHARTS.ingress.version}.tgz`]);
        expect(done[0]!.removedRefs).toBeGreaterThan(0);
        const schema = execFileSync("tar", ["-xzOf", done[0]!.archive, "nginx-ingress/values.schema.json"], { encoding: "utf8" });
        expect(schema).not.toMatch(/"\$ref":\s*"https?:/);
        expect(JSON.parse(schema).properties.controller).toBeDefined();
        const pins = CHART_IDS.map((id) => ({ chart: CHARTS[id].chart, version: CHARTS[id].version }));
        expect(lookUpChartArchives(dir, pins).ok).toBe(true);
        expect(localizeChartArchives(dir), "a second run finds nothing to do").toEqual([]);
    }, 120_000);
});
