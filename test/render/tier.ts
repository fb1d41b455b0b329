/**
 * The render tier: what Helm and the Kubernetes API server would say about a program run. Every Helm release is
 * rendered by Helm 3 from the vendored chart at its pinned version, then checked by the rules each real system
 * applies (see docs/testing.md). Each finding names its rule, so negative tests can assert which rule fired.
 */
import Ajv, { type AnySchema, type ValidateFunction } from "ajv";
import Ajv2019 from "ajv/dist/2019";
import { KIC_CHARTS, flagsUndefinedBy, kicImageProblem } from "../../components/ingressController/settings";
import { chartContents, crdsIn, parseManifest, vendoredChart } from "../../render/charts";
import { isMap, type KubeObject } from "../../contracts/kubeObject";
import { helmTemplate } from "../support/helm";
import type { Registration } from "../support/mocks";
import { releasesOf, ReleaseSpec, TypedObject, typedObjectsOf, waitsFor } from "../../render/collect";
import { builtInModel, builtInProblems, REMOVED_APIS, TARGET_KUBE_VERSION } from "./kubernetesSchema";

/** The rules of the tier. */
export type Rule =
    | "chart-archive"
    | "helm-template"
    | "values-schema"
    | "ignored-key"
    | "kubernetes-schema"
    | "crd-schema"
    | "dependency"
    | "controller-flags"
    | "values-unknown";

/** One thing Helm or Kubernetes would refuse or ignore. */
export interface Finding {
    rule: Rule;
    /** The release or object concerned. */
    subject: string;
    message: string;
}

/** Options of {@link checkRun}. */
export interface CheckOptions {
    /** Probe values keys absent from the chart's defaults for being ignored (costs extra renders). Default true. */
    probeIgnoredKeys?: boolean;
}

/** A release rendered with its chart facts. */
interface Rendered {
    spec: ReleaseSpec;
    objects: KubeObject[];
}

/** Remote `$ref`s of values schemas that cannot be fetched offline, by chart: replaced by "anything" and listed here. */
export const SKIPPED_SCHEMA_REFS = new Map<string, Set<string>>();

/** Manifests already parsed in this process, by their text: most releases render the same in every fixture. */
const parsedManifests = new Map<string, KubeObject[]>();

/** The objects of a manifest, parsed once per text; frozen, since every run that renders the same text shares them. */
function parsedManifest(manifest: string): KubeObject[] {
    let objects = parsedManifests.get(manifest);
    if (!objects) {
        objects = deepFreeze(parseManifest(manifest));
        parsedManifests.set(manifest, objects);
    }
    return objects;
}

function deepFreeze<T>(value: T): T {
    if (value && typeof value === "object" && !Object.isFrozen(value)) {
        Object.values(value).forEach(deepFreeze);
        Object.freeze(value);
    }
    return value;
}

/** Renders a release as Helm would install it. */
async function render(spec: ReleaseSpec, values: Record<string, unknown>, archive: string) {
    const schema = chartContents(archive).schema;
    return helmTemplate({
        release: spec.release,
        namespace: spec.namespace,
        chartPath: archive,
        values,
        kubeVersion: TARGET_KUBE_VERSION,
        // What Helm installs: a release that skips crds/ gets its CRDs from the program (typed objects, indexed below).
        includeCrds: !spec.skipCrds,
        // Helm 3 enforces values.schema.json itself, except where the schema needs the network (checked locally instead).
        skipSchemaValidation: schema !== undefined && remoteRefs(schema).length > 0,
    });
}

function remoteRefs(schema: unknown, out: string[] = []): string[] {
    if (Array.isArray(schema)) schema.forEach((s) => remoteRefs(s, out));
    else if (isMap(schema)) {
        if (typeof schema.$ref === "string" && !schema.$ref.startsWith("#")) out.push(schema.$ref);
        Object.values(schema).forEach((s) => remoteRefs(s, out));
    }
    return out;
}

/** The schema with every remote `$ref` replaced by an empty schema (recorded in {@link SKIPPED_SCHEMA_REFS}). */
function localSchema(schema: unknown, chart: string): unknown {
    if (Array.isArray(schema)) return schema.map((s) => localSchema(s, chart));
    if (!isMap(schema)) return schema;
    if (typeof schema.$ref === "string" && !schema.$ref.startsWith("#")) {
        const skipped = SKIPPED_SCHEMA_REFS.get(chart) ?? new Set<string>();
        skipped.add(schema.$ref.replace(/^.*#\/definitions\//, ""));
        SKIPPED_SCHEMA_REFS.set(chart, skipped);
        const { $ref: _ref, ...rest } = schema;
        return localSchema(rest, chart);
    }
    return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, localSchema(v, chart)]));
}

