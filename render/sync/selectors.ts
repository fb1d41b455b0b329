/** Kubernetes label selectors (matchLabels and matchExpressions), evaluated against a set of labels. */

/** A label selector as Kubernetes writes it. */
export interface LabelSelector {
    matchLabels?: Record<string, string>;
    matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** Whether `labels` satisfy `selector`; an absent or empty selector matches everything, as in webhooks and ServiceMonitors. */
export function matches(selector: LabelSelector | undefined, labels: Readonly<Record<string, string>>): boolean {
    if (!selector) return true;
    for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
    for (const e of selector.matchExpressions ?? []) {
        const has = Object.hasOwn(labels, e.key);
        const values = e.values ?? [];
        const ok =
            e.operator === "In" ? has && values.includes(labels[e.key]!)
            : e.operator === "NotIn" ? !has || !values.includes(labels[e.key]!)
            : e.operator === "Exists" ? has
            : e.operator === "DoesNotExist" ? !has
            : false;
        if (!ok) return false;
    }
    return true;
}

/** The label keys a selector reads. */
export function keysOf(selector: LabelSelector | undefined): string[] {
    return [...Object.keys(selector?.matchLabels ?? {}), ...(selector?.matchExpressions ?? []).map((e) => e.key)];
}
