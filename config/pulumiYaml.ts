/**
 * Generates Pulumi.yaml from the key table, so the declarations `pulumi config` shows (types,
 * descriptions, defaults, secrets) can never drift from what the program validates. A test fails when
 * the committed file differs; `npm run gen` rewrites it.
 */
import { stringify } from "yaml";
import { KEYS, KeySpec, PROJECT_NAMESPACE } from "./keys";

/** Packages whose default providers are disabled: every resource of theirs needs an explicit provider. */
export const DISABLED_DEFAULT_PROVIDERS = ["aws", "kubernetes", "linode", "digitalocean", "docker"] as const;

/** A project config declaration in Pulumi.yaml. */
export interface ConfigDeclaration {
    type: "string" | "integer" | "boolean" | "array";
    description: string;
    default?: string | number | boolean | string[];
    items?: { type: "string" };
}

/**
 * Declarations for the canonical keys in the project namespace (the only ones Pulumi lets us type) that
 * have a default. A declared key without a default is *required* by the Pulumi CLI ("Stack 'dev' is
 * missing configuration value ..."), which would break MARA stack files that set the legacy key instead;
 * those keys are documented in Pulumi.dev.yaml.example and the README.
 */
export function configDeclarations(): Record<string, ConfigDeclaration> {
    const out: Record<string, ConfigDeclaration> = {};
    for (const spec of Object.values(KEYS) as KeySpec<unknown>[]) {
        const [ns, name] = spec.key.split(":") as [string, string];
        if (ns !== PROJECT_NAMESPACE || spec.default === undefined) continue;
        const legacy = spec.legacy.map((l) => l.key + (l.field ? `.${l.field}` : ""));
        const notes = [
            spec.defaultNote ? `Default: ${spec.defaultNote}.` : "",
            legacy.length ? `MARA key: ${legacy.join(", ")}.` : "",
        ].filter(Boolean);
        const decl: ConfigDeclaration = { type: spec.type.pulumiType, description: [spec.description, ...notes].join(" ") };
        if (spec.type.pulumiType === "array") decl.items = { type: "string" };
        decl.default = spec.default as ConfigDeclaration["default"];
        out[name] = decl;
    }
    return out;
}

const HEADER = `# Generated from config/keys.ts by \`npm run gen:pulumi-yaml\`; edit the key table, not this file.
#
# The program runs transpile-only (tsconfig.json "ts-node": {"transpileOnly": true}), so \`pulumi preview\`
# does not pay for type-checking; CI type-checks with \`tsc --noEmit\`.
# Default providers are disabled for every package whose configuration matters: each AWS and Kubernetes
# resource names its provider explicitly, and nothing ever uses the ambient kubeconfig. @pulumi/eks keeps
# its default provider (it has no configuration); it receives the explicit AWS provider from the Eks component.
`;

/** The full text of Pulumi.yaml. */
export function renderPulumiYaml(): string {
    const doc = {
        name: PROJECT_NAMESPACE,
        description: "NGINX Modern Application Reference Architecture (MARA) as one Pulumi program",
        runtime: { name: "nodejs", options: { typescript: true, packagemanager: "npm" } },
        config: {
            "pulumi:disable-default-providers": [...DISABLED_DEFAULT_PROVIDERS],
            ...configDeclarations(),
        },
    };
    return HEADER + stringify(doc, { lineWidth: 0 });
}

