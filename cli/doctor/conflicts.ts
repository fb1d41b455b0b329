/**
 * What is already on the cluster that the platform would fight with: another installation of an operator it
 * installs (cert-manager, the Prometheus operator, ECK, the OpenTelemetry operator, NGINX Ingress Controller),
 * their CRDs owned by another Helm release, the IngressClass the platform creates taken by another controller,
 * and the names the platform creates — its namespaces and cluster-wide objects — taken by something else, judged by
 * the rule the program's ownership guard applies before `pulumi up` creates anything (components/ownership/rule.ts),
 * so the doctor and the program refuse the same objects. The platform applies some CRDs with a forced server-side
 * apply (components/chartCrds.ts), so a CRD of another installation would be taken over, not refused: this is the only
 * warning before that happens. Where Argo CD delivers the platform (`mara:delivery: gitops`), the
 * objects it applied from the render are the platform's, not another installation.
 */
import type { Finding } from "./findings";
import type { KubeClient } from "./kubeClient";
import type { DoctorPlan, PlannedRelease } from "./plan";
import { ARGOCD_RELEASE } from "../../components/argoCd/applications";
import { checkOwnership, OwnershipReport } from "../../components/ownership/check";
import { describeClaim } from "../../components/ownership/claims";
import type { MetadataReader } from "../../components/ownership/clusterReader";
import { PART_OF_LABEL, PART_OF_VALUE } from "../../components/ownership/marks";
import { NO_SETTING_MOVES_IT, ObservedMeta, Refusal, refusalLine, refusalLines } from "../../components/ownership/rule";

/** One operator the platform installs, and how another installation of it shows itself. */
interface Operator {
    readonly id: string;
    readonly title: string;
    /** Our release of it. */
    readonly release: (plan: DoctorPlan) => PlannedRelease | undefined;
    /** A CRD only this operator installs. */
    readonly crd: string;
    /** Container image names (without registry host and tag) of its controller. */
    readonly images: readonly RegExp[];
    /**
     * Checked only when the platform installs it (MetalLB, Argo CD): a cluster may run its own otherwise, and that
     * is no conflict.
     */
    readonly onlyWhenInstalled?: boolean;
    /** Installed by Pulumi even when Argo CD delivers the platform, so what Argo CD applied of it is not ours. */
    readonly neverFromArgo?: boolean;
    /** What goes wrong with two installations, where it is not the CRDs taken over. */
    readonly consequence?: string;
    /** The way out besides removing the other installation, where it is not another cluster. */
    readonly alternative?: string;
}

const TAKEOVER = "Two installations fight over the same CRDs and webhooks, and the platform would take the CRDs over";

const ours = (name: string) => (plan: DoctorPlan) => plan.releases.find((r) => r.release === name);

const OPERATORS: readonly Operator[] = [
    { id: "cert-manager", title: "cert-manager", release: ours("certmgr"), crd: "certificates.cert-manager.io", images: [/\/cert-manager-controller$/] },
    { id: "prometheus-operator", title: "Prometheus operator", release: ours("prometheus"), crd: "prometheuses.monitoring.coreos.com", images: [/\/prometheus-operator$/] },
    { id: "eck", title: "Elastic Cloud on Kubernetes (ECK)", release: ours("eck-operator"), crd: "elasticsearches.elasticsearch.k8s.elastic.co", images: [/\/eck-operator$/] },
    { id: "opentelemetry-operator", title: "OpenTelemetry operator", release: ours("opentelemetry-operator"), crd: "opentelemetrycollectors.opentelemetry.io", images: [/\/opentelemetry-operator$/] },
    { id: "nginx-ingress", title: "NGINX Ingress Controller", release: ours("kic"), crd: "virtualservers.k8s.nginx.org", images: [/\/nginx-ingress$/, /\/nginx-plus-ingress$/] },
    { id: "metallb", title: "MetalLB", release: ours("metallb"), crd: "ipaddresspools.metallb.io", images: [/\/metallb\/controller$/], onlyWhenInstalled: true },
    // Every Argo CD component runs the one argocd image. A self-managed Argo CD carries Argo's tracking marks on its
    // own CRDs, so those do not make it the platform's.
    {
        id: "argo-cd",
        title: "Argo CD",
        release: ours(ARGOCD_RELEASE),
        crd: "applications.argoproj.io",
        images: [/\/argoproj\/argocd$/],
        onlyWhenInstalled: true,
        neverFromArgo: true,
        consequence: "Helm refuses to install the platform's Argo CD over CRDs its release does not own, so mara up would stop halfway",
        alternative: "let that Argo CD deliver the platform: pulumi config set mara:gitopsArgoCd external (docs/gitops.md)",
    },
];

