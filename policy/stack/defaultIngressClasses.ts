/**
 * The stack makes at most one IngressClass the cluster default. A default comes from a typed IngressClass with the
 * default annotation, or from an ingress controller chart's values (with that chart's own default when they say
 * nothing). The cluster side is the default-ingress-class rule: there, only the platform's class may be the default.
 */
import { DEFAULT_CLASS_ANNOTATION } from "../kubernetes/defaultIngressClass";
import type { PulumiResource, StackRule } from "../rule";
import { chartName, HELM_TYPES, release, valueAt } from "./releases";

/** Ingress controller charts: the value that makes their class the default, and what the chart does when unset. */
export const DEFAULT_CLASS_VALUES: Readonly<Record<string, { path: string; chartDefault: boolean }>> = {
    "nginx-ingress": { path: "controller.ingressClass.setAsDefaultIngress", chartDefault: false },
    "ingress-nginx": { path: "controller.ingressClassResource.default", chartDefault: false },
    traefik: { path: "ingressClass.isDefaultClass", chartDefault: true },
};

const INGRESS_CLASS = "kubernetes:networking.k8s.io/v1:IngressClass";

/** Whether a resource makes an IngressClass the cluster default. */
function makesDefault(r: PulumiResource): boolean {
    if (r.type === INGRESS_CLASS) {
        return (r.props.metadata as { annotations?: Record<string, string> } | undefined)?.annotations?.[DEFAULT_CLASS_ANNOTATION] === "true";
    }
    if (!HELM_TYPES.includes(r.type)) return false;
    const chart = DEFAULT_CLASS_VALUES[chartName(r) ?? ""];
    if (!chart) return false;
    const v = valueAt(r, chart.path);
    return v === undefined ? chart.chartDefault : v === true || v === "true";
}

const classResource = (name: string, isDefault: boolean): PulumiResource => ({
    type: INGRESS_CLASS,
    name,
    props: { metadata: { name, annotations: { [DEFAULT_CLASS_ANNOTATION]: String(isDefault) } }, spec: { controller: "example.com/c" } },
});

const platformController = release("kic", "nginx-ingress", { controller: { ingressClass: { name: "nginx", setAsDefaultIngress: true } } });

export const oneDefaultIngressClass: StackRule = {
    kind: "stack",
    id: "one-default-ingress-class",
    description: "The stack makes at most one IngressClass the cluster default.",
    level: "mandatory",
    settings: {},
    check: (resources) => {
        const defaults = resources.filter(makesDefault);
        if (defaults.length <= 1) return [];
        return defaults.slice(1).map((r) => ({
            resource: r.name,
            message: `"${r.name}" makes a second IngressClass the cluster default (besides "${defaults[0]!.name}"); Ingresses without a class would then be refused`,
        }));
    },
    examples: {
        pass: [[platformController, classResource("internal", false)], [platformController, release("other", "ingress-nginx")]],
        fail: [[platformController, classResource("internal", true)], [platformController, release("traefik", "traefik")]],
    },
};
