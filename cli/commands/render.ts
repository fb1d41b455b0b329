/**
 * `mara render`: the whole platform as plain Kubernetes manifests, for review, for committing, and for a GitOps
 * controller (docs/gitops.md). Offline: the program runs under Pulumi mocks, Helm 3 renders each release from its
 * chart; no cluster, cloud or credentials.
 */
import * as path from "path";
import program from "../../index";
import type { CommandContext } from "../kernel/command";
import { formatProblem, Redactor } from "../../config";
import { shortenValue } from "../../config/redact";
import { admissionVersionProblem } from "../../components/admissionPolicies/settings";
import { kubernetesNameAllowed, kubernetesNameProblem } from "../../contracts/names";
import { PATTERNS } from "../../contracts/patterns";
import { CliError, CliIo, EXIT, line } from "../kernel/io";
import { renderPlatform, RenderResult } from "../../render/render";
import { REPOSITORY_FOLDER } from "../../render/repositorySecret";
import { FLEET_FOLDER } from "../../components/argoCd/applicationSet";
import { EscStore, remoteKeyPrefixProblem, remoteKeyProblem, SecretHandling, STORE_PROVIDERS, StoreProvider } from "../../render/secrets";
import { ESC_DEFAULT_PREFIX, ESC_ENVIRONMENT_ALLOWED, ESC_PREFIX_ALLOWED, escPrefixProblem, parseEscEnvironment } from "../../render/escPaths";
import { ESC_STORE_FOLDER, ESC_TOKEN_DEFAULTS, tokenSecretCommands, writesEscStore } from "../../render/escStore";
import { outputDirProblem, writeOutputDir } from "../../render/outputDir";
import { reasonOf } from "../../host/outputPath";
import { outputsFromFile, outputsFromPulumi } from "../../render/stackOutputs";
import { configTarget } from "../stack/configTarget";
import { deployValueProblems } from "../../render/deployValues";
import { checkConfig } from "../kernel/report";
import { locateStackFile, readStackFile, StackFileChoice } from "../stack/stackSource";

/** Options of {@link render}. */
export interface RenderOptions extends StackFileChoice {
    /** Folder to write the manifests to (created; an earlier render there is replaced). */
    readonly out: string;
    /** Read deploy-time values from the stack's outputs: `true` asks the Pulumi CLI, a path (or "-") reads saved `pulumi stack output --json`. */
    readonly fromStack?: boolean | string;
    /** Write placeholders for deploy-time values that are not known, instead of refusing. */
    readonly allowPlaceholders?: boolean;
    /** Name of the External Secrets Operator store each Secret's ExternalSecret reads from. */
    readonly secretStore?: string;
    /** Kind of that store. Default ClusterSecretStore. */
    readonly secretStoreKind?: "SecretStore" | "ClusterSecretStore";
    /** The store's provider, which decides how its entries are named (required with secretStore). */
    readonly secretStoreProvider?: StoreProvider;
    /** Prefix of every remote key. Default: the provider's ("mara/", "/mara/" for AWS Parameter Store, "mara_" for Google). */
    readonly remoteKeyPrefix?: string;
    /** "omit": leave Secrets out and list them, instead of ExternalSecrets. */
    readonly secrets?: "omit";
    /** Kubernetes version charts render for; by default the stack's cluster version. */
    readonly kubeVersion?: string;
    /** With provider pulumi: the Pulumi ESC environment, `<organization>/<project>/<environment>`. */
    readonly escEnvironment?: string;
    /** With provider pulumi: the access token's Secret, `<namespace>/<name>` (ClusterSecretStore) or `<name>` (SecretStore). */
    readonly escTokenSecret?: string;
    /** With provider pulumi: the key of that Secret that holds the token. Default PULUMI_ACCESS_TOKEN. */
    readonly escTokenKey?: string;
}