/** The annotation Argo CD tracks what it applied by (docs/gitops.md: annotation tracking). */
const ARGO_TRACKING = "argocd.argoproj.io/tracking-id";
/** The field manager of Argo CD's server-side apply. */
const ARGO_MANAGER = "argocd-controller";
const RELEASE = "meta.helm.sh/release-name";
const RELEASE_NS = "meta.helm.sh/release-namespace";

interface Meta {
    metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string>; managedFields?: { manager?: string }[] };
}
interface Workload extends Meta {
    kind?: string;
    spec?: { template?: { spec?: { containers?: { image?: string }[] } } };
}

/** The image's repository path without registry host, tag or digest: `quay.io/jetstack/x:v1` → `/jetstack/x`. */
function imagePath(image: string): string {
    const noDigest = image.split("@")[0]!;
    const slash = noDigest.lastIndexOf("/");
    const colon = noDigest.lastIndexOf(":");
    const repo = colon > slash ? noDigest.slice(0, colon) : noDigest;
    const parts = repo.split("/");
    const hasHost = parts.length > 1 && /[.:]|^localhost$/.test(parts[0]!);
    return "/" + (hasHost ? parts.slice(1) : parts).join("/");
}

/** Who installed an object, from Helm's annotations, Argo CD's tracking annotation or the field managers. */
function owner(o: Meta): { release?: PlannedRelease; pulumi: boolean; argo: boolean } {
    const a = o.metadata.annotations ?? {};
    const release = a[RELEASE] ? { release: a[RELEASE]!, namespace: a[RELEASE_NS] ?? "" } : undefined;
    const managers = (o.metadata.managedFields ?? []).map((m) => m.manager ?? "");
    const pulumi = managers.some((m) => m.startsWith("pulumi-kubernetes"));
    const argo = a[ARGO_TRACKING] !== undefined || managers.includes(ARGO_MANAGER);
    return { ...(release ? { release } : {}), pulumi, argo };
}

/** Whether an object without a Helm release is the platform's: Pulumi applied it, or Argo CD did where it delivers the platform. */
const ownUnreleased = (o: ReturnType<typeof owner>, plan: DoctorPlan) => !o.release && (o.pulumi || (!!plan.argoCdDelivers && o.argo));

const same = (a?: PlannedRelease, b?: PlannedRelease) => !!a && !!b && a.release === b.release && a.namespace === b.namespace;
const f = (id: string, title: string, verdict: Finding["verdict"], detail: string, fix?: string): Finding => ({ id, group: "conflicts", title, verdict, detail, ...(fix ? { fix } : {}) });

/** Runs the conflict checks. */
export async function checkConflicts(client: KubeClient, plan: DoctorPlan): Promise<Finding[]> {
    const [deployments, statefulsets, owned] = await Promise.all([
        client.get<{ items: Workload[] }>("/apis/apps/v1/deployments"),
        client.get<{ items: Workload[] }>("/apis/apps/v1/statefulsets"),
        checkOwnership(ownershipReader(client), { objects: plan.owned, releases: [] }, { identity: plan.identity, argoCdDelivers: plan.argoCdDelivers }),
    ]);
    const workloads = [...deployments.items, ...statefulsets.items];
    const findings: Finding[] = [];
    for (const op of OPERATORS) {
        const mine = op.release(plan);
        if (!mine && op.onlyWhenInstalled) continue;
        const crd = await client.find<Meta>(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${op.crd}`);
        const running = workloads.filter(
            (w) => (w.spec?.template?.spec?.containers ?? []).some((c) => c.image && op.images.some((re) => re.test(imagePath(c.image!)))) && !(mine && w.metadata.namespace === mine.namespace),
        );
        const problems: string[] = [];
        if (running.length) problems.push(`it already runs as ${running.map((w) => `${w.metadata.namespace}/${w.metadata.name}`).join(", ")}`);
        if (crd) {
            const o = owner(crd);
            if (o.release && !same(o.release, mine)) problems.push(`CRD ${op.crd} belongs to Helm release ${o.release.release} in namespace ${o.release.namespace}`);
            else if (!o.release && !ownUnreleased(op.neverFromArgo ? { ...o, argo: false } : o, plan) && !running.length) problems.push(`CRD ${op.crd} exists, installed by something other than this platform`);
        }
        const title = `No other ${op.title}`;
        if (!problems.length) {
            findings.push(f(`conflict-${op.id}`, title, "pass", crd ? `${op.crd} is the platform's own` : "none installed"));
            continue;
        }
        const where = running[0]?.metadata.namespace ?? (crd ? owner(crd).release?.namespace : undefined);
        findings.push(
            f(
                `conflict-${op.id}`,
                title,
                "fail",
                `${op.title}: ${problems.join("; ")}. ${op.consequence ?? TAKEOVER}`,
                `remove the other installation first (${where ? `e.g. helm -n ${where} list, then helm -n ${where} uninstall <release>` : "and its CRDs"}), or ${op.alternative ?? "deploy the platform to another cluster"}`,
            ),
        );
    }
    findings.push(ingressClassFinding(owned, plan));
    findings.push(namespaceFinding(owned, plan));
    findings.push(clusterNamesFinding(owned));
    return findings;
}

