/**
 * Grafana dashboards as data: JSON files in components/dashboards/ (their sources in SOURCES.md there),
 * provisioned through kube-prometheus-stack's dashboard sidecar, which loads every ConfigMap with the
 * {@link DASHBOARD_LABEL} label from any namespace into the folder its {@link DASHBOARD_FOLDER_ANNOTATION}
 * names. A test checks every query's metric names against what the platform scrapes.
 */
import * as fs from "fs";
import * as path from "path";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";

/** The dashboards the package ships, by file name without `.json`. */
export type DashboardId = "nginx-ingress-controller" | "nginx-plus-ingress-controller" | "bank-of-sirius" | "postgres";

/** Where the dashboard files live (copied next to the compiled module by the build). */
export const DASHBOARDS_DIR = path.join(__dirname, "dashboards");

/** The label the Grafana sidecar looks for, and its value (set in the Prometheus component's values). */
export const DASHBOARD_LABEL = { grafana_dashboard: "1" } as const;
/** The annotation naming the Grafana folder of a dashboard ConfigMap. */
export const DASHBOARD_FOLDER_ANNOTATION = "grafana_folder";
/** The folder the platform's dashboards appear in. */
export const DASHBOARD_FOLDER = "MARA";

/** The JSON text of a shipped dashboard. */
export function dashboardJson(id: DashboardId): string {
    return fs.readFileSync(path.join(DASHBOARDS_DIR, `${id}.json`), "utf8");
}

/** A ConfigMap holding one shipped dashboard, for the Grafana sidecar to load. */
export function grafanaDashboard(name: string, id: DashboardId, namespace: pulumi.Input<string>, opts: pulumi.CustomResourceOptions): k8s.core.v1.ConfigMap {
    return new k8s.core.v1.ConfigMap(
        name,
        {
            metadata: {
                name: `dashboard-${id}`,
                namespace,
                labels: { ...DASHBOARD_LABEL, "app.kubernetes.io/part-of": "mara" },
                annotations: { [DASHBOARD_FOLDER_ANNOTATION]: DASHBOARD_FOLDER },
            },
            data: { [`${id}.json`]: dashboardJson(id) },
        },
        opts,
    );
}