/** How Secrets are written, from the options; a usage error when neither or both ways are chosen. */
export function secretHandling(opts: RenderOptions): SecretHandling {
    if (opts.secrets === "omit" && opts.secretStore !== undefined) throw new CliError("give either --secret-store NAME or --secrets=omit, not both", EXIT.usage);
    // The store's kind, provider and prefix describe the store of --secret-store; without one they would do nothing.
    const storeFlags = [
        opts.secretStoreKind !== undefined ? `--secret-store-kind ${opts.secretStoreKind}` : undefined,
        opts.secretStoreProvider !== undefined ? `--secret-store-provider ${opts.secretStoreProvider}` : undefined,
        opts.remoteKeyPrefix !== undefined ? `--remote-key-prefix ${JSON.stringify(shortenValue(opts.remoteKeyPrefix))}` : undefined,
        ...escFlags(opts),
    ].filter((f): f is string => f !== undefined);
    if (opts.secretStore === undefined && storeFlags.length > 0) {
        throw new CliError(
            `${storeFlags.join(" and ")} ${storeFlags.length === 1 ? "describes" : "describe"} the store of --secret-store, which is not given${opts.secrets === "omit" ? " (--secrets=omit writes no ExternalSecret)" : ""}, so ${storeFlags.length === 1 ? "it" : "they"} would do nothing. ` +
                `Fix: add --secret-store NAME (the External Secrets Operator store each Secret is read from)${opts.secrets === "omit" ? " instead of --secrets=omit" : ""}, or leave ${storeFlags.length === 1 ? "it" : "them"} out`,
            EXIT.usage,
        );
    }
    if (opts.secrets === "omit") return { mode: "omit" };
    if (opts.secretStore === undefined) {
        throw new CliError(
            "Secrets are never written in plain text: give --secret-store NAME (each Secret becomes an ExternalSecret reading from that External Secrets Operator store; " +
                "add --secret-store-kind SecretStore for a namespaced store) or --secrets=omit (Secrets are left out and listed, for you to create)",
            EXIT.usage,
        );
    }
    // The store's name goes into every ExternalSecret's secretStoreRef, the prefix into every remote key.
    const storeProblem = kubernetesNameProblem(opts.secretStore, "subdomain");
    if (storeProblem) {
        throw new CliError(
            `--secret-store ${JSON.stringify(shortenValue(opts.secretStore))} ${storeProblem}. Allowed: ${kubernetesNameAllowed("subdomain")}, the name of the ${opts.secretStoreKind ?? "ClusterSecretStore"}. ` +
                `Fix: give the store's name as \`kubectl get ${(opts.secretStoreKind ?? "ClusterSecretStore").toLowerCase()}s\` lists it, such as --secret-store vault-backend`,
            EXIT.usage,
        );
    }
    const provider = opts.secretStoreProvider;
    if (!provider) {
        throw new CliError(`--secret-store needs --secret-store-provider (${Object.keys(STORE_PROVIDERS).join(", ")}): each provider names and reads its entries differently`, EXIT.usage);
    }
    const esc = escFlags(opts);
    if (provider !== "pulumi" && esc.length > 0) {
        throw new CliError(
            `${esc.join(" and ")} ${esc.length === 1 ? "describes" : "describe"} a Pulumi ESC store, and --secret-store-provider is ${provider}, so ${esc.length === 1 ? "it" : "they"} would do nothing. ` +
                `Fix: --secret-store-provider pulumi for a Pulumi ESC environment, or leave ${esc.length === 1 ? "it" : "them"} out`,
            EXIT.usage,
        );
    }
    const prefix = opts.remoteKeyPrefix ?? STORE_PROVIDERS[provider].prefix;
    const storeKind = opts.secretStoreKind ?? "ClusterSecretStore";
    if (provider === "pulumi") return { mode: "external", store: opts.secretStore, storeKind, provider, remoteKeyPrefix: escPrefix(prefix), esc: escStore(opts, storeKind) };
    if (/[\s\u0000-\u001f\u007f]/.test(prefix)) {
        throw new CliError(`--remote-key-prefix ${JSON.stringify(shortenValue(prefix))} contains white space or control characters. Allowed: the start of a key in the store, such as ${STORE_PROVIDERS[provider].prefix}. Fix: --remote-key-prefix ${STORE_PROVIDERS[provider].prefix}`, EXIT.usage);
    }
    const segments = remoteKeyPrefixProblem(prefix);
    if (segments) {
        throw new CliError(`--remote-key-prefix ${JSON.stringify(shortenValue(prefix))} ${segments}. Allowed: a prefix of plain segments, such as ${STORE_PROVIDERS[provider].prefix}. Fix: --remote-key-prefix ${STORE_PROVIDERS[provider].prefix}`, EXIT.usage);
    }
    const problem = remoteKeyProblem(provider, `${prefix}ns${STORE_PROVIDERS[provider].separator}name`);
    if (problem) throw new CliError(`--remote-key-prefix ${prefix}: remote keys such as ${problem}`, EXIT.usage);
    return { mode: "external", store: opts.secretStore, storeKind, provider, remoteKeyPrefix: prefix };
}

