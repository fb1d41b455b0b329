/**
 * Generates Pulumi.yaml from the key table, so the declarations `pulumi config` shows (types,
 * descriptions, defaults, secrets) can never drift from what the program validates. A test fails when
 * the committed file differs; `npm run gen` rewrites it.
 */
import { stringify } from "yaml";
import { KEYS, KeySpec, PROJECT_NAMESPACE } from "../config/keys";
import { otherNamesNote } from "../config/keySpec";

/** Packages whose default providers are disabled: every resource of theirs needs an explicit provider. */
export const DISABLED_DEFAULT_PROVIDERS = ["aws", "kubernetes", "linode", "digitalocean", "docker"] as const;

/** A project config declaration in Pulumi.yaml. */
export interface ConfigDeclaration {
    /** Pulumi's config type; Pulumi.yaml has no object type, so structured MARA values are not declared. */
    type: "string" | "integer" | "boolean" | "array";
    /** Text `pulumi config` shows: the key's description, its computed default and its MARA alias. */
    description: string;
    /** Default the Pulumi CLI applies when the stack does not set the key. */
    default?: string | number | boolean | string[];
    /** Element type of an `array` key (lists are lists of strings). */
    items?: { type: "string" };
}

/**
 * Declarations for the canonical keys in the project namespace (the only ones Pulumi lets us type) that
 * have a default. A declared key without a default is *required* by the Pulumi CLI ("Stack 'dev' is
 * missing configuration value ..."), which would break MARA stack files that set the legacy key instead;
 * those keys are documented in Pulumi.dev.yaml.example and docs/configuration.md.
 */
export function configDeclarations(): Record<string, ConfigDeclaration> {
    const out: Record<string, ConfigDeclaration> = {};
    for (const spec of Object.values(KEYS) as KeySpec<unknown>[]) {
        const [ns, name] = spec.key.split(":") as [string, string];
        if (ns !== PROJECT_NAMESPACE || spec.default === undefined) continue;
        const notes = [
            spec.defaultNote ? `Default: ${spec.defaultNote}.` : "",
            otherNamesNote(spec.legacy, "MARA key"),
        ].filter(Boolean);
        const decl: ConfigDeclaration = { type: spec.type.pulumiType, description: [spec.description, ...notes].join(" ") };
        if (spec.type.pulumiType === "array") decl.items = { type: "string" };
        decl.default = spec.default as ConfigDeclaration["default"];
        out[name] = decl;
    }
    return out;
}

const HEADER = `# Generated from config/keys.ts by \`npm run gen\` (tools/generate.ts); edit the key table, not this file.
#
# The program runs from its TypeScript sources through Sucrase's require hook (\`typescript: false\` keeps
# Pulumi's ts-node out; \`nodeargs\` registers the hook), which strips types as each module loads: no build
# step, never stale JavaScript, no type-checking at \`pulumi preview\` (CI runs \`tsc --noEmit\`). The loader
# was chosen by measurement: docs/benchmarks.md, "Loading the program" (see PROGRAM_RUNTIME in tools/pulumiYaml.ts).
# Default providers are disabled for every package whose configuration matters: each AWS and Kubernetes
# resource names its provider explicitly, and nothing ever uses the ambient kubeconfig. @pulumi/eks keeps
# its default provider (it has no configuration); it receives the explicit AWS provider from the Eks component.
# \`main: index.ts\` keeps \`pulumi up\` on the program in index.ts. Without it the CLI passes "." and the Node.js
# runtime (@pulumi/pulumi cmd/run/run.js) takes the entry point from package.json \`exports\` (else \`main\`),
# which name the compiled npm library (dist/components/index.js), not the program. With a file named here, run.js
# is given that file and does not read package.json for an entry point (see PROGRAM_ENTRY_POINT in tools/pulumiYaml.ts).
`;

/**
 * The Pulumi program's entry point, relative to Pulumi.yaml. It has to be named here because package.json
 * `exports`/`main` describe the npm library (dist/components/index.js), and how Pulumi picks the entry point is:
 *
 * 1. The CLI turns Pulumi.yaml `main` into a working directory and an entry point: no `main` gives the project
 *    directory and ".", a directory gives that directory and ".", a file gives its directory and its file name.
 * 2. The Node.js runtime (`@pulumi/pulumi/cmd/run/run.js`, `run()`) treats "." as "no entry point set" and then
 *    takes `exports` (a string, or `exports["."]` as `default`, `require` or `import`), or, when there is no
 *    `exports`, `main` from the nearest package.json, falling back to the directory only if that file is missing.
 *    Any other entry point is used as it is, and package.json is not consulted.
 *
 * So without `main: index.ts` here, `pulumi up` would load the compiled library (whose exports it would take
 * for stack outputs) instead of the program. With it, index.ts runs through the loader of {@link PROGRAM_RUNTIME}.
 */
export const PROGRAM_ENTRY_POINT = "index.ts";

/**
 * Pulumi.yaml `runtime.options` of the nodejs runtime: how the language host starts the program's process.
 *
 * - `typescript: false`: Pulumi's run.js does not register ts-node (with `true`, its default, it would, and
 *   ts-node's transpiling costs about a second per run; docs/benchmarks.md).
 * - `nodeargs`: node's arguments before Pulumi's entry point. `--require sucrase/register/ts` installs
 *   Sucrase's hook for `.ts` files only; the packages (`.js`) load untouched. run.js then `require`s
 *   index.ts (the package is CommonJS) and the hook compiles it and everything it imports.
 * - `packagemanager: npm`: what `pulumi install` runs (the lockfile is npm's).
 *
 * Pulumi's dynamic-provider host (the drain and volume retention at destroy) runs the serialized provider
 * code in plain node, without this hook; the serialized code is JavaScript (test/program/dynamicProvider.test.ts).
 */
export const PROGRAM_RUNTIME = { typescript: false, nodeargs: "--require sucrase/register/ts", packagemanager: "npm" } as const;

/** The full text of Pulumi.yaml. */
export function renderPulumiYaml(): string {
    const doc = {
        name: PROJECT_NAMESPACE,
        description: "NGINX Modern Application Reference Architecture (MARA) as one Pulumi program",
        runtime: { name: "nodejs", options: { ...PROGRAM_RUNTIME } },
        // The program's entry point; see HEADER for why package.json cannot be left to name it.
        main: PROGRAM_ENTRY_POINT,
        config: {
            "pulumi:disable-default-providers": [...DISABLED_DEFAULT_PROVIDERS],
            ...configDeclarations(),
        },
    };
    return HEADER + stringify(doc, { lineWidth: 0 });
}