const valuesValidators = new Map<string, ValidateFunction>();

function valuesValidator(archive: string, chart: string): ValidateFunction | undefined {
    const schema = chartContents(archive).schema;
    if (!schema) return undefined;
    let v = valuesValidators.get(archive);
    if (!v) {
        const draft = String(schema.$schema ?? "");
        const options = { strict: false, allErrors: true, validateFormats: false };
        const ajv = /2019-09|2020-12/.test(draft) ? new Ajv2019(options) : new Ajv(options);
        // Ajv knows draft-07 by its http:// identifier; MetalLB's schema names it with https://, as Helm accepts.
        const compiled = /^https:\/\/json-schema\.org\/draft-07\/schema#?$/.test(draft) ? { ...schema, $schema: "http://json-schema.org/draft-07/schema#" } : schema;
        v = ajv.compile(localSchema(compiled, chart) as AnySchema);
        valuesValidators.set(archive, v);
    }
    return v;
}

const errorText = (v: ValidateFunction) =>
    (v.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}${e.params && "additionalProperty" in e.params ? ` "${String(e.params.additionalProperty)}"` : ""}`);

/** Helm's merge of release values over chart defaults: maps merge key by key, a null removes the default. */
export function coalesce(defaults: unknown, values: unknown): unknown {
    if (!isMap(defaults) || !isMap(values)) return values === undefined ? defaults : values;
    const out: Record<string, unknown> = { ...defaults };
    for (const [k, v] of Object.entries(values)) {
        if (v === null) delete out[k];
        else out[k] = coalesce(defaults[k], v);
    }
    return out;
}

/** Leaf-most paths of `values` that the chart's defaults do not have. */
export function pathsAbsentFromDefaults(values: unknown, defaults: unknown, prefix: string[] = []): string[][] {
    if (!isMap(values)) return [];
    const out: string[][] = [];
    for (const [k, v] of Object.entries(values)) {
        const d = isMap(defaults) ? defaults[k] : undefined;
        if (isMap(defaults) && k in defaults) {
            if (isMap(v) && isMap(d) && Object.keys(d).length > 0) out.push(...pathsAbsentFromDefaults(v, d, [...prefix, k]));
        } else out.push([...prefix, k]);
    }
    return out;
}

function withPath(values: Record<string, unknown>, path: string[], change: (parent: Record<string, unknown>, key: string) => void): Record<string, unknown> {
    const copy = structuredClone(values);
    let node: Record<string, unknown> = copy;
    for (const k of path.slice(0, -1)) node = node[k] as Record<string, unknown>;
    change(node, path.at(-1)!);
    return copy;
}

/** A different value of the same kind, to see whether the chart reads the key at all. */
function altered(v: unknown): unknown {
    if (typeof v === "string") return `${v}-probe`;
    if (typeof v === "number") return v + 1;
    if (typeof v === "boolean") return !v;
    if (Array.isArray(v)) return [];
    if (isMap(v)) return {};
    return "probe";
}

/** Keys the chart ignores: absent from its defaults, and neither removing nor changing them changes the render. */
async function ignoredKeys(spec: ReleaseSpec, archive: string, baseline: string): Promise<string[]> {
    const candidates = pathsAbsentFromDefaults(spec.values, chartContents(archive).defaults);
    const verdicts = await Promise.all(
        candidates.map(async (path) => {
            const removed = await render(spec, withPath(spec.values, path, (p, k) => delete p[k]), archive);
            if (!removed.ok || removed.manifest !== baseline) return undefined;
            const changed = await render(spec, withPath(spec.values, path, (p, k) => (p[k] = altered(p[k]))), archive);
            return changed.ok && changed.manifest === baseline ? path.join(".") : undefined;
        }),
    );
    return verdicts.filter((p): p is string => p !== undefined);
}

/** What installs a CRD: a release (from its chart), or the program (a typed object). */
interface CrdSource {
    /** Pulumi resource name, for messages. */
    resource: string;
    urn: string;
    /** The release, when a release installs it. */
    release?: ReleaseSpec;
}

/** CRD schemas by `group/version:Kind`, with what installs them. */
interface CrdIndex {
    schemas: Map<string, { source: CrdSource; validate: ValidateFunction; plural: string }>;
}

/** Kubernetes prunes unknown fields; for a check, unknown fields are errors (they would silently do nothing). */
function strictStructural(schema: unknown): unknown {
    if (Array.isArray(schema)) return schema.map(strictStructural);
    if (!isMap(schema)) return schema;
    const out: Record<string, unknown> = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, strictStructural(v)]));
    if (isMap(schema.properties) && schema.additionalProperties === undefined && !schema["x-kubernetes-preserve-unknown-fields"]) {
        // metadata is validated by the API server's ObjectMeta rules, not by the CRD.
        out.additionalProperties = false;
    }
    return out;
}

let crdAjv: Ajv | undefined;
/** Compiled CRD schemas by their text: the same CRDs come back in every run, and compiling them is the slow part. */
const crdValidators = new Map<string, ValidateFunction>();

function compileCrdSchema(schema: Record<string, unknown>): ValidateFunction {
    const key = JSON.stringify(schema);
    let v = crdValidators.get(key);
    if (!v) {
        crdAjv ??= new Ajv({ strict: false, allErrors: true, validateFormats: false, code: { regExp: goRegExp } });
        v = crdAjv.compile(strictStructural(schema) as AnySchema);
        crdValidators.set(key, v);
    }
    return v;
}

function indexCrds(rendered: Rendered[], typed: TypedObject[]): CrdIndex {
    const schemas: CrdIndex["schemas"] = new Map();
    const add = (crd: KubeObject, source: CrdSource) => {
        const spec = crd.spec as { group: string; names: { kind: string; plural: string }; versions: { name: string; served: boolean; schema?: { openAPIV3Schema?: Record<string, unknown> } }[] };
        for (const v of spec.versions.filter((x) => x.served)) {
            const schema = { ...(v.schema?.openAPIV3Schema ?? {}) } as Record<string, unknown>;
            if (isMap(schema.properties)) schema.properties = { ...schema.properties, metadata: { type: "object" } };
            schemas.set(`${spec.group}/${v.name}:${spec.names.kind}`, { source, validate: compileCrdSchema(schema), plural: spec.names.plural });
        }
    };
    for (const r of rendered) for (const crd of crdsIn(r.objects)) add(crd, { resource: r.spec.resource, urn: r.spec.urn, release: r.spec });
    for (const o of typed.filter((x) => x.kind === "CustomResourceDefinition")) add(o.body as KubeObject, { resource: o.resource, urn: o.urn });
    return { schemas };
}

/**
 * Validators of custom resources by `group/version:Kind`, from CRD objects (served versions), the way the API
 * server checks them plus unknown fields as errors. Undefined for a kind none of `crds` defines.
 */
export function crdSchemaValidator(crds: KubeObject[]): (obj: KubeObject) => string[] | undefined {
    const index = indexCrds([], crds.map((c, i) => ({ resource: `crd-${i}`, urn: `crd-${i}`, apiVersion: c.apiVersion, kind: c.kind, body: c })));
    return (obj) => {
        const crd = index.schemas.get(`${obj.apiVersion}:${obj.kind}`);
        if (!crd) return undefined;
        return crd.validate(obj as unknown) ? [] : errorText(crd.validate);
    };
}

/**
 * CRD patterns are Go (RE2) regular expressions; the only RE2 syntax they use that JavaScript lacks is the
 * inline `(?i)` flag, which becomes the `i` flag.
 */
const goRegExp = Object.assign(
    (pattern: string, flags: string) => (pattern.includes("(?i)") ? new RegExp(pattern.replaceAll("(?i)", ""), `${flags}i`) : new RegExp(pattern, flags)),
    { code: "goRegExp" },
);

/** Problems of one object: built-in kinds against Kubernetes, custom kinds against their CRD. */
function objectProblems(obj: KubeObject, crds: CrdIndex, allRendered: boolean): { rule: Rule; message: string }[] {
    const crd = crds.schemas.get(`${obj.apiVersion}:${obj.kind}`);
    if (crd) {
        const valid = crd.validate(obj as unknown);
        const from = crd.source.release ? `release ${crd.source.release.release}` : `the program's ${crd.source.resource}`;
        return valid ? [] : [{ rule: "crd-schema", message: `not valid against the ${obj.kind} CRD from ${from}: ${errorText(crd.validate).join("; ")}` }];
    }
    if (!builtInModel(obj.apiVersion, obj.kind) && !REMOVED_APIS[`${obj.apiVersion}:${obj.kind}`]) {
        if (!allRendered) return [];
        return [{ rule: "crd-schema", message: `${obj.apiVersion} ${obj.kind} is neither built into Kubernetes nor defined by a CRD the program or one of its releases installs` }];
    }
    return builtInProblems(obj as KubeObject & Record<string, unknown>).map((message) => ({ rule: "kubernetes-schema" as const, message }));
}

