/**
 * `mara render`'s core: the whole platform as plain Kubernetes manifests. The program runs offline as `pulumi up`
 * would (cloud values the simulated cloud invents are replaced by stack outputs or placeholders, see
 * deployValues.ts); every typed Kubernetes object it registers is taken as it would be applied, and every Helm
 * release is rendered by Helm 3 from its chart at the pinned version with the program's values and namespace.
 * Secrets become ExternalSecrets or are left out (secrets.ts); files are laid out by layout.ts.
 */
import type { MaraConfig, RawConfig } from "../config";
import { DEFAULTS } from "../contracts";
import { runOffline, RecordedResource } from "../offline/run";
import { chartArchive, chartContents, ChartUnavailableError, parseManifest } from "./charts";
import { isMap, type KubeObject } from "../contracts/kubeObject";
import { releasesOf, ReleaseSpec, typedObjectsOf } from "./collect";
import { DEPLOY_VALUES, DeployValueKey, deployValues, placeholdersIn, renderInvoke, renderState } from "./deployValues";
import { RenderError } from "./errors";
import { helmTemplate } from "./helm";
import { CLUSTER_SCOPED, groupOf } from "./kinds";
import { hooksForArgoCd } from "./hooks";
import { filePaths, layoutFiles, PlacedObject, withWave } from "./layout";
import { podRestartsForGitOps } from "./podRestarts";
import { applicationFiles, componentWaves } from "./applications";
import { repositorySecretFiles } from "./repositorySecret";
import { fleetFiles } from "./fleet";
import { asOneSync, checkSyncObjects } from "./sync/check";
import { syncObjectOf } from "./sync/objects";
import { DEFAULT_ENVIRONMENT, SyncEnvironment } from "./sync/replay";
import { syncWaves } from "./waves";
import { SecretHandling, SecretKeyEntry, secretListFile, withoutSecretValues } from "./secrets";
import { escStoreFiles, writesEscStore } from "./escStore";

/** What to render. */
export interface RenderRequest {
    /** The stack's configuration, as the Pulumi CLI would deliver it. */
    raw: RawConfig;
    /** The same, validated. */
    config: MaraConfig;
    /** The Pulumi program (index.ts's default export). */
    program: () => unknown;
    /** The project directory the program runs in (relative paths in the configuration are resolved there). */
    projectDir?: string;
    /** The stack's outputs (`pulumi stack output --json`), for `--from-stack`; undefined for placeholders. */
    outputs?: Readonly<Record<string, unknown>>;
    /** What to do with Secrets. */
    secrets: SecretHandling;
    /** Kubernetes version charts render for (`.Capabilities.KubeVersion`); by default the stack's cluster version. */
    kubeVersion?: string;
    /**
     * Called with what the run registered and every object before its Secrets are converted or left out: lets a
     * check compare the files with the values they must not contain. Nothing it is given is written anywhere.
     */
    observe?: (seen: { resources: readonly RecordedResource[]; objects: readonly PlacedObject[] }) => void;
}

/** A deploy-time value written as a placeholder. */
export interface PlaceholderUse {
    key: DeployValueKey;
    placeholder: string;
    what: string;
    /** The stack output `--from-stack` reads it from. */
    output: string;
    /** Files it appears in. */
    files: string[];
}

/** What a render produced. */
export interface RenderResult {
    /** Files by path relative to the output folder, with their text. */
    files: Map<string, string>;
    /** Deploy-time values written as placeholders. */
    placeholders: PlaceholderUse[];
    /** Deploy-time values taken from the stack's outputs. */
    fromStack: DeployValueKey[];
    /** The keys the secret store must hold (external), or the keys of the Secrets left out (omit). */
    secrets: SecretKeyEntry[];
    /** Kubernetes version the charts were rendered for. */
    kubeVersion: string;
    /** The namespaces of the components' Secrets (where a SecretStore must be), sorted. */
    secretNamespaces: string[];
    /** Things the user should know that do not stop the render. */
    warnings: string[];
}

export { RenderError };


