/**
 * The CRD data the components apply (components/crds/) is exactly what the vendored archive of each pinned chart
 * ships in its `crds/` directories: a pin moved without `npm run gen`, a hand edit, or a stale file fails here.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { CHARTS, CRD_CHARTS } from "../../contracts";
import { CRD_DATA_DIR, expectedCrdFiles, extractCrds } from "../../tools/chartCrds";
import { vendoredChart } from "../support/charts";

describe("CRD data of the charts' crds/ directories", () => {
    const expected = expectedCrdFiles();

    it("is what the vendored archives of the pinned versions ship (run `npm run gen` after a bump)", () => {
        for (const [file, text] of expected) {
            const p = path.join(CRD_DATA_DIR, file);
            expect(fs.existsSync(p), `${file} is missing: run \`npm run gen\``).toBe(true);
            expect(fs.readFileSync(p, "utf8") === text, `${file} differs from its vendored archive: run \`npm run gen\``).toBe(true);
        }
    });

    it("holds no file for a version no pin names", () => {
        expect(fs.readdirSync(CRD_DATA_DIR).filter((f) => f.endsWith(".json")).sort()).toEqual([...expected.keys()].sort());
    });

    it("covers every chart with a crds/ directory, and no chart without one", () => {
        for (const [id, entry] of Object.entries(CHARTS)) {
            const archive = vendoredChart(entry.chart, entry.version)!;
            const has = extractCrds(archive).length > 0;
            expect(CRD_CHARTS.includes(id as (typeof CRD_CHARTS)[number]), `${entry.chart}: ${has ? "ships" : "has no"} crds/`).toBe(has);
        }
    }, 120_000);
});