const objectName = (o: KubeObject) => `${o.kind}/${o.metadata?.namespace ? `${o.metadata.namespace}/` : ""}${o.metadata?.name ?? "?"}`;

/** The controller's image tag and flags as an nginx-ingress release renders them. */
function controllerFlags(objects: KubeObject[]): { image: string; flags: string[] } | undefined {
    for (const o of objects) {
        if (o.kind !== "Deployment" && o.kind !== "DaemonSet") continue;
        const containers = ((o.spec as { template?: { spec?: { containers?: { name: string; image: string; args?: string[] }[] } } })?.template?.spec?.containers ?? []);
        const c = containers.find((x) => (x.args ?? []).some((a) => a.startsWith("-nginx-configmaps")));
        if (c) return { image: c.image, flags: (c.args ?? []).filter((a) => /^-[a-z]/.test(a)).map((a) => a.slice(1).split("=")[0]!) };
    }
    return undefined;
}

/** The tag under which the program pushed an image to `repository` (a `docker.RegistryImage` named `repository:tag`). */
function pushedTag(regs: Registration[], repository: string): string | undefined {
    const pushed = regs.find((r) => r.type === "docker:index/registryImage:RegistryImage" && String(r.inputs?.name).startsWith(`${repository}:`));
    return pushed ? String(pushed.inputs!.name).slice(repository.length + 1) : undefined;
}