/** The Kubernetes minor version of the stack's cluster, where the config names one. */
export function kubeVersionOf(config: MaraConfig): string {
    const infra = config.infra as { type: string; eks?: { version?: string }; k8sVersion?: string };
    const named = infra.type === "aws" ? infra.eks?.version : infra.k8sVersion;
    return /^(\d+\.\d+)/.exec(named ?? "")?.[1] ?? DEFAULTS.eks.version;
}

/** Whether a values schema refers to anything it cannot resolve offline (Helm would fetch it, and fail). */
function hasRemoteRefs(schema: unknown): boolean {
    if (Array.isArray(schema)) return schema.some(hasRemoteRefs);
    if (!isMap(schema)) return false;
    if (typeof schema.$ref === "string" && !schema.$ref.startsWith("#")) return true;
    return Object.values(schema).some(hasRemoteRefs);
}

/** The component a resource belongs to: its nearest ancestor component below the Platform, else the top one. */
function componentOf(urn: string, byUrn: Map<string, RecordedResource>): string {
    let fallback: string | undefined;
    for (let r = byUrn.get(urn); r; r = byUrn.get(r.parent)) {
        if (r.custom) continue;
        if (r.type !== "mara:platform:Platform") return r.name;
        fallback ??= r.name;
    }
    return fallback ?? "cluster";
}

/** Pulumi's own annotations steer the Kubernetes provider; they mean nothing to a GitOps controller. */
function withoutPulumiAnnotations(o: KubeObject): KubeObject {
    const annotations = o.metadata?.annotations;
    if (!annotations) return o;
    const kept = Object.fromEntries(Object.entries(annotations).filter(([k]) => !k.startsWith("pulumi.com/")));
    const { annotations: _dropped, ...metadata } = o.metadata!;
    return { ...o, metadata: Object.keys(kept).length ? { ...metadata, annotations: kept } : metadata };
}

/** Renders one release from its chart. */
async function renderRelease(spec: ReleaseSpec, archive: string, kubeVersion: string): Promise<KubeObject[]> {
    const subject = `release ${spec.release} (${spec.chart} ${spec.version}, Pulumi resource ${spec.resource})`;
    if (spec.valuesUnknown || spec.placeholders.length > 0) {
        throw new RenderError(`${subject}: values not known offline (${spec.placeholders.join(", ") || "all of them"}); this is a bug in the program or in mara render, please report it`);
    }
    const result = await helmTemplate({
        release: spec.release,
        namespace: spec.namespace,
        chartPath: archive,
        values: spec.values,
        kubeVersion,
        // The program applies the CRDs of a release that skips crds/ itself; they come with its typed objects.
        includeCrds: !spec.skipCrds,
        // A release installs no test hooks; `helm test` runs them.
        skipTests: true,
        // Helm 3 checks values.schema.json itself, except for schemas that need the network.
        skipSchemaValidation: hasRemoteRefs(chartContents(archive).schema),
    });
    if (!result.ok) throw new RenderError(`${subject}: helm template fails: ${result.error}`);
    return parseManifest(result.manifest);
}

/**
 * Renders the platform; throws {@link RenderError} (or Helm's own error) when it cannot. One render at a time per
 * process: the program runs under Pulumi's process-wide mocks, as `mara plan` does.
 */
