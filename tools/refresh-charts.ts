/**
 * Refreshes the vendored chart archives in test/charts/ from their Helm repositories, on a machine with internet
 * access: one `helm pull` per chart version contracts/charts.ts pins, then SHA256SUMS rewritten and archives no
 * pin names removed. Run it after changing a pin, then review and commit test/charts/:
 *
 *     . .toolchain/activate && npx ts-node -T tools/refresh-charts.ts
 *
 * Uses the same Helm 3 as the tests (HELM=/path/to/helm overrides). Pulled archives are the published ones, so
 * their digests differ from the seed archives, which were packaged from the charts' Git tags.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { CHARTS } from "../contracts";
import { archiveName, CHARTS_DIR, sha256 } from "../render/charts";
import { helmBinary } from "../render/helm";

function main(): void {
    const helm = helmBinary().path;
    const wanted = new Set<string>();
    for (const c of Object.values(CHARTS)) {
        const file = archiveName(c.chart, c.version);
        wanted.add(file);
        console.log(`helm pull ${c.chart} --repo ${c.repositoryUrl} --version ${c.version}`);
        const tmp = fs.mkdtempSync(path.join(CHARTS_DIR, ".pull-"));
        try {
            execFileSync(helm, ["pull", c.chart, "--repo", c.repositoryUrl, "--version", c.version, "--destination", tmp], { stdio: "inherit" });
            fs.renameSync(path.join(tmp, file), path.join(CHARTS_DIR, file));
        } finally {
            fs.rmSync(tmp, { recursive: true, force: true });
        }
    }
    for (const f of fs.readdirSync(CHARTS_DIR).filter((x) => x.endsWith(".tgz") && !wanted.has(x))) {
        console.log(`removing ${f}: no pin names it`);
        fs.rmSync(path.join(CHARTS_DIR, f));
    }
    const sums = [...wanted].sort().map((f) => `${sha256(path.join(CHARTS_DIR, f))}  ${f}`);
    fs.writeFileSync(path.join(CHARTS_DIR, "SHA256SUMS"), `${sums.join("\n")}\n`);
    console.log("SHA256SUMS rewritten; update the provenance table in test/charts/README.md and commit test/charts/.");
}

main();