/** Reads at a time for the names the platform claims. */
const OWNED_READS = 8;

/**
 * The doctor's client as the ownership check reads: the metadata of one named object at a time. Helm's release records
 * are not read (the doctor's client would fetch whole release Secrets): a release is judged by its namespace, and every
 * release of the platform is in a namespace the platform claims, so a release the guard refuses is in a namespace the
 * doctor refuses.
 */
function ownershipReader(client: KubeClient): MetadataReader {
    let running = 0;
    const waiting: (() => void)[] = [];
    return {
        server: client.server,
        async get(path) {
            while (running >= OWNED_READS) await new Promise<void>((r) => waiting.push(r));
            running++;
            try {
                return (await client.find<{ metadata?: ObservedMeta }>(path))?.metadata;
            } finally {
                running--;
                waiting.shift()?.();
            }
        },
        list: async () => [],
    };
}

/** What happens to `n` names the platform claims that are taken: nothing, since neither mara up nor pulumi up goes on. */
const notTakenOver = (n: number) =>
    `the platform will not take ${n === 1 ? "it" : "them"} over: mara up stops here, and pulumi up run directly stops before creating anything (the program checks the same)`;

/** The refusals of the claims `which` selects, and the remedies they name. */
function refusalsOf(report: OwnershipReport, which: (kind: string) => boolean): Refusal[] {
    return report.refusals.filter((r) => report.objects.some((o) => which(o.claim.kind) && describeClaim(o.claim) === r.what));
}

/** The distinct ways out of `refusals`, for a finding's fix: the settings that move objects, then what is left for the others. */
function fixOf(refusals: readonly Refusal[]): string {
    const settings = [...new Set(refusals.flatMap((r) => (r.remedy ? [r.remedy] : [])))];
    if (!settings.length) return NO_SETTING_MOVES_IT;
    return [...settings, ...(refusals.some((r) => !r.remedy) ? [`for the others, ${NO_SETTING_MOVES_IT}`] : [])].join("; ");
}

function ingressClassFinding(report: OwnershipReport, plan: DoctorPlan): Finding {
    const title = `IngressClass ${plan.ingressClassName} free`;
    const o = report.objects.find((x) => x.claim.kind === "IngressClass");
    if (!o || o.verdict.state === "free") return f("ingress-class", title, "pass", "not taken");
    if (o.verdict.state === "own" || o.verdict.state === "earlier") return f("ingress-class", title, "pass", "it is the platform's own");
    const [refusal] = refusalsOf(report, (k) => k === "IngressClass");
    return f(
        "ingress-class",
        title,
        "fail",
        `${refusal ? refusalLine(refusal, false) : `IngressClass ${plan.ingressClassName} is not the platform's`}. The platform's chart creates it and makes it the cluster default; ${notTakenOver(1)}`,
        `remove the other ingress controller (for ingress-nginx on k3s or RKE2: its HelmChart or helm uninstall; kind and MicroK8s: its addon), or run the platform on another cluster`,
    );
}

function namespaceFinding(report: OwnershipReport, plan: DoctorPlan): Finding {
    const title = "The platform's namespaces free or its own";
    const taken = refusalsOf(report, (k) => k === "Namespace");
    if (!taken.length) return f("namespaces", title, "pass", `${plan.namespaces.join(", ")}: free or the platform's`);
    return f(
        "namespaces",
        title,
        "fail",
        `${refusalLines(taken, false).join("; ")}. The platform marks its namespaces with the label ${PART_OF_LABEL}=${PART_OF_VALUE} and this stack's annotation; ${notTakenOver(taken.length)}`,
        fixOf(taken),
    );
}

function clusterNamesFinding(report: OwnershipReport): Finding {
    const title = "The platform's cluster-wide names free or its own";
    const names = report.objects.filter((o) => o.claim.kind !== "Namespace" && o.claim.kind !== "IngressClass");
    const taken = refusalsOf(report, (k) => k !== "Namespace" && k !== "IngressClass");
    if (!taken.length) {
        const shown = names.slice(0, 4).map((o) => describeClaim(o.claim)).join(", ");
        return f("cluster-names", title, "pass", names.length ? `${names.length} name(s) (${shown}${names.length > 4 ? ", ..." : ""}): free or the platform's` : "none");
    }
    return f("cluster-names", title, "fail", `${refusalLines(taken, false).join("; ")}. ${notTakenOver(taken.length)}`, fixOf(taken));
}