/** The Pulumi ESC flags given, as a message names them. */
function escFlags(opts: RenderOptions): string[] {
    return [
        opts.escEnvironment !== undefined ? `--esc-environment ${JSON.stringify(shortenValue(opts.escEnvironment))}` : undefined,
        opts.escTokenSecret !== undefined ? `--esc-token-secret ${JSON.stringify(shortenValue(opts.escTokenSecret))}` : undefined,
        opts.escTokenKey !== undefined ? `--esc-token-key ${JSON.stringify(shortenValue(opts.escTokenKey))}` : undefined,
    ].filter((f): f is string => f !== undefined);
}

/** The remote key prefix of a Pulumi ESC store: a property path of plain names (escPaths.ts). */
function escPrefix(prefix: string): string {
    const problem = escPrefixProblem(prefix);
    if (problem) {
        throw new CliError(
            `--remote-key-prefix ${JSON.stringify(shortenValue(prefix))} ${problem}: with --secret-store-provider pulumi it is the property path of the environment's values that holds the platform's Secrets. ` +
                `Allowed: ${ESC_PREFIX_ALLOWED}. Fix: --remote-key-prefix ${ESC_DEFAULT_PREFIX}`,
            EXIT.usage,
        );
    }
    return prefix;
}

/**
 * The Pulumi ESC store the render writes (escStore.ts): the environment, and the access token's Secret as the External
 * Secrets Operator's Pulumi provider takes it (external-secrets providers/v1/pulumi/provider.go): a ClusterSecretStore
 * names the Secret's namespace (`NewClient` fails "cluster store requires namespace" without one), a SecretStore names
 * none (runtime/esutils `ValidateReferentSecretSelector` refuses any but its own, and the render writes one store per
 * namespace). Names and key by the CRD's patterns for `SecretKeySelector` (apis/meta/v1/types.go).
 */
