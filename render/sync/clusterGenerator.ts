/**
 * A model of what Argo CD's ApplicationSet controller makes of an ApplicationSet with one cluster generator, given the
 * cluster Secrets on the hub: the Applications it creates, the ones it refuses, or the error that stops it creating
 * any. The sync model uses it for the fleet's ApplicationSet (components/argoCd/applicationSet.ts); no ApplicationSet
 * controller runs where the tests do.
 *
 * What it imitates, from argo-cd v3.4 (the pinned chart's Argo CD):
 *
 * - applicationset/generators/cluster.go, `GenerateParams`: the Secrets of the Argo CD namespace that match the
 *   generator's selector and the label `argocd.argoproj.io/secret-type: cluster` (`getSecretsByClusterName`, keyed by
 *   the Secret's `name`, so of two Secrets with one name one is taken: the API server lists them by name and the later
 *   one stays); the hub's own cluster (`in-cluster`, `https://kubernetes.default.svc`) added when the selector is empty
 *   and no Secret names that server; per cluster `name`, `nameNormalized` (utils `SanitizeName`), `server`, `project`
 *   and, in Go template mode, `metadata` with `labels` and `annotations`, each only when the Secret has some.
 * - applicationset/controllers/template/template.go, `GenerateApplications`, and utils/utils.go, `RenderTemplateParams`:
 *   every string of the template, map keys included, executed as its own Go template with the ApplicationSet's options
 *   (goTemplate.ts); the first error of any cluster fails the whole ApplicationSet (the reconciler sets the error
 *   condition and creates or updates nothing); the resources finalizer added unless `preserveResourcesOnDeletion`; the
 *   Application's namespace the ApplicationSet's.
 * - applicationset/controllers/applicationset_controller.go, `validateGeneratedApplications`: a name generated twice
 *   refuses every Application of that name (its errors are kept by namespace/name), a project that does not exist or a
 *   destination no cluster Secret (nor the hub itself) names refuses that Application; the rest are created one by one
 *   (`createOrUpdateInCluster` goes on past a failure), and the API server refuses a name that is not a DNS-1123
 *   subdomain.
 *
 * It covers what the fleet's ApplicationSet uses: Go template mode, one `clusters` generator with a selector, no
 * `values`, no `templatePatch`, no progressive syncs; anything else throws, so it cannot pass by accident.
 */
import { isMap, type KubeObject } from "../../contracts/kubeObject";
import { executeGoTemplate, missingKeyOption } from "./goTemplate";

/** The hub's own cluster, as Argo CD names it (pkg/apis/application/v1alpha1: KubernetesInClusterName, KubernetesInternalAPIServerAddr). */
export const IN_CLUSTER = { name: "in-cluster", server: "https://kubernetes.default.svc" } as const;

/** The label Argo CD finds cluster Secrets by (common.LabelKeySecretType, LabelValueSecretTypeCluster). */
const SECRET_TYPE = "argocd.argoproj.io/secret-type";

