/**
 * `npm run gen`: writes the files generated from the key table (config/keys.ts): Pulumi.yaml,
 * Pulumi.dev.yaml.example and the reference in docs/configuration.md, the CRD data of the pinned charts
 * from their vendored archives (tools/chartCrds.ts), and the region and node-size lists of the provider SDKs
 * (config/regions.generated.ts, config/nodeSizes.generated.ts), and the Backstage template's form (templates/backstage/template.yaml). test/unit/generated.test.ts and test/render/crds.test.ts fail when any of
 * them is stale. A development tool: not part of the program or the published library.
 */
import * as fs from "fs";
import * as path from "path";
import { renderBackstageTemplate, TEMPLATE_FILE } from "./backstageTemplate";
import { writeCrdData } from "./chartCrds";
import { CONFIGURATION_PAGE, spliceConfigReference } from "./configReference";
import { renderPulumiYaml } from "./pulumiYaml";
import { renderNodeSizes } from "./nodeSizes";
import { renderRegions } from "./regions";
import { renderStackExample } from "./stackExample";

/** The repository root. */
export const ROOT = path.join(__dirname, "..");

/** Regenerates every generated file under `root`. */
export function writeGeneratedFiles(root = ROOT): void {
    // First: the key table reads the region lists.
    fs.writeFileSync(path.join(root, "config", "regions.generated.ts"), renderRegions());
    fs.writeFileSync(path.join(root, "config", "nodeSizes.generated.ts"), renderNodeSizes());
    fs.writeFileSync(path.join(root, "Pulumi.yaml"), renderPulumiYaml());
    fs.writeFileSync(path.join(root, "Pulumi.dev.yaml.example"), renderStackExample());
    const page = path.join(root, CONFIGURATION_PAGE);
    fs.writeFileSync(page, spliceConfigReference(fs.readFileSync(page, "utf8")));
    writeCrdData(path.join(root, "components", "crds"));
    fs.writeFileSync(path.join(root, TEMPLATE_FILE), renderBackstageTemplate());
}

if (require.main === module) writeGeneratedFiles();