function escStore(opts: RenderOptions, storeKind: "SecretStore" | "ClusterSecretStore"): EscStore {
    if (opts.escEnvironment === undefined) {
        throw new CliError(
            "--secret-store-provider pulumi needs --esc-environment <organization>/<project>/<environment>: the Pulumi ESC environment the store opens (esc env ls lists yours). Fix: add --esc-environment, such as --esc-environment acme/platform/prod",
            EXIT.usage,
        );
    }
    const parsed = parseEscEnvironment(opts.escEnvironment);
    if (!parsed.ok) {
        throw new CliError(`--esc-environment ${JSON.stringify(shortenValue(opts.escEnvironment))} ${parsed.reason}. Allowed: ${ESC_ENVIRONMENT_ALLOWED}. Fix: --esc-environment acme/platform/prod, as esc env ls lists it`, EXIT.usage);
    }
    const cluster = storeKind === "ClusterSecretStore";
    const example = cluster ? `${ESC_TOKEN_DEFAULTS.namespace}/${ESC_TOKEN_DEFAULTS.name}` : ESC_TOKEN_DEFAULTS.name;
    const ref = opts.escTokenSecret ?? example;
    const slash = ref.indexOf("/");
    const namespace = slash >= 0 ? ref.slice(0, slash) : undefined;
    const name = slash >= 0 ? ref.slice(slash + 1) : ref;
    const flag = `--esc-token-secret ${JSON.stringify(shortenValue(ref))}`;
    if (cluster && namespace === undefined) {
        throw new CliError(`${flag} names no namespace, and a ClusterSecretStore reads its token from a Secret in a namespace it must name (the External Secrets Operator refuses it otherwise: "cluster store requires namespace"). Allowed: <namespace>/<name>. Fix: ${flag.split(" ")[0]} ${ESC_TOKEN_DEFAULTS.namespace}/${name}`, EXIT.usage);
    }
    if (!cluster && namespace !== undefined) {
        throw new CliError(
            `${flag} names the namespace ${JSON.stringify(shortenValue(namespace))}, and a SecretStore reads its token only from its own namespace (the External Secrets Operator refuses another): the render writes a SecretStore in each namespace, each reading the Secret ${JSON.stringify(shortenValue(name))} there. Allowed: <name>. Fix: --esc-token-secret ${shortenValue(name)}`,
            EXIT.usage,
        );
    }
    const nsProblem = namespace === undefined ? undefined : kubernetesNameProblem(namespace, "label");
    if (nsProblem) throw new CliError(`${flag}: the namespace ${JSON.stringify(shortenValue(namespace!))} ${nsProblem}. Allowed: ${kubernetesNameAllowed("label")}. Fix: --esc-token-secret ${example}`, EXIT.usage);
    const nameProblem = kubernetesNameProblem(name, "subdomain");
    if (nameProblem) throw new CliError(`${flag}: the Secret's name ${JSON.stringify(shortenValue(name))} ${nameProblem}. Allowed: ${kubernetesNameAllowed("subdomain")}. Fix: --esc-token-secret ${example}`, EXIT.usage);
    const key = opts.escTokenKey ?? ESC_TOKEN_DEFAULTS.key;
    // A Secret's data key (apimachinery IsConfigMapKey), as ESO's SecretKeySelector pattern repeats it.
    if (key.length > 253 || !/^[-._a-zA-Z0-9]+$/.test(key) || key === "." || key.startsWith("..")) {
        throw new CliError(
            `--esc-token-key ${JSON.stringify(shortenValue(key))} is not a key a Secret can hold. Allowed: letters, digits, '-', '_' and '.' (not '.' alone, not starting with '..'), at most 253 characters. Fix: --esc-token-key ${ESC_TOKEN_DEFAULTS.key}`,
            EXIT.usage,
        );
    }
    return { ...parsed.value, token: { name, key, ...(namespace !== undefined ? { namespace } : {}) } };
}

/**
 * Renders the stack's manifests into `--out`.
 *
 * @returns 0 when written; 1 when the configuration is invalid, a chart cannot be rendered, or deploy-time values
 *   would be placeholders without --allow-placeholders (nothing is written then); 2 for a wrong command line.
 */
