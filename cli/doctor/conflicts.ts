/**
 * What is already on the cluster that the platform would fight with: another installation of an operator it
 * installs (cert-manager, the Prometheus operator, ECK, the OpenTelemetry operator, NGINX Ingress Controller),
 * their CRDs owned by another Helm release, the IngressClass the platform creates taken by another controller,
 * and the platform's namespaces taken by something else. The platform applies some CRDs with a forced
 * server-side apply (components/chartCrds.ts), so a CRD of another installation would be taken over, not refused:
 * this is the only warning before that happens. Where Argo CD delivers the platform (`mara:delivery: gitops`), the
 * objects it applied from the render are the platform's, not another installation.
 */
import type { Finding } from "./findings";
import type { KubeClient } from "./kubeClient";
import type { DoctorPlan, PlannedRelease } from "./plan";
import { ARGOCD_RELEASE } from "../../components/argocd/applications";

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
/** The label the platform puts on its namespaces. */
const PART_OF = "app.kubernetes.io/part-of";

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
    const [deployments, statefulsets, classes, namespaces] = await Promise.all([
        client.get<{ items: Workload[] }>("/apis/apps/v1/deployments"),
        client.get<{ items: Workload[] }>("/apis/apps/v1/statefulsets"),
        client.get<{ items: (Meta & { spec?: { controller?: string } })[] }>("/apis/networking.k8s.io/v1/ingressclasses"),
        client.get<{ items: Meta[] }>("/api/v1/namespaces"),
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
    findings.push(ingressClassFinding(classes.items, plan));
    findings.push(namespaceFinding(namespaces.items, plan));
    return findings;
}

const NGINX_CONTROLLER = "nginx.org/ingress-controller";

function ingressClassFinding(classes: readonly (Meta & { spec?: { controller?: string } })[], plan: DoctorPlan): Finding {
    const title = `IngressClass ${plan.ingressClassName} free`;
    const c = classes.find((x) => x.metadata.name === plan.ingressClassName);
    if (!c) return f("ingress-class", title, "pass", "not taken");
    const o = owner(c);
    const mine = plan.releases.find((r) => r.release === "kic");
    if (same(o.release, mine) || ownUnreleased(o, plan)) return f("ingress-class", title, "pass", "it is the platform's own");
    const by = c.spec?.controller === NGINX_CONTROLLER ? "another NGINX Ingress Controller" : `controller ${c.spec?.controller ?? "(none named)"}`;
    return f(
        "ingress-class",
        title,
        "fail",
        `IngressClass ${plan.ingressClassName} exists for ${by}${o.release ? ` (Helm release ${o.release.release} in ${o.release.namespace})` : ""}; the platform creates it and makes it the cluster default`,
        `remove the other ingress controller (for ingress-nginx on k3s or RKE2: its HelmChart or helm uninstall; kind and MicroK8s: its addon), or run the platform on another cluster`,
    );
}

function namespaceFinding(namespaces: readonly Meta[], plan: DoctorPlan): Finding {
    const title = "The platform's namespaces free or its own";
    const taken = plan.namespaces.filter((n) => {
        const ns = namespaces.find((x) => x.metadata.name === n);
        return ns && ns.metadata.labels?.[PART_OF] !== "mara";
    });
    if (!taken.length) return f("namespaces", title, "pass", `${plan.namespaces.join(", ")}: free or the platform's`);
    return f(
        "namespaces",
        title,
        "fail",
        `namespace${taken.length === 1 ? "" : "s"} ${taken.join(", ")} already exist${taken.length === 1 ? "s" : ""} and ${taken.length === 1 ? "is" : "are"} not the platform's (no label ${PART_OF}=mara); creating ${taken.length === 1 ? "it" : "them"} fails, and \`pulumi destroy\` would delete ${taken.length === 1 ? "it" : "them"} with everything in ${taken.length === 1 ? "it" : "them"}`,
        `move what runs there elsewhere and delete ${taken.length === 1 ? "it" : "them"} (kubectl delete namespace ${taken.join(" ")})${taken.includes(plan.applicationNamespace) ? `, or give the application another namespace: pulumi config set mara:siriusNamespace <name>` : ""}`,
    );
}
