/**
 * Prometheus's configuration keys: the `Prometheus` group (volume sizes and Grafana's administrator password) and
 * the kube-prometheus-stack and statsd exporter charts' keys. Declared with the key machinery (config/keySpec.ts)
 * and spread into the key table (config/keys.ts), so `mara validate`, Pulumi.yaml, docs/configuration.md and the
 * prompts read them as every other key. Alertmanager's receivers keep their own group, `Alerts` (config/alerting.ts).
 */
import { PATTERNS } from "../../contracts/patterns";
import { chartKeys, spec } from "../../config/keySpec";
import { text } from "../../config/valueTypes";
import { PROMETHEUS_DEFAULTS } from "./defaults";

/**
 * Shortest Grafana administrator password accepted: the login guards dashboards, alerting and every data source.
 * 8 is NIST SP 800-63B's minimum for a password a person chooses (a generated one has DEFAULTS.secrets.length).
 * Offline, an encrypted value reads as "<encrypted>" (config/stackFile.ts), which is longer, so `mara validate`
 * never refuses a password it cannot read.
 */
export const GRAFANA_PASSWORD_MIN_LENGTH = 8;

const volumeSize = text(PATTERNS.volumeSize);

/** The `Prometheus` group. */
export const PROMETHEUS_KEYS = {
    prometheusStorageSize: spec({
        key: "mara:prometheusStorageSize",
        type: volumeSize,
        default: PROMETHEUS_DEFAULTS.storageSize,
        description: "Volume size of Prometheus.",
        group: "Prometheus",
    }),
    dashboardStorageSize: spec({
        key: "mara:dashboardStorageSize",
        type: volumeSize,
        default: PROMETHEUS_DEFAULTS.dashboardStorageSize,
        description: "Volume size of Grafana and of Alertmanager.",
        group: "Prometheus",
    }),
    grafanaAdminPassword: spec({
        key: "mara:grafanaAdminPassword",
        legacy: ["prometheus:adminpass"],
        // One line: Grafana's CLI, which applies a changed password to the existing database, reads the first line of
        // its input (components/prometheus/grafanaAdmin.ts); a second line would be in the Secret but not in Grafana.
        type: text({ minLength: GRAFANA_PASSWORD_MIN_LENGTH, pattern: /^[^\r\n]*$/, allowed: `any text of at least ${GRAFANA_PASSWORD_MIN_LENGTH} characters, on one line (stored encrypted)` }),
        secret: true,
        defaultNote: "generated",
        description: "Grafana administrator password.",
        group: "Prometheus",
    }),
} as const;

/** The kube-prometheus-stack and statsd exporter charts' version, repository and timeout keys, with MARA's `prometheus:*` keys as aliases. */
export const PROMETHEUS_CHART_KEYS = {
    ...chartKeys("prometheus", "Prometheus", {
        version: ["prometheus:chart_version"],
        url: ["prometheus:prometheus_helm_repo_url", "prometheus:helm_repo_url"],
        timeout: ["prometheus:helm_timeout"],
    }),
    ...chartKeys("statsd", "Prometheus", {
        version: ["prometheus:statsd_chart_version"],
        url: ["prometheus:prometheus_helm_repo_url", "prometheus:helm_repo_url"],
        timeout: ["prometheus:helm_timeout"],
    }),
};