export async function render(opts: RenderOptions, ctx: CommandContext): Promise<number> {
    const { io } = ctx;
    const secrets = secretHandling(opts);
    if (opts.kubeVersion !== undefined && !PATTERNS.kubernetesMinor.pattern.test(opts.kubeVersion)) {
        throw new CliError(`--kube-version ${JSON.stringify(shortenValue(opts.kubeVersion))} is not ${PATTERNS.kubernetesMinor.allowed}. Fix: --kube-version 1.35, or leave it out to render for the stack's cluster version`, EXIT.usage);
    }
    const out = path.resolve(io.cwd, opts.out);
    const dirProblem = outputDirProblem(out, opts.out);
    if (dirProblem) throw new CliError(dirProblem, EXIT.usage);
    const file = locateStackFile(opts, io.cwd, io.projectDir);
    const raw = readStackFile(file, io.env, io.projectDir);
    const checked = checkConfig(io, raw, file.path, configTarget(file, io.projectDir));
    if (!checked) return EXIT.failed;
    // The stack's own cluster version was checked with the configuration; a version given here is checked the same way.
    const mode = checked.config.admissionPolicies.mode;
    const tooOld = opts.kubeVersion !== undefined && mode !== "none" ? admissionVersionProblem(opts.kubeVersion) : undefined;
    if (tooOld) {
        throw new CliError(`--kube-version ${opts.kubeVersion}: the stack installs admission policies (mara:admissionPolicies ${mode}), but ${tooOld}. Fix: --kube-version 1.30 or later, or pulumi config set mara:admissionPolicies none`, EXIT.usage);
    }

    let outputs: Record<string, unknown> | undefined;
    if (opts.fromStack !== undefined && opts.fromStack !== false) {
        try {
            if (opts.fromStack === true) outputs = await outputsFromPulumi(raw.stack, io.projectDir, io.env);
            else outputs = await outputsFromFile(opts.fromStack === "-" ? "-" : path.resolve(io.cwd, opts.fromStack), io.stdin);
        } catch (e) {
            throw new CliError((e as Error).message);
        }
        // Every value a manifest would take from the outputs is checked by its form before anything is rendered.
        const where = opts.fromStack === true ? "the stack's outputs" : opts.fromStack === "-" ? "the outputs on standard input" : opts.fromStack;
        const problems = deployValueProblems(outputs, where);
        if (problems.length > 0) {
            line(io.stderr, `error: ${where} ${problems.length === 1 ? "has a value" : `has ${problems.length} values`} no manifest may hold, so nothing was rendered:`);
            problems.forEach((p, i) => line(io.stderr, `  ${i + 1}. ${formatProblem(p)}`));
            return EXIT.failed;
        }
    }

    let result: RenderResult;
    try {
        result = await renderPlatform({ raw, config: checked.config, program, projectDir: io.projectDir, outputs, secrets, kubeVersion: opts.kubeVersion });
    } catch (e) {
        // The program's own errors may quote configuration; secrets in it are masked as everywhere else.
        throw new CliError(`cannot render stack "${raw.stack}": ${Redactor.of(raw).redact((e as Error).message)}`);
    }
    for (const w of result.warnings) line(io.stderr, `warning: ${w}`);
    reportValues(io, result, outputs !== undefined);
    if (result.placeholders.length > 0 && !opts.allowPlaceholders) {
        line(io.stderr, `error: ${result.placeholders.length} deploy-time value${result.placeholders.length === 1 ? " is" : "s are"} not known, so nothing was written.`);
        line(io.stderr, "  Deploy the stack and render again with --from-stack (or --from-stack outputs.json, saved with `pulumi stack output --json`),");
        line(io.stderr, "  or pass --allow-placeholders and replace each placeholder (listed above) before applying the manifests.");
        return EXIT.failed;
    }
    let written: ReturnType<typeof writeOutputDir>;
    try {
        written = writeOutputDir(out, result.files, `Written by mara render from stack "${raw.stack}".\n`);
    } catch (e) {
        // Checked before rendering; only a change since then (a full disk, a permission taken away) ends here.
        throw new CliError(`cannot write ${opts.out}: ${reasonOf(e)}; nothing was written`);
    }
    // What a render Argo CD delivers writes for Argo CD itself (argocd/) is counted apart from the components' objects.
    const files = [...result.files.keys()].filter((f) => f.includes("/") && !f.endsWith("/kustomization.yaml"));
    const apps = files.filter((f) => f.startsWith("argocd/application-")).length;
    // The components' objects; Argo CD's own (argocd/) and the store applied before the sync (secret-store/) apart.
    const objects = files.filter((f) => !f.startsWith("argocd/") && !f.startsWith(`${ESC_STORE_FOLDER}/`));
    const components = new Set(objects.map((f) => f.split("/")[0]!));
    const where = written.viaLink ? `${opts.out} (a link to ${written.real})` : opts.out;
    line(io.stdout, `Wrote ${objects.length} objects in ${components.size} components to ${where} (charts rendered for Kubernetes ${result.kubeVersion}).`);
    if (apps > 0) line(io.stdout, `Wrote ${apps} Argo CD Applications, one per component, to ${path.join(opts.out, "argocd")}; the root Application syncs them in their waves.`);
    if (result.files.has(`${FLEET_FOLDER}/kustomization.yaml`)) {
        const folder = path.join(opts.out, FLEET_FOLDER);
        line(
            io.stdout,
            `For the fleet "${checked.config.gitops.fleet}", the ApplicationSet is in ${folder}: apply it on the hub in place of the root Application (kubectl apply -k ${folder}); it syncs this render to every cluster registered there with the labels mara.nginx.com/fleet=${checked.config.gitops.fleet} and mara.nginx.com/infra-type=${checked.config.infra.type}.`,
        );
    }
    if (result.files.has(`${REPOSITORY_FOLDER}/kustomization.yaml`)) {
        line(
            io.stdout,
            `For a private repository, Argo CD's repository Secret comes from the store: apply ${path.join(opts.out, REPOSITORY_FOLDER)} once where Argo CD runs, before the root Application (kubectl apply -k ${path.join(opts.out, REPOSITORY_FOLDER)}).`,
        );
    }
    reportSecrets(io, result, secrets, opts.out);
    return EXIT.ok;
}

