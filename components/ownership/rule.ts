/**
 * The one rule by which the platform decides whether an object already on the cluster under a name it claims is its
 * own, used by the ownership guard before `pulumi up` creates anything and by `mara doctor` before `mara up` runs it,
 * so the two never disagree. Pure: it judges metadata someone else read.
 *
 * An object is the platform's when
 * - it carries this stack's mark (the annotation `mara.nginx.com/stack: <project>/<stack>`);
 * - or it carries no stack mark and was made by a version of the platform from before stacks marked their objects:
 *   it has the platform's label (`app.kubernetes.io/part-of: mara`, on every namespace, StorageClass, ClusterRole and
 *   admission policy since the first version), or, for the kind that version left unlabelled (its ClusterIssuers),
 *   Pulumi's Kubernetes provider applied it and the platform's namespaces on the cluster are this stack's or that
 *   version's;
 * - or, for an object a chart of the platform's creates (the IngressClass), Helm's ownership annotations name the
 *   platform's release.
 * Anything else is refused: another stack's object, and whatever the platform did not make, whoever made it.
 */
import { PART_OF_LABEL, PART_OF_VALUE, STACK_ANNOTATION } from "./marks";
import { describeClaim, ObjectClaim, ReleaseClaim, ReleaseRef } from "./claims";

/** The metadata of an object as the API server returns it (a `PartialObjectMetadata` is enough). */
export interface ObservedMeta {
    /** The object's name. */
    readonly name?: string;
    /** Its namespace, for a namespaced object. */
    readonly namespace?: string;
    /** Its UID. */
    readonly uid?: string;
    /** Its labels: the platform's `app.kubernetes.io/part-of`, Helm's release records' `owner`, `name`, `status`, `version`. */
    readonly labels?: Readonly<Record<string, string>>;
    /** Its annotations: the platform's stack mark, Helm's release annotations, Argo CD's tracking id. */
    readonly annotations?: Readonly<Record<string, string>>;
    /** Who wrote which fields (server-side apply's record): the field managers name who made it. */
    readonly managedFields?: readonly { readonly manager?: string }[];
}

/** What the rule concluded about one claimed object. */
export type Verdict =
    /** Nothing of that name exists: the platform creates it. */
    | { readonly state: "free" }
    /** It carries this stack's mark, or its chart's release is the platform's. */
    | { readonly state: "own" }
    /** The platform made it before stacks marked their objects (or it is a definition another stack applied). */
    | { readonly state: "earlier"; readonly evidence: string }
    /** Another stack of the platform made it. */
    | { readonly state: "another-stack"; readonly stack: string }
    /** The platform did not make it. */
    | { readonly state: "foreign"; readonly owner: string };

/** Whether a verdict stops the platform from taking the object. */
export const refused = (v: Verdict): v is Extract<Verdict, { state: "another-stack" | "foreign" }> => v.state === "another-stack" || v.state === "foreign";

/** Whether a verdict says the object is the platform's (this stack's, or an earlier version's). */
export const isPlatforms = (v: Verdict) => v.state === "own" || v.state === "earlier";

/** What the rule needs to know besides the object. */
export interface RuleContext {
    /** This stack's identity (`<project>/<stack>`); undefined when checking for no stack in particular (`mara doctor --kubeconfig`). */
    readonly identity?: string;
    /**
     * Whether any of the platform's namespaces on the cluster is this stack's or an earlier version's: only then is an
     * unlabelled object Pulumi applied taken for one an earlier version made.
     */
    readonly platformPresent: boolean;
    /** Whether Argo CD applies the platform from its render (`mara:delivery: gitops`): what it applied is then the platform's. */
    readonly argoCdDelivers?: boolean;
}

const HELM_RELEASE = "meta.helm.sh/release-name";
const HELM_RELEASE_NS = "meta.helm.sh/release-namespace";
/** The annotation Argo CD tracks what it applied by (its annotation tracking), and its server-side apply's field manager. */
const ARGO_TRACKING = "argocd.argoproj.io/tracking-id";
const ARGO_MANAGER = "argocd-controller";
/** Field managers of Pulumi's Kubernetes provider: `pulumi-kubernetes` (client-side apply) and `pulumi-kubernetes-<random>` (server-side). */
const PULUMI_MANAGER = /^pulumi-kubernetes(-|$)/;
/** Field managers that only ever write status or defaults, and say nothing about who made an object. */
const BYSTANDERS = /^(kube-controller-manager|kube-apiserver|kube-scheduler|kubelet)$/;

const managersOf = (m: ObservedMeta) => [...new Set((m.managedFields ?? []).map((f) => f.manager ?? "").filter((x) => x && !BYSTANDERS.test(x)))];
const helmReleaseOf = (m: ObservedMeta): ReleaseRef | undefined => {
    const name = m.annotations?.[HELM_RELEASE];
    return name ? { name, namespace: m.annotations?.[HELM_RELEASE_NS] ?? "" } : undefined;
};
const appliedByPulumi = (m: ObservedMeta) => managersOf(m).some((x) => PULUMI_MANAGER.test(x));
const appliedByArgo = (m: ObservedMeta) => m.annotations?.[ARGO_TRACKING] !== undefined || managersOf(m).includes(ARGO_MANAGER);

/** Who made an object, as far as its marks tell: Helm's release, another stack, Argo CD, its field managers. */
export function ownerOf(m: ObservedMeta): string {
    const parts: string[] = [];
    const release = helmReleaseOf(m);
    if (release) parts.push(`Helm release ${release.name} in namespace ${release.namespace || "(none named)"}`);
    const stack = m.annotations?.[STACK_ANNOTATION];
    if (stack !== undefined) parts.push(`the platform of stack ${stack}`);
    if (m.annotations?.[ARGO_TRACKING] !== undefined) parts.push(`Argo CD (${m.annotations[ARGO_TRACKING]})`);
    const managers = managersOf(m);
    if (managers.length) parts.push(`applied by ${managers.slice(0, 4).join(", ")}${managers.length > 4 ? ` and ${managers.length - 4} more` : ""}`);
    return parts.length ? parts.join("; ") : "it carries no marks of who made it";
}

