/** Registration of `mara render`; the command itself (cli/commands/render.ts, which runs the program and Helm) is loaded when it runs. */
import { InvalidArgumentError, type Command } from "commander";
import { action, CommandContext } from "../kernel/command";
import type { RenderOptions } from "../commands/render";

function storeKind(value: string): "SecretStore" | "ClusterSecretStore" {
    if (value === "SecretStore" || value === "ClusterSecretStore") return value;
    throw new InvalidArgumentError(`must be SecretStore or ClusterSecretStore, not "${value}"`);
}

/** The providers render/secrets.ts names entries for (kept here so the registration loads nothing heavy). */
const STORE_PROVIDERS = ["vault", "aws-secrets-manager", "aws-parameter-store", "gcp-secret-manager", "pulumi"] as const;

function storeProvider(value: string): (typeof STORE_PROVIDERS)[number] {
    if ((STORE_PROVIDERS as readonly string[]).includes(value)) return value as (typeof STORE_PROVIDERS)[number];
    throw new InvalidArgumentError(`must be one of ${STORE_PROVIDERS.join(", ")}, not "${value}"`);
}

function secretsMode(value: string): "omit" {
    if (value === "omit") return value;
    throw new InvalidArgumentError(`the only mode is "omit" (for ExternalSecrets give --secret-store NAME), not "${value}"`);
}

/** Adds the command to the program. */
export function register(cli: Command, ctx: CommandContext): void {
    cli.command("render")
        .description("write every Kubernetes object the stack would create as plain manifests (Kustomize folders, Argo CD sync waves), offline")
        .requiredOption("-o, --out <dir>", "folder to write to (created; an earlier render there is replaced)")
        .option("-c, --config-file <path>", "a Pulumi.<stack>.yaml file, ours or MARA's")
        .option("-s, --stack <name>", "read ./Pulumi.<name>.yaml")
        .option("--from-stack [file]", "deploy-time values from the stack's outputs: from the Pulumi CLI, or from a file (- for stdin) saved with `pulumi stack output --json`")
        .option("--allow-placeholders", "write placeholders (names under mara-placeholder.invalid, a digest of zeros) for deploy-time values that are not known, instead of refusing")
        .option("--secret-store <name>", "each Secret becomes an ExternalSecret reading from this External Secrets Operator store")
        .option("--secret-store-kind <kind>", "SecretStore or ClusterSecretStore (default)", storeKind)
        .option("--secret-store-provider <provider>", `what the store is, which decides how its entries are named: ${STORE_PROVIDERS.join(", ")}`, storeProvider)
        .option("--remote-key-prefix <prefix>", "prefix of every remote key in the store (default mara/; /mara/ for aws-parameter-store, mara_ for gcp-secret-manager, the property path mara for pulumi)")
        .option("--esc-environment <org/project/env>", "with --secret-store-provider pulumi: the Pulumi ESC environment the store opens (the render writes the store, to secret-store/)")
        .option("--esc-token-secret <[namespace/]name>", "with --secret-store-provider pulumi: the Secret holding the Pulumi access token (default external-secrets/pulumi-access-token; a name alone for a SecretStore)")
        .option("--esc-token-key <key>", "with --secret-store-provider pulumi: the key of that Secret that holds the token (default PULUMI_ACCESS_TOKEN)")
        .option("--secrets <mode>", "omit: leave Secrets out and list them, instead of ExternalSecrets", secretsMode)
        .option("--kube-version <version>", "Kubernetes minor version the charts render for (default: the stack's cluster version)")
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        .action(action(ctx, (opts: RenderOptions) => (require("../commands/render") as typeof import("../commands/render")).render(opts, ctx)));
}