export async function renderPlatform(req: RenderRequest): Promise<RenderResult> {
    const values = deployValues(req.outputs);
    const kubeVersion = req.kubeVersion ?? kubeVersionOf(req.config);
    // What Argo CD delivers is the platform as Pulumi would deploy it, whoever delivers it on this stack.
    const raw = { ...req.raw, values: { ...req.raw.values, "mara:delivery": "pulumi" } };
    const run = await runOffline(raw, req.program, req.projectDir, {
        preview: false,
        state: (args, region) => renderState(args, region, values),
        invoke: (args, region) => renderInvoke(args, region, values),
    });
    if (run.error !== undefined) throw new RenderError(`the program stopped before registering everything: ${(run.error as Error)?.message ?? String(run.error)}`);
    const warnings: string[] = run.unansweredInvokes.map((t) => `lookup ${t} was answered with an empty placeholder offline`);
    const byUrn = new Map(run.resources.map((r) => [r.urn, r]));

    const placed: PlacedObject[] = [];
    for (const o of typedObjectsOf(run.resources)) {
        placed.push({ object: withoutPulumiAnnotations(o.body as KubeObject), component: componentOf(o.urn, byUrn), source: `Pulumi resource ${o.resource} (${o.apiVersion} ${o.kind})`, custom: false });
    }
    const releases = releasesOf(run.resources);
    const archives = chartArchives(releases);
    const rendered = await Promise.all(releases.map((spec, i) => renderRelease(spec, archives[i]!, kubeVersion)));
    releases.forEach((spec, i) => {
        for (const object of rendered[i]!) {
            placed.push({ object, component: componentOf(spec.urn, byUrn), source: `release ${spec.release} (${spec.chart} ${spec.version})`, custom: false });
        }
    });

    // Custom kinds and their scope, from every CRD in the output.
    const crdScopes = new Map<string, string>();
    for (const p of placed.filter((x) => x.object.kind === "CustomResourceDefinition")) {
        const spec = p.object.spec as { group: string; names: { kind: string }; scope: string };
        crdScopes.set(`${spec.group}:${spec.names.kind}`, spec.scope);
    }
    releases.forEach((spec, i) => {
        for (const object of rendered[i]!) {
            const key = `${groupOf(object.apiVersion)}:${object.kind}`;
            const namespaced = crdScopes.has(key) ? crdScopes.get(key) === "Namespaced" : !CLUSTER_SCOPED.has(key);
            // Helm's --namespace reaches only templates that write .Release.Namespace; a GitOps tool needs it on the object.
            if (namespaced && !object.metadata?.namespace) object.metadata = { ...object.metadata, namespace: spec.namespace };
        }
    });
    for (const p of placed) p.custom = crdScopes.has(`${groupOf(p.object.apiVersion)}:${p.object.kind}`);
    req.observe?.({ resources: run.resources, objects: placed });

    const { objects: withoutSecrets, entries: secrets } = withoutSecretValues(placed, req.secrets);
    const output = podRestartsForGitOps(hooksForArgoCd(withoutSecrets));
    assertWritable(output);
    const waves = syncWaves(output);
    const header = `# Generated by \`mara render\` from stack "${req.raw.stack}"; regenerate it rather than editing it.\n`;
    const files = layoutFiles(output, header, (p) => waves.get(p));
    const secretNamespaces = [...new Set(secrets.map((e) => e.namespace))].sort();
    // A Pulumi ESC store is written with the render, to be applied before the first sync (escStore.ts).
    if (writesEscStore(req.secrets)) for (const [file, text] of escStoreFiles(req.secrets, secretNamespaces, header)) files.set(file, text);
    // Delivered by Argo CD: an Application per component folder, in the order their needs give (applications.ts).
    const gitops = req.config.gitops;
    let fleetWhole = false;
    // The operator's delivery runs a Pulumi stack, not a render: no Applications.
    const argoCdDelivers = gitops.delivery !== "pulumi" && gitops.delivery !== "operator";
    const apps = argoCdDelivers ? componentWaves(output) : new Map<string, number>();
    if (argoCdDelivers) {
        const source = { repoUrl: gitops.repoUrl!, revision: gitops.revision, path: gitops.path! };
        const destination = gitops.argoCd === "install" ? { inCluster: true as const } : { clusterName: req.config.clusterName };
        for (const [file, text] of applicationFiles(output, source, destination, header)) files.set(file, text);
        // A hub's fleet: an ApplicationSet syncs the whole folder to each cluster, so the folder must also sync as one.
        if (gitops.argoCd === "external" && gitops.fleet) {
            const infra = req.config.infra as { type: string; region?: string };
            const stack = { fleet: gitops.fleet, infraType: infra.type, clusterName: req.config.clusterName, ...(infra.region ? { region: infra.region } : {}), source };
            for (const [file, text] of fleetFiles(stack, header)) files.set(file, text);
            fleetWhole = true;
        }
        // Argo CD's repository Secret from the store, unless Pulumi writes it from the stack's credential (repositorySecret.ts).
        if (req.secrets.mode === "external" && !gitops.repository) {
            const repository = repositorySecretFiles(source.repoUrl, req.secrets, header);
            for (const [file, text] of repository.files) files.set(file, text);
            secrets.push(...repository.entries);
        }
    }
    // Secrets left out are the user's to create before the sync.
    const omitted = req.secrets.mode === "omit" ? secrets.map((e) => ({ group: "", kind: "Secret", namespace: e.namespace, name: e.secret })) : [];
    assertSyncs(output, waves, apps, { ...DEFAULT_ENVIRONMENT, objects: omitted });
    if (fleetWhole) assertSyncs(output, waves, new Map(), { ...DEFAULT_ENVIRONMENT, objects: omitted });
    const list = secretListFile(secrets, req.secrets);
    files.set(list.name, list.text);

    const placeholders = new Map<DeployValueKey, string[]>();
    for (const [file, text] of files) for (const key of placeholdersIn(text)) placeholders.set(key, [...(placeholders.get(key) ?? []), file]);
    return {
        files,
        placeholders: [...placeholders].map(([key, inFiles]) => ({ key, ...DEPLOY_VALUES[key], files: inFiles.sort() })).sort((a, b) => a.key.localeCompare(b.key)),
        fromStack: [...values.fromStack].sort(),
        secrets,
        kubeVersion,
        secretNamespaces,
        warnings,
    };
}