/** Judges an object found (or not) under a claimed name. */
export function judgeObject(claim: Pick<ObjectClaim, "origin" | "release">, found: ObservedMeta | undefined, ctx: RuleContext): Verdict {
    if (!found) return { state: "free" };
    const stack = found.annotations?.[STACK_ANNOTATION];
    if (claim.origin === "chart") {
        const release = helmReleaseOf(found);
        if (release && claim.release && release.name === claim.release.name && release.namespace === claim.release.namespace) return { state: "own" };
        if (stack !== undefined && stack === ctx.identity) return { state: "own" };
        if (ctx.argoCdDelivers && appliedByArgo(found)) return { state: "earlier", evidence: "Argo CD applied it from the platform's render" };
        return { state: "foreign", owner: ownerOf(found) };
    }
    if (stack !== undefined) return stack === ctx.identity ? { state: "own" } : { state: "another-stack", stack };
    if (found.labels?.[PART_OF_LABEL] === PART_OF_VALUE) return { state: "earlier", evidence: `label ${PART_OF_LABEL}=${PART_OF_VALUE}` };
    if (appliedByPulumi(found) && ctx.platformPresent) return { state: "earlier", evidence: "applied by Pulumi's Kubernetes provider, beside the platform's namespaces" };
    if (ctx.argoCdDelivers && appliedByArgo(found) && ctx.platformPresent) return { state: "earlier", evidence: "Argo CD applied it from the platform's render" };
    return { state: "foreign", owner: ownerOf(found) };
}

/** One record of a Helm release (a Secret or ConfigMap labelled `owner=helm`). */
export interface ReleaseRecord {
    /** The store Helm kept it in (`HELM_DRIVER`: `secret`, the default, or `configmap`). */
    readonly kind: "Secret" | "ConfigMap";
    /** The record's metadata; its labels carry the revision (`version`) and `status`. */
    readonly meta: ObservedMeta;
}

/**
 * Judges a Helm release found (or not) under a claimed name in its namespace. Helm marks no release with who asked for
 * it, so a release is the platform's when its namespace is: Helm refuses to install over a release of the same name
 * ("cannot re-use a name that is still in use", helm.sh/helm/v3 pkg/action/install.go, `availableName`).
 */
export function judgeRelease(records: readonly ReleaseRecord[], namespace: Verdict): Verdict {
    if (!records.length) return { state: "free" };
    if (isPlatforms(namespace)) return namespace.state === "own" ? { state: "own" } : { state: "earlier", evidence: "its namespace is the platform's" };
    const newest = [...records].sort((a, b) => Number(b.meta.labels?.version ?? 0) - Number(a.meta.labels?.version ?? 0))[0]!;
    const status = newest.meta.labels?.status;
    const where = namespace.state === "another-stack" ? `stack ${namespace.stack}'s namespace` : "a namespace the platform did not make";
    return { state: "foreign", owner: `installed in ${where}${status ? `, revision ${newest.meta.labels?.version ?? "?"} ${status}` : ""}${newest.kind === "ConfigMap" ? ", recorded in a ConfigMap" : ""}` };
}

/** One refusal, for messages. */
export interface Refusal {
    /** `Namespace bos`, `Helm release statsd in namespace prometheus`. */
    readonly what: string;
    /** Whose it is. */
    readonly verdict: Extract<Verdict, { state: "another-stack" | "foreign" }>;
    /** The setting that moves the platform's object elsewhere, where one does. */
    readonly remedy?: string;
}

/** The refusal of a claimed object, if the verdict is one. */
export function objectRefusal(claim: ObjectClaim, v: Verdict): Refusal | undefined {
    return refused(v) ? { what: describeClaim(claim), verdict: v, ...(claim.remedy ? { remedy: claim.remedy } : {}) } : undefined;
}

/** The refusal of a claimed release, if the verdict is one. */
export function releaseRefusal(claim: ReleaseClaim, v: Verdict): Refusal | undefined {
    return refused(v) ? { what: `Helm release ${claim.name} in namespace ${claim.namespace}`, verdict: v, ...(claim.remedy ? { remedy: claim.remedy } : {}) } : undefined;
}

/** The way out when no setting moves the platform: what stands in the way goes, or the platform goes elsewhere. */
export const NO_SETTING_MOVES_IT = "no setting moves it: deploy the platform to another cluster, or have the other object removed first";

/** One line of a refusal: what, whose, and (unless `remedy` is false) the way out. */
export function refusalLine(r: Refusal, remedy = true): string {
    const whose = r.verdict.state === "another-stack" ? `belongs to stack ${r.verdict.stack}` : `is not the platform's (${r.verdict.owner})`;
    return `${r.what} exists and ${whose}${remedy ? `; ${r.remedy ?? NO_SETTING_MOVES_IT}` : ""}`;
}

/** How many refusals a message lists before it counts the rest: one screen. */
export const MAX_LISTED = 20;

/** The lines of a list of refusals, at most {@link MAX_LISTED} of them and a count of the rest. */
export function refusalLines(refusals: readonly Refusal[], remedy = true): string[] {
    const lines = refusals.slice(0, MAX_LISTED).map((r) => refusalLine(r, remedy));
    if (refusals.length > MAX_LISTED) lines.push(`and ${refusals.length - MAX_LISTED} more`);
    return lines;
}
