/**
 * Generates Pulumi.dev.yaml.example, a complete AWS stack file: every key with its description,
 * default, MARA name and whether it is a secret. Generated from the key table so it cannot go stale.
 */
import { KEY_GROUPS, KEYS, KeySpec } from "../config/keys";
import { otherNamesNote } from "../config/keySpec";

/** Values set (uncommented) in the example, for an AWS stack. */
const ACTIVE: Readonly<Record<string, string>> = { "mara:infraType": "aws", "aws:region": "us-east-1" };


function sample(spec: KeySpec<unknown>): string {
    if (spec.default !== undefined) return spec.type.render(spec.default);
    return spec.example ?? "<value>";
}

function yamlScalar(text: string): string {
    return /^[\w./@:-]+$/.test(text) && !/^(true|false|yes|no|null|\d+(\.\d+)?)$/i.test(text) ? text : JSON.stringify(text);
}

/** The full text of Pulumi.dev.yaml.example. */
export function renderStackExample(): string {
    const lines = [
        "# Example stack settings for an AWS deployment: copy to Pulumi.<stack>.yaml (e.g. Pulumi.dev.yaml).",
        "# Generated from config/keys.ts by `npm run gen`; every key the program reads is listed.",
        "#",
        "# Only mara:infraType and aws:region are needed; every other key shows its default and is commented out.",
        "# Keys marked (secret) must be stored encrypted: pulumi config set --secret <key> <value>.",
        "# MARA's own key names (shown as \"MARA:\") are accepted too, so a MARA stack file works unchanged.",
        "config:",
    ];
    for (const group of KEY_GROUPS) {
        const specs = (Object.values(KEYS) as KeySpec<unknown>[]).filter((s) => s.group === group);
        if (specs.length === 0) continue;
        // A section none of whose keys an AWS stack reads (the other clouds', an existing cluster's and its add-ons').
        const notAws = specs.every((s) => s.usedOn !== undefined && !s.usedOn.includes("aws"));
        lines.push("", `  # ---- ${group}${notAws ? " (not used by an AWS stack)" : ""} ----`);
        for (const spec of specs) {
            const notes = [
                spec.secret ? "(secret)" : "",
                spec.description,
                spec.default !== undefined ? `Default: ${spec.type.render(spec.default)}.` : spec.defaultNote ? `Default: ${spec.defaultNote}.` : "",
                otherNamesNote(spec.legacy, "MARA"),
            ].filter(Boolean);
            lines.push(`  # ${notes.join(" ")}`);
            const active = ACTIVE[spec.key];
            if (active !== undefined) lines.push(`  ${spec.key}: ${yamlScalar(active)}`);
            else if (spec.secret) lines.push(`  # ${spec.key}:`, `  #   secure: <pulumi config set --secret ${spec.key} ...>`);
            else if (spec.type.pulumiType === "array") lines.push(`  # ${spec.key}: ${sample(spec)}`);
            else if (spec.type.pulumiType !== "string") lines.push(`  # ${spec.key}: ${sample(spec)}`);
            else lines.push(`  # ${spec.key}: ${yamlScalar(sample(spec))}`);
        }
    }
    return lines.join("\n") + "\n";
}