function reportValues(io: CliIo, result: RenderResult, fromStack: boolean): void {
    if (fromStack && result.fromStack.length > 0) line(io.stdout, `Deploy-time values from the stack's outputs: ${result.fromStack.join(", ")}.`);
    if (result.placeholders.length === 0) return;
    line(io.stderr, `Deploy-time values written as placeholders${fromStack ? " (the stack's outputs do not give them)" : " (no --from-stack)"}:`);
    for (const p of result.placeholders) {
        line(io.stderr, `  ${p.placeholder}: ${p.what}; stack output ${p.output}; in ${p.files.join(", ")}`);
    }
}

function reportSecrets(io: CliIo, result: RenderResult, secrets: SecretHandling, out: string): void {
    const count = new Set(result.secrets.map((s) => `${s.namespace}/${s.secret}`)).size;
    if (secrets.mode === "external") {
        line(io.stdout, `${count} Secrets became ExternalSecrets reading from ${secrets.storeKind} "${secrets.store}" (${secrets.provider}); the ${count} entries and ${result.secrets.length} keys it must hold are listed in ${path.join(out, "secret-keys.txt")}.`);
        if (writesEscStore(secrets)) {
            const folder = path.join(out, ESC_STORE_FOLDER);
            line(io.stdout, `The ${secrets.storeKind} for the Pulumi ESC environment ${secrets.esc.organization}/${secrets.esc.project}/${secrets.esc.environment} is in ${folder}. Before the first sync, create the access token's Secret it reads and apply it:`);
            for (const c of tokenSecretCommands(secrets, result.secretNamespaces)) line(io.stdout, `  ${c}`);
            line(io.stdout, `  kubectl apply -k ${folder}`);
        }
    } else {
        line(io.stdout, `${count} Secrets were left out; create them before syncing. They are listed in ${path.join(out, "omitted-secrets.txt")}:`);
        for (const s of [...new Set(result.secrets.map((x) => `${x.namespace}/${x.secret}`))]) line(io.stdout, `  ${s}`);
    }
}
