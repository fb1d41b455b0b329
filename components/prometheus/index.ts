/**
 * The Prometheus add-on unit (kube-prometheus-stack and the statsd exporter): its component (component.ts) and the
 * Grafana admin password's init container (grafanaAdmin.ts), its defaults and chart pins (defaults.ts), its
 * configuration keys (keys.ts), its settings (settings.ts) and its mapping onto the Platform's arguments (args.ts);
 * its page is docs/components/prometheus.md. Alerting (components/alerts/, config/alerting.ts) and the dashboards
 * (components/grafanaDashboards.ts) stay outside it: the application's monitoring uses them too. This index is the
 * library's view of the unit, the component and its place on the Platform (platformUnit.ts): components never read configuration.
 */
export * from "./component";
// Its place on the Platform: the argument types, and (loaded with them) its group of PlatformArgs and member of Platform.
export type { PlatformMetricsArgs, PlatformPrometheusArgs } from "./platformUnit";
