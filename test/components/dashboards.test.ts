/**
 * The Grafana dashboards: every metric name in every query and variable is one the platform scrapes, checked
 * against the exporters' own metric names (test/fixtures/metrics/, each file with its source) and the statsd
 * mapping the platform configures; the program scrapes each exporter a dashboard reads; and each dashboard is a
 * ConfigMap the Grafana sidecar loads.
 */
import * as fs from "fs";
import * as path from "path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ingressControllerValues, KIC_METRICS_LABELS } from "../../components/ingressController";
import { DASHBOARD_FOLDER_ANNOTATION, DASHBOARD_LABEL, DashboardId, dashboardJson, DASHBOARDS_DIR } from "../../components/grafanaDashboards";
import { GUNICORN_STATSD_MAPPING, prometheusValues } from "../../components/prometheus";
import { fixture } from "../support/config";
import { find, ofType, Registration, unwrapSecrets } from "../support/mocks";
import { runProgram } from "../support/program";
import { METRICS, metricList, metricNames, union } from "../support/metrics";

/** The series names the statsd exporter serves under the platform's gunicorn mapping. */
function statsdMappedNames(): Set<string> {
    const mapping = parse(GUNICORN_STATSD_MAPPING) as { mappings: { name: string; observer_type?: string }[] };
    return new Set(mapping.mappings.flatMap((m) => (m.observer_type === "histogram" ? ["_bucket", "_sum", "_count"].map((s) => m.name + s) : [m.name])));
}

/** Every PromQL expression of a dashboard: panel targets (rows included) and query variables. */
function queries(dashboard: unknown): string[] {
    const out: string[] = [];
    const walk = (v: unknown): void => {
        if (Array.isArray(v)) return v.forEach(walk);
        if (!v || typeof v !== "object") return;
        const o = v as Record<string, unknown>;
        if (typeof o.expr === "string") out.push(o.expr);
        Object.values(o).forEach(walk);
    };
    walk((dashboard as { panels: unknown }).panels);
    for (const variable of (dashboard as { templating: { list: { type: string; query: unknown }[] } }).templating.list) {
        if (variable.type !== "query") continue;
        const q = typeof variable.query === "string" ? variable.query : (variable.query as { query: string }).query;
        // label_values(<selector>, <label>) selects the metric of its first argument; label_values(<label>) none.
        const lv = /^label_values\((.*)\)$/.exec(q.trim());
        if (lv) {
            const args = lv[1]!.replace(/\{[^}]*\}/g, (m) => m.replace(/,/g, " "));
            // With one argument it is a label name, not a metric.
            if (args.includes(",")) out.push(args.slice(0, args.lastIndexOf(",")));
        } else out.push(q.replace(/^query_result\((.*)\)$/, "$1"));
    }
    return out.filter((q) => q.trim());
}

const kic = metricList("nginx-ingress-controller.txt");
const kicValues = (plus: boolean) =>
    ingressControllerValues({ repository: "nginx/nginx-ingress", tag: "5.5.4", nginxPlus: plus, pullSecret: false, replicas: 1, className: "nginx" }) as {
        controller: { nginxplus: boolean; enableLatencyMetrics: boolean };
        prometheus: { create: boolean; port: number };
    };

/** What each dashboard may read: the metric sections the platform's settings turn on. */
const SCRAPED: Record<DashboardId, () => Set<string>> = {
    "nginx-ingress-controller": () => {
        const v = kicValues(false).controller;
        return union(kic.get("always")!, v.nginxplus ? new Set() : kic.get("open source")!, v.enableLatencyMetrics ? kic.get("latency")! : new Set());
    },
    "nginx-plus-ingress-controller": () => {
        const v = kicValues(true).controller;
        return union(kic.get("always")!, v.nginxplus ? kic.get("NGINX Plus")! : new Set());
    },
    "bank-of-sirius": () => union(metricList("bank-of-sirius-java.txt").get("always")!, statsdMappedNames()),
    postgres: () => metricList("postgres-exporter.txt").get("always")!,
};

