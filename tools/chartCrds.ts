/**
 * Extracts the CustomResourceDefinitions that the pinned charts ship in their `crds/` directories from the
 * vendored archives in test/charts/ into components/crds/<chart>-<version>.json, the data the components apply
 * (components/chartCrds.ts). Part of `npm run gen`; test/render/crds.test.ts fails when the data and the
 * vendored archives disagree. A development tool: not part of the program or the published library.
 */
import * as fs from "fs";
import * as path from "path";
import { parseAllDocuments } from "yaml";
import { CHARTS, ChartCrdData, CRD_CHARTS, crdDataFile, CrdManifest } from "../contracts";
import { chartContents, sha256, vendoredChart } from "../render/charts";
import { isMap } from "../contracts/kubeObject";

/** The `crds/` directories Helm installs from an unpacked chart: its own and those of the subcharts it bundles. */
function crdDirectories(chartDir: string): string[] {
    const dirs: string[] = [];
    const own = path.join(chartDir, "crds");
    if (fs.existsSync(own)) dirs.push(own);
    const sub = path.join(chartDir, "charts");
    if (fs.existsSync(sub)) {
        for (const s of fs.readdirSync(sub).sort()) {
            if (fs.statSync(path.join(sub, s)).isDirectory()) dirs.push(...crdDirectories(path.join(sub, s)));
        }
    }
    return dirs;
}

/** Every CRD in a chart archive's `crds/` directories, as Helm would install them, sorted by name. */
export function extractCrds(archive: string): CrdManifest[] {
    const crds: CrdManifest[] = [];
    for (const dir of crdDirectories(chartContents(archive).dir)) {
        for (const file of fs.readdirSync(dir).filter((f) => /\.(ya?ml|json)$/.test(f)).sort()) {
            for (const doc of parseAllDocuments(fs.readFileSync(path.join(dir, file), "utf8"))) {
                if (doc.errors.length) throw new Error(`${path.basename(archive)}: ${file} does not parse: ${doc.errors[0]!.message}`);
                const o = doc.toJS() as unknown;
                if (!isMap(o)) continue;
                if (o.kind !== "CustomResourceDefinition" || o.apiVersion !== "apiextensions.k8s.io/v1") {
                    throw new Error(`${path.basename(archive)}: ${file} holds ${String(o.apiVersion)} ${String(o.kind)}; only apiextensions.k8s.io/v1 CRDs can be applied`);
                }
                // What the API server fills in is not part of what we apply.
                const { status: _status, ...rest } = o;
                const metadata = { ...(rest.metadata as Record<string, unknown>) };
                delete metadata.creationTimestamp;
                crds.push({ ...rest, metadata } as unknown as CrdManifest);
            }
        }
    }
    return crds.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}

/** The CRD data of a chart version from its vendored archive. */
export function crdData(chart: string, version: string): ChartCrdData {
    const archive = vendoredChart(chart, version);
    if (!archive) throw new Error(`no vendored archive of ${chart} ${version} in test/charts/: vendor it first (docs/upgrading.md)`);
    return { chart, version, source: { archive: path.basename(archive), sha256: sha256(archive) }, crds: extractCrds(archive) };
}

/** The text of a data file: one field per line, so the diff of a chart bump shows what changed in which CRD. */
export function renderCrdData(data: ChartCrdData): string {
    return `${JSON.stringify(data, null, 1)}\n`;
}

/** The data files the pins call for, by file name. */
export function expectedCrdFiles(): Map<string, string> {
    return new Map(CRD_CHARTS.map((id) => [crdDataFile(CHARTS[id].chart, CHARTS[id].version), renderCrdData(crdData(CHARTS[id].chart, CHARTS[id].version))]));
}

/** Where the components read the CRD data from. */
export const CRD_DATA_DIR = path.join(__dirname, "..", "components", "crds");

/** Writes the data of every pinned CRD chart and removes data files no pin names. */
export function writeCrdData(dir = CRD_DATA_DIR): void {
    const expected = expectedCrdFiles();
    fs.mkdirSync(dir, { recursive: true });
    for (const [file, text] of expected) fs.writeFileSync(path.join(dir, file), text);
    for (const f of fs.readdirSync(dir).filter((x) => x.endsWith(".json") && !expected.has(x))) fs.rmSync(path.join(dir, f));
}

if (require.main === module) writeCrdData();
