/** Writes the files generated from the key table: Pulumi.yaml, Pulumi.dev.yaml.example and the README's reference. */
import * as fs from "fs";
import * as path from "path";
import { renderPulumiYaml } from "./pulumiYaml";
import { spliceConfigReference } from "./reference";
import { renderStackExample } from "./stackExample";

/** The repository root. */
export const ROOT = path.join(__dirname, "..");

/** Regenerates every generated file in the repository root. */
export function writeGeneratedFiles(root = ROOT): void {
    fs.writeFileSync(path.join(root, "Pulumi.yaml"), renderPulumiYaml());
    fs.writeFileSync(path.join(root, "Pulumi.dev.yaml.example"), renderStackExample());
    const readme = path.join(root, "README.md");
    fs.writeFileSync(readme, spliceConfigReference(fs.readFileSync(readme, "utf8")));
}