describe("metric lists", () => {
    it("have sections and provenance", () => {
        for (const f of fs.readdirSync(METRICS)) {
            const text = fs.readFileSync(path.join(METRICS, f), "utf8");
            expect(text, f).toMatch(/^# .*\n# Source: /);
            expect([...metricList(f).values()].every((s) => s.size > 0), f).toBe(true);
        }
        // The section keys SCRAPED relies on exist (a renamed header would otherwise read as "nothing allowed").
        expect([...kic.keys()]).toEqual(["always", "open source", "NGINX Plus", "latency"]);
    });
});

describe("the metric-name check", () => {
    it("finds metric names and nothing else in PromQL", () => {
        expect(
            metricNames('histogram_quantile(0.95, sum by (le, service) (rate(a_bucket{x=~"$v", code=~"5.."}[$__rate_interval]))) / on(pod) group_left(node) b_total offset 5m'),
        ).toEqual(["a_bucket", "b_total"]);
        expect(metricNames("sum(increase(c_total[5m])) / 5 > bool 0 and d")).toEqual(["c_total", "d"]);
    });

    it("catches a metric no exporter serves: the query NGINX's published Plus dashboard had", () => {
        const upstream = 'irate(nginx_ingress_nginxplus_ssl_sessions_reuses{class=~"$class", instance=~"$instance"}[5m])';
        const allowed = SCRAPED["nginx-plus-ingress-controller"]();
        expect(metricNames(upstream).filter((m) => !allowed.has(m))).toEqual(["nginx_ingress_nginxplus_ssl_sessions_reuses"]);
    });
});

describe("dashboards", () => {
    const files = fs.readdirSync(DASHBOARDS_DIR).filter((f) => f.endsWith(".json"));

    it("are the ones listed in SOURCES.md, each with its source", () => {
        const sources = fs.readFileSync(path.join(DASHBOARDS_DIR, "SOURCES.md"), "utf8");
        expect(files.sort()).toEqual(Object.keys(SCRAPED).map((id) => `${id}.json`).sort());
        for (const f of files) expect(sources, f).toContain(`| \`${f}\` |`);
    });

    for (const id of Object.keys(SCRAPED) as DashboardId[]) {
        it(`${id}: every query reads only metrics the platform scrapes`, () => {
            const dashboard = JSON.parse(dashboardJson(id)) as { uid: string; templating: { list: { name: string; type: string }[] } };
            const exprs = queries(dashboard);
            expect(exprs.length, id).toBeGreaterThanOrEqual(5);
            const allowed = SCRAPED[id]();
            const unknown = [...new Set(exprs.flatMap(metricNames))].filter((m) => !allowed.has(m));
            expect(unknown, `${id} queries metrics nothing scrapes`).toEqual([]);
        });

        it(`${id}: picks its Prometheus data source by variable, never by a fixed uid`, () => {
            const text = dashboardJson(id);
            const dashboard = JSON.parse(text) as { uid: string; id?: unknown; templating: { list: { name: string; type: string; query: unknown }[] } };
            expect(dashboard.templating.list[0]).toMatchObject({ name: "datasource", type: "datasource", query: "prometheus" });
            expect(dashboard.uid).toMatch(/^mara-/);
            expect(dashboard.id ?? null).toBeNull();
            // Every data source reference: Prometheus through the variable, or Grafana's built-in one (annotations).
            const refs: { type?: string; uid?: string }[] = [];
            const walk = (v: unknown): void => {
                if (Array.isArray(v)) return v.forEach(walk);
                if (!v || typeof v !== "object") return;
                const o = v as Record<string, unknown>;
                if (o.datasource && typeof o.datasource === "object") refs.push(o.datasource as { type?: string; uid?: string });
                Object.values(o).forEach(walk);
            };
            walk(dashboard);
            expect(refs.length).toBeGreaterThan(5);
            for (const r of refs) expect((r.type === "datasource" && r.uid === "grafana") || (r.type === "prometheus" && r.uid === "${datasource}"), JSON.stringify(r)).toBe(true);
        });
    }
});

describe("what the program provisions and scrapes", () => {
    let regs: Registration[];
    const CONFIG_MAP = "kubernetes:core/v1:ConfigMap";
    const SERVICE_MONITOR = "kubernetes:monitoring.coreos.com/v1:ServiceMonitor";
    const RELEASE = "kubernetes:helm.sh/v3:Release";

    beforeAll(async () => {
        const run = await runProgram(fixture("canonical-aws", { secrets: { "mara:grafanaAdminPassword": "grafana-pw", "mara:siriusAccountsPassword": "pw" } }));
        expect(run.error).toBeUndefined();
        regs = run.registrations;
    }, 300_000);

    const dashboards = () => ofType(regs, CONFIG_MAP).filter((r) => (r.inputs!.metadata as { labels?: Record<string, string> }).labels?.grafana_dashboard === "1");

    it("puts each dashboard in a ConfigMap the Grafana sidecar loads, in the MARA folder", () => {
        const found = Object.fromEntries(
            dashboards().map((r) => {
                const input = unwrapSecrets(r.inputs) as { metadata: { namespace: string; annotations: Record<string, string> }; data: Record<string, string> };
                const [file, json] = Object.entries(input.data)[0]!;
                expect(input.metadata.annotations[DASHBOARD_FOLDER_ANNOTATION]).toBe("MARA");
                expect(JSON.parse(json)).toEqual(JSON.parse(dashboardJson(file.replace(/\.json$/, "") as DashboardId)));
                return [file, input.metadata.namespace];
            }),
        );
        // The open-source controller's dashboard (NGINX Plus is off in this stack), the application's two.
        expect(found).toEqual({ "nginx-ingress-controller.json": "prometheus", "bank-of-sirius.json": "bos", "postgres.json": "bos" });
    });

    it("has the sidecar look for that label in every namespace", () => {
        const values = unwrapSecrets(find(regs, RELEASE, "platform-prometheus-release").inputs!.values) as { grafana: { sidecar: { dashboards: Record<string, unknown> } } };
        expect(values.grafana.sidecar.dashboards).toMatchObject({
            enabled: true,
            label: Object.keys(DASHBOARD_LABEL)[0],
            labelValue: "1",
            searchNamespace: "ALL",
            folderAnnotation: DASHBOARD_FOLDER_ANNOTATION,
        });
        expect(prometheusValues({ grafanaAdminSecret: "s", storageSize: "1Gi", dashboardStorageSize: "1Gi" })).toMatchObject({ grafana: { sidecar: values.grafana.sidecar } });
    });

    it("scrapes every exporter the dashboards read", () => {
        // The ingress controller: metrics on, with upstream latency, through a ServiceMonitor on its metrics Service.
        const kicRelease = unwrapSecrets(find(regs, RELEASE, "platform-ingress-controller-release").inputs!.values) as ReturnType<typeof kicValues>;
        expect(kicRelease.prometheus.create).toBe(true);
        expect(kicRelease.controller.enableLatencyMetrics).toBe(true);
        const kicMonitor = unwrapSecrets(find(regs, SERVICE_MONITOR, "platform-prometheus-nginx-ingress").inputs) as { spec: { selector: { matchLabels: unknown }; endpoints: { port: string }[] } };
        expect(kicMonitor.spec.selector.matchLabels).toEqual(KIC_METRICS_LABELS);
        expect(kicMonitor.spec.endpoints[0]!.port).toBe("prometheus");
        // The Java services on /z/prometheus.
        const java = unwrapSecrets(find(regs, SERVICE_MONITOR, "bank-of-sirius-java-metrics").inputs) as { spec: { endpoints: { path: string }[] } };
        expect(java.spec.endpoints[0]!.path).toBe("/z/prometheus");
        // The Python services through the statsd exporter, with the gunicorn mapping.
        const statsd = unwrapSecrets(find(regs, RELEASE, "platform-prometheus-statsd").inputs!.values) as { serviceMonitor: { enabled: boolean }; statsd: { mappingConfig: string } };
        expect(statsd.serviceMonitor.enabled).toBe(true);
        expect(statsd.statsd.mappingConfig).toBe(GUNICORN_STATSD_MAPPING);
        // Both Postgres exporters.
        for (const exporter of ["bank-of-sirius-accountsdbmon", "bank-of-sirius-ledgerdbmon"]) {
            expect((unwrapSecrets(find(regs, RELEASE, exporter).inputs!.values) as { serviceMonitor: { enabled: boolean } }).serviceMonitor.enabled, exporter).toBe(true);
        }
    });

    it("gives an NGINX Plus controller NGINX's Plus dashboard", async () => {
        const base = fixture("canonical-aws", { secrets: { "mara:grafanaAdminPassword": "grafana-pw", "mara:siriusAccountsPassword": "pw" } });
        const run = await runProgram({
            ...base,
            values: {
                ...base.values,
                "mara:ingressEnablePlus": "true",
                "mara:nginxJwt": "jwt",
                "mara:ingressImageName": "private-registry.nginx.com/nginx-ic/nginx-plus-ingress:5.5.4",
            },
            secretKeys: new Set([...base.secretKeys, "mara:nginxJwt"]),
        });
        expect(run.error).toBeUndefined();
        const names = ofType(run.registrations, CONFIG_MAP)
            .filter((r) => (r.inputs!.metadata as { labels?: Record<string, string> }).labels?.grafana_dashboard === "1")
            .map((r) => Object.keys(r.inputs!.data as object)[0]);
        expect(names).toContain("nginx-plus-ingress-controller.json");
        expect(names).not.toContain("nginx-ingress-controller.json");
    }, 120_000);
});