/** Everything Helm and Kubernetes would object to in one program run. */
export async function checkRun(regs: Registration[], opts: CheckOptions = {}): Promise<Finding[]> {
    const findings: Finding[] = [];
    const add = (rule: Rule, subject: string, message: string) => findings.push({ rule, subject, message });
    const releases = releasesOf(regs);
    const rendered: Rendered[] = [];

    await Promise.all(
        releases.map(async (spec) => {
            const subject = `release ${spec.resource} (${spec.chart}@${spec.version})`;
            const archive = vendoredChart(spec.chart, spec.version);
            if (!archive) {
                add("chart-archive", subject, `no vendored archive test/charts/${spec.chart}-${spec.version}.tgz: the chart version the program installs cannot be rendered; vendor it (tools/refresh-charts.ts) or pin a vendored version in contracts/charts.ts`);
                return;
            }
            // Values wholly unknown on a first preview hide the whole release from the preview and from this tier: Pulumi's
            // provider can neither show nor render it. Unknown parts belong inside the values, as nested Outputs.
            if (spec.valuesUnknown) {
                add("values-unknown", subject, "the whole values object is unknown on a first preview, so nothing of the release can be shown or rendered; pass the unknown parts as nested Outputs instead of building the values inside an apply");
                return;
            }
            const validate = valuesValidator(archive, spec.chart);
            // Helm checks the schema against the values it renders with: the chart's defaults overlaid with the release's.
            if (validate && !validate(coalesce(chartContents(archive).defaults, spec.values))) add("values-schema", subject, `values do not match the chart's values.schema.json: ${errorText(validate).join("; ")}`);
            const result = await render(spec, spec.values, archive);
            if (!result.ok) {
                add("helm-template", subject, `helm template fails: ${result.error}`);
                return;
            }
            const objects = parsedManifest(result.manifest);
            rendered.push({ spec, objects });
            if (opts.probeIgnoredKeys !== false && spec.placeholders.length === 0) {
                for (const key of await ignoredKeys(spec, archive, result.manifest)) {
                    add("ignored-key", subject, `values key ${key} is not in the chart's defaults and the chart ignores it: removing or changing it leaves the rendered manifests unchanged`);
                }
            }
            if (spec.chart === "nginx-ingress") {
                const ctl = controllerFlags(objects);
                // A digest reference has no tag in it: the version is the tag the program pushed that image under.
                const tag = ctl?.image.includes("@") ? pushedTag(regs, ctl.image.split("@")[0]!) : ctl?.image.split("/").at(-1)!.split(":")[1];
                // On a first preview the pushed image (its repository, digest and tag) may not be known yet; `up` checks it.
                if (!ctl || (!tag && spec.placeholders.length === 0)) add("controller-flags", subject, "the rendered manifests have no ingress controller container with a tagged image, or a digest the program pushed under a tag");
                else if (tag && spec.placeholders.length === 0) {
                    const undefinedFlags = flagsUndefinedBy(tag, ctl.flags);
                    if (!KIC_CHARTS[spec.version]) add("controller-flags", subject, kicImageProblem(spec.version, tag)!);
                    else if (undefinedFlags.length > 0) {
                        add("controller-flags", subject, `${ctl.image} does not define the flags the chart renders: ${undefinedFlags.map((f) => `-${f}`).join(", ")}; ${kicImageProblem(spec.version, tag)}`);
                    }
                }
            }
        }),
    );

    const typed = typedObjectsOf(regs);
    const crds = indexCrds(rendered, typed);
    // A release that could not be rendered may install CRDs; kinds nobody defines are then not reported again.
    const allRendered = rendered.length === releases.filter((r) => !r.valuesUnknown).length;
    for (const r of rendered) {
        for (const obj of r.objects) {
            for (const p of objectProblems(obj, crds, allRendered)) add(p.rule, `${objectName(obj)} rendered by ${r.spec.resource}`, p.message);
            const crd = crds.schemas.get(`${obj.apiVersion}:${obj.kind}`);
            if (crd && crd.source.release !== r.spec && !waitsFor(regs, r.spec.urn, crd.source.urn)) {
                add("dependency", `release ${r.spec.resource}`, `renders ${obj.kind} ${objectName(obj)}, whose CRD ${installer(crd.source)}, but does not wait for ${that(crd.source)}`);
            }
        }
    }
    for (const obj of typed) {
        const kubeObject = obj.body as KubeObject;
        for (const p of objectProblems(kubeObject, crds, allRendered)) add(p.rule, `${obj.kind} ${obj.resource}`, p.message);
        const crd = crds.schemas.get(`${obj.apiVersion}:${obj.kind}`);
        if (crd && !waitsFor(regs, obj.urn, crd.source.urn)) {
            add("dependency", `${obj.kind} ${obj.resource}`, `is a custom resource whose CRD ${installer(crd.source)}, but it does not wait for ${that(crd.source)}`);
        }
        for (const hook of webhooksFor(rendered, crds, obj)) {
            if (hook.release !== undefined && !waitsFor(regs, obj.urn, hook.release.urn)) {
                add("dependency", `${obj.kind} ${obj.resource}`, `is checked by admission webhook ${hook.name} (failurePolicy Fail) of release ${hook.release.resource}, but does not wait for that release`);
            }
        }
    }
    // Renders finish in any order; findings are reported in a stable one.
    return findings.sort((a, b) => a.rule.localeCompare(b.rule) || a.subject.localeCompare(b.subject) || a.message.localeCompare(b.message));
}

