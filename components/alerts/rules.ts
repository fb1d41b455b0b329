/**
 * The alert rules the platform ships, as data, and the PrometheusRule that carries a group of them. Every rule has a
 * severity (`critical` pages, `warning` goes to chat: docs/alerts.md, "Route tree"), the component it belongs to (the
 * route tree groups and inhibits by it), a summary and description, and a runbook: a section of docs/alerts.md named
 * after the alert. kube-prometheus-stack's Prometheus selects every PrometheusRule in the cluster (prometheus/component.ts,
 * `ruleSelectorNilUsesHelmValues: false`).
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { DEFAULTS } from "../../contracts";

/** Where an alert goes: `critical` to the paging receivers, `warning` to chat (docs/alerts.md). */
export type AlertSeverity = "critical" | "warning";

/** The parts of the platform its alerts are about; the `component` label of each alert. */
export const ALERT_COMPONENTS = ["ingress", "certificates", "logstore", "application", "database"] as const;
/** One of {@link ALERT_COMPONENTS}. */
export type AlertComponent = (typeof ALERT_COMPONENTS)[number];

/** One alerting rule. */
export interface AlertRule {
    /** The alert's name; also its runbook's heading in docs/alerts.md. */
    readonly alert: string;
    /** PromQL: the alert fires for every series it returns. */
    readonly expr: string;
    /** How long `expr` must hold before the alert fires (Prometheus's `for`). */
    readonly for: string;
    /** Where the alert goes. */
    readonly severity: AlertSeverity;
    /** Labels added to the alert besides severity and component (a `namespace` where `expr` has none). */
    readonly labels?: Readonly<Record<string, string>>;
    /** One line: what is wrong. May use Prometheus's template variables (`{{ $labels.x }}`, `{{ $value }}`). */
    readonly summary: string;
    /** What it means and what to look at first. */
    readonly description: string;
}

/** The rules of one component, one PrometheusRule. */
export interface AlertRuleGroup {
    /** The component the rules are about. */
    readonly component: AlertComponent;
    /** The rule group's name in Prometheus. */
    readonly name: string;
    /** The rules. */
    readonly rules: readonly AlertRule[];
}

/** The anchor of an alert's runbook in docs/alerts.md: its heading, as Markdown renderers make anchors. */
export const runbookAnchor = (alert: string) => alert.toLowerCase();

/** The `runbook_url` of an alert: `base` (the address of docs/alerts.md) and the alert's anchor. */
export const runbookUrl = (base: string, alert: string) => `${base}#${runbookAnchor(alert)}`;

/** A rule group as Prometheus reads it (`groups[]` of a rule file, and of a PrometheusRule's spec). */
export function ruleGroupSpec(group: AlertRuleGroup, runbookBase: string = DEFAULTS.prometheus.alertRunbookUrl): Record<string, unknown> {
    return {
        name: group.name,
        rules: group.rules.map((r) => ({
            alert: r.alert,
            expr: r.expr,
            for: r.for,
            labels: { severity: r.severity, component: group.component, ...r.labels },
            annotations: { summary: r.summary, description: r.description, runbook_url: runbookUrl(runbookBase, r.alert) },
        })),
    };
}

/** Label of the platform's PrometheusRules, so they can be told from others. */
export const ALERT_RULE_LABELS = { "app.kubernetes.io/part-of": "mara", "app.kubernetes.io/component": "alerts" } as const;

/**
 * A PrometheusRule holding `group`, named `mara-<component>`. Pass the release that installs the CRD (or what waits
 * for it) in `opts.dependsOn`.
 */
export function alertRules(name: string, group: AlertRuleGroup, namespace: pulumi.Input<string>, runbookBase: string | undefined, opts: pulumi.CustomResourceOptions): k8s.apiextensions.CustomResource {
    return new k8s.apiextensions.CustomResource(
        name,
        {
            apiVersion: "monitoring.coreos.com/v1",
            kind: "PrometheusRule",
            metadata: { name: `mara-${group.component}`, namespace, labels: { ...ALERT_RULE_LABELS } },
            spec: { groups: [ruleGroupSpec(group, runbookBase)] },
        },
        opts,
    );
}