/** A label selector (metav1.LabelSelector). */
interface LabelSelector {
    matchLabels?: Record<string, string>;
    matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** What the controller does with an ApplicationSet. */
export type GeneratorResult =
    | {
          /** The Applications it creates or updates, by name. */
          applications: KubeObject[];
          /** The Applications it refuses, by name (validation, or the API server), with why. */
          refused: { name: string; reason: string }[];
      }
    | {
          /** It creates or updates no Application: the error its status condition shows. */
          error: string;
      };

/** What the hub holds besides the Secrets: the AppProjects (default: only `default`). */
export interface Hub {
    /** Cluster Secrets (and any other Secrets) of the Argo CD namespace; `data` base64 as the API server stores it, or `stringData`. */
    secrets: readonly KubeObject[];
    /** The Argo CD namespace. Default argocd. */
    namespace?: string;
    /** The AppProjects that exist. Default ["default"]. */
    projects?: readonly string[];
}

/** Utils `SanitizeName`: lower case, anything but `[-a-z0-9.]` as `-`, at most 253 bytes, `-` and `.` trimmed from both ends. */
export function sanitizeName(name: string): string {
    let n = name.toLowerCase().replace(/[^-a-z0-9.]/g, "-");
    // Go slices bytes; after the replacement every character is one byte.
    if (n.length > 253) n = n.slice(0, 253);
    return n.replace(/^[-.]+|[-.]+$/g, "");
}

/** A Secret's data as strings (stringData over data, as the API server merges them). */
function secretData(secret: KubeObject): Record<string, string> {
    const data: Record<string, string> = {};
    if (isMap(secret.data)) for (const [k, v] of Object.entries(secret.data)) if (typeof v === "string") data[k] = Buffer.from(v, "base64").toString("utf8");
    if (isMap(secret.stringData)) for (const [k, v] of Object.entries(secret.stringData)) if (typeof v === "string") data[k] = v;
    return data;
}

/** Whether `labels` satisfy `selector` (apimachinery labels.Selector from metav1.LabelSelectorAsSelector). */
export function selects(selector: LabelSelector, labels: Record<string, string>): boolean {
    for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
    for (const e of selector.matchExpressions ?? []) {
        const has = Object.prototype.hasOwnProperty.call(labels, e.key);
        const values = e.values ?? [];
        switch (e.operator) {
            case "In":
                if (values.length === 0) throw new Error(`values: Required value: for 'in', 'notin' operators, values set can't be empty`);
                if (!has || !values.includes(labels[e.key]!)) return false;
                break;
            case "NotIn":
                if (values.length === 0) throw new Error(`values: Required value: for 'in', 'notin' operators, values set can't be empty`);
                if (has && values.includes(labels[e.key]!)) return false;
                break;
            case "Exists":
                if (!has) return false;
                break;
            case "DoesNotExist":
                if (has) return false;
                break;
            default:
                throw new Error(`"${e.operator}" is not a valid label selector operator`);
        }
    }
    return true;
}

/** Every string of `v`, map keys included, through `render` (utils.go, `deeplyReplace`). */
function renderStrings(v: unknown, render: (s: string) => string): unknown {
    if (typeof v === "string") return render(v);
    if (Array.isArray(v)) return v.map((x) => renderStrings(x, render));
    if (isMap(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [render(k), renderStrings(x, render)]));
    return v;
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** What the ApplicationSet controller would make of `appSet` on a hub holding `hub`'s Secrets (see the module comment). */
export function generateFromClusters(appSet: KubeObject, hub: Hub): GeneratorResult {
    const spec = appSet.spec as {
        goTemplate?: boolean;
        goTemplateOptions?: string[];
        generators?: { clusters?: { selector?: LabelSelector; values?: unknown; flatList?: boolean } }[];
        template?: { metadata?: Record<string, unknown>; spec?: unknown };
        templatePatch?: unknown;
        syncPolicy?: { preserveResourcesOnDeletion?: boolean };
        strategy?: unknown;
    };
    if (spec.goTemplate !== true) throw new Error("the model covers Go template mode only (spec.goTemplate: true)");
    if (spec.generators?.length !== 1 || !spec.generators[0]!.clusters) throw new Error("the model covers one clusters generator only");
    const generator = spec.generators[0]!.clusters!;
    if (generator.values !== undefined || generator.flatList || spec.templatePatch !== undefined || spec.strategy !== undefined) {
        throw new Error("the model covers no values, flatList, templatePatch or strategy");
    }
    const namespace = hub.namespace ?? "argocd";
    const selector = generator.selector ?? {};
    const userSelects = Object.keys(selector.matchLabels ?? {}).length > 0 || (selector.matchExpressions ?? []).length > 0;
    const withType: LabelSelector = { ...selector, matchLabels: { ...selector.matchLabels, [SECRET_TYPE]: "cluster" } };

    // The cluster Secrets the generator lists, by cluster name; the API server lists by name, so the later one stays.
    const clusterSecrets = hub.secrets.filter((s) => s.kind === "Secret" && (s.metadata?.namespace ?? namespace) === namespace && s.metadata?.labels?.[SECRET_TYPE] === "cluster");
    const byName = new Map<string, KubeObject>();
    let selected: KubeObject[];
    try {
        selected = [...clusterSecrets].sort((a, b) => a.metadata!.name!.localeCompare(b.metadata!.name!)).filter((s) => selects(withType, s.metadata?.labels ?? {}));
    } catch (e) {
        return { error: `error getting cluster secrets: error converting label selector: ${(e as Error).message}` };
    }
    for (const s of selected) byName.set(secretData(s).name ?? "", s);
    const params: Record<string, unknown>[] = [...byName.values()].map((s) => {
        const data = secretData(s);
        const metadata: Record<string, unknown> = {};
        if (Object.keys(s.metadata?.annotations ?? {}).length > 0) metadata.annotations = { ...s.metadata!.annotations };
        if (Object.keys(s.metadata?.labels ?? {}).length > 0) metadata.labels = { ...s.metadata!.labels };
        return { name: data.name ?? "", nameNormalized: sanitizeName(data.name ?? ""), server: data.server ?? "", project: data.project ?? "", metadata };
    });
    if (!userSelects && !clusterSecrets.some((s) => secretData(s).server === IN_CLUSTER.server)) {
        params.push({ name: IN_CLUSTER.name, nameNormalized: IN_CLUSTER.name, server: IN_CLUSTER.server, project: "" });
    }

    // Every string of the template, for each cluster; the first error stops the whole ApplicationSet.
    const missingKey = missingKeyOption(spec.goTemplateOptions ?? []);
    const template = { metadata: spec.template?.metadata ?? {}, spec: spec.template?.spec ?? {} };
    const generated: KubeObject[] = [];
    for (const p of params) {
        let rendered: typeof template;
        try {
            rendered = renderStrings(template, (s) => executeGoTemplate(s, p, missingKey)) as typeof template;
        } catch (e) {
            if ((e as Error).name === "GoTemplateUnsupported") throw e;
            return { error: `failed to execute go template: ${(e as Error).message}` };
        }
        const { finalizers: own, ...meta } = rendered.metadata as { name?: string; labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] };
        const finalizers = own?.length ? own : spec.syncPolicy?.preserveResourcesOnDeletion ? [] : ["resources-finalizer.argocd.argoproj.io"];
        generated.push({
            apiVersion: "argoproj.io/v1alpha1",
            kind: "Application",
            metadata: { ...meta, name: meta.name ?? "", namespace: appSet.metadata?.namespace ?? namespace, ...(finalizers.length ? { finalizers } : {}) },
            spec: rendered.spec,
        });
    }

    // What the controller refuses, one Application at a time; the rest it creates. Its errors are kept by the
    // Application's namespace/name, so a name generated twice refuses every Application of that name, the first too.
    const known = new Set([...clusterSecrets.map((s) => secretData(s).server), IN_CLUSTER.server]);
    const projects = new Set(hub.projects ?? ["default"]);
    const names = new Set<string>();
    const errors = new Map<string, string>();
    for (const app of generated) {
        const name = app.metadata!.name!;
        const appSpec = app.spec as { project?: string; destination?: { server?: string } };
        if (names.has(name)) {
            errors.set(name, `ApplicationSet ${appSet.metadata?.name} contains applications with duplicate name: ${name}`);
            continue;
        }
        names.add(name);
        if (!projects.has(appSpec.project ?? "")) errors.set(name, `application references project ${appSpec.project} which does not exist`);
        else if (!known.has(appSpec.destination?.server ?? "")) errors.set(name, `application destination spec is invalid: there are no clusters with this URL: ${appSpec.destination?.server}`);
    }
    const applications: KubeObject[] = [];
    const refused: { name: string; reason: string }[] = [];
    for (const app of generated) {
        const name = app.metadata!.name!;
        const reason = errors.get(name) ?? (name.length > 253 || !DNS_SUBDOMAIN.test(name) ? `the API server refuses the name "${name}": a DNS-1123 subdomain is required` : undefined);
        if (reason) refused.push({ name, reason });
        else applications.push(app);
    }
    return { applications: applications.sort((a, b) => a.metadata!.name!.localeCompare(b.metadata!.name!)), refused };
}