/**
 * Refuses a render whose first Argo CD sync would not complete (the sync model, sync/check.ts): an object the API
 * server refuses, a wave that never becomes healthy, a field the kubelet cannot use.
 */
function assertSyncs(output: readonly PlacedObject[], waves: ReadonlyMap<PlacedObject, number>, apps: ReadonlyMap<string, number>, environment: SyncEnvironment): void {
    const paths = filePaths(output);
    const objects = output.map((p) => syncObjectOf(withWave(p.object, waves.get(p)), paths.get(p)!));
    const problems = checkSyncObjects(asOneSync(objects, apps), { environment });
    if (problems.length === 0) return;
    throw new RenderError(
        `a first Argo CD sync of these manifests would not complete (${problems.length} problem${problems.length === 1 ? "" : "s"}); this is a bug in the program or in mara render, please report it:\n` +
            problems.map((p, i) => `  ${i + 1}. [${p.rule}] ${p.file}: ${p.message}`).join("\n"),
    );
}

/** The chart archive of every release; every chart that cannot be had is named in one error. */
function chartArchives(releases: ReleaseSpec[]): string[] {
    const problems: string[] = [];
    const archives = releases.map((spec) => {
        if (spec.archive) return spec.archive;
        try {
            return chartArchive({ chart: spec.chart, version: spec.version, repositoryUrl: spec.repositoryUrl });
        } catch (e) {
            if (!(e instanceof ChartUnavailableError)) throw e;
            problems.push(`release ${spec.release}: ${e.message}`);
            return "";
        }
    });
    if (problems.length) throw new RenderError(`${problems.length} chart${problems.length === 1 ? "" : "s"} cannot be rendered:\n${problems.map((p, i) => `  ${i + 1}. ${p}`).join("\n")}`);
    return archives;
}

/**
 * Two declarations of one object would fight over it on the cluster (and kustomize refuses them). An object without
 * a name is one Pulumi would name at deploy time with a random suffix: written without one, the API server refuses
 * it, and objects that refer to it by that name would point at nothing.
 */
export function assertWritable(placed: readonly PlacedObject[]): void {
    const seen = new Map<string, PlacedObject>();
    const nameless = placed.filter((p) => !p.object.metadata?.name);
    if (nameless.length) {
        throw new RenderError(
            `${nameless.length} object${nameless.length === 1 ? " has" : "s have"} no name (Pulumi would name ${nameless.length === 1 ? "it" : "them"} at deploy time with a random suffix), so the manifests would be refused: ` +
                `${nameless.map((p) => `${p.object.kind} from ${p.source}`).join(", ")}. Give ${nameless.length === 1 ? "it" : "each"} metadata.name in the component that creates it.`,
        );
    }
    for (const p of placed) {
        const o = p.object;
        const id = `${groupOf(o.apiVersion)}/${o.kind}/${o.metadata?.namespace ?? ""}/${o.metadata?.name}`;
        const first = seen.get(id);
        if (first) throw new RenderError(`${o.kind} ${o.metadata?.namespace ? `${o.metadata.namespace}/` : ""}${o.metadata?.name} is declared twice: by ${first.source} and by ${p.source}`);
        seen.set(id, p);
    }
}