const installer = (s: CrdSource) => (s.release ? `release ${s.resource} installs` : `resource ${s.resource} applies`);
const that = (s: CrdSource) => (s.release ? "that release" : "that resource");

/** Webhooks with failurePolicy Fail that intercept the creation of `obj`, from the rendered releases. */
function webhooksFor(rendered: Rendered[], crds: CrdIndex, obj: { apiVersion: string; kind: string }): { name: string; release?: ReleaseSpec }[] {
    const group = obj.apiVersion.includes("/") ? obj.apiVersion.split("/")[0]! : "";
    const version = obj.apiVersion.split("/").at(-1)!;
    const plural = crds.schemas.get(`${obj.apiVersion}:${obj.kind}`)?.plural;
    if (!plural) return [];
    const out: { name: string; release?: ReleaseSpec }[] = [];
    for (const r of rendered) {
        for (const o of r.objects.filter((x) => /WebhookConfiguration$/.test(x.kind))) {
            for (const hook of (o.webhooks as { name: string; failurePolicy?: string; rules?: { apiGroups?: string[]; apiVersions?: string[]; resources?: string[]; operations?: string[] }[] }[] | undefined) ?? []) {
                if ((hook.failurePolicy ?? "Fail") !== "Fail") continue;
                const hit = (hook.rules ?? []).some(
                    (rule) =>
                        (rule.apiGroups ?? []).some((g) => g === "*" || g === group) &&
                        (rule.apiVersions ?? []).some((v) => v === "*" || v === version) &&
                        (rule.resources ?? []).some((res) => ["*", plural].includes(res.split("/")[0]!)) &&
                        (rule.operations ?? []).some((op) => op === "*" || op === "CREATE"),
                );
                if (hit) out.push({ name: hook.name, release: r.spec });
            }
        }
    }
    return out;
}
