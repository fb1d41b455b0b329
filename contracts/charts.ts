/**
 * The chart catalogue: the one place chart coordinates live. Every Helm release the platform installs
 * takes its chart name, repository, pinned version and timeout from here; stack config may override the
 * version, repository URL (for mirrors) and timeout, never the chart name, because each component's
 * values are written for this chart.
 *
 * Versions are pinned, not floating, so two `pulumi up` runs a month apart install the same thing.
 * docs/charts.md lists what changed from MARA's 2022 pins and why.
 */
import { CERT_MANAGER_CHART } from "../components/certManager/defaults";
import { METALLB_CHART } from "../components/metalLb/defaults";
import { PROMETHEUS_CHART, STATSD_CHART } from "../components/prometheus/defaults";
import { OTEL_OPERATOR_CHART } from "../components/observability/defaults";
import { NFS_CHART } from "../components/nfsStorage/defaults";
import { LOGSTORE_CHART } from "../components/logstore/defaults";
import { LOG_AGENT_CHART } from "../components/logAgent/defaults";
import { ARGO_CD_CHART } from "../components/argoCd/defaults";
import { PULUMI_OPERATOR_CHART } from "../components/pulumiOperator/defaults";
import { INGRESS_CONTROLLER_CHART } from "../components/ingressController/defaults";
import { POSTGRES_EXPORTER_CHART } from "../components/application/defaults";

/** Identifies a chart entry; also the stem of its `mara:<id>Chart*` config keys. */
export type ChartId =
    | "ingress"
    | "certManager"
    | "prometheus"
    | "statsd"
    | "logstore"
    | "logagent"
    | "otelOperator"
    | "postgresExporter"
    | "metallb"
    | "nfs"
    | "argoCd"
    | "pulumiOperator";

/** Where a Helm chart comes from and how long its release may take: what a component installs. */
export interface ChartSettings {
    /** Chart name in its repository. */
    readonly chart: string;
    /** Pinned chart version. */
    readonly version: string;
    /** Helm repository URL (https), or an `oci://` registry reference, the chart is fetched from. */
    readonly repositoryUrl: string;
    /** Seconds Helm may wait for the release to become ready before failing. */
    readonly timeoutSeconds: number;
    /**
     * Absolute path of a local archive of exactly this chart version, installed instead of fetching it from
     * `repositoryUrl` (air-gapped installs; `mara:chartArchiveDir`). Its digest is checked before it is used.
     */
    readonly archive?: string;
}

/** A catalogue entry: the chart's settings, plus what docs and messages say about it. */
export interface ChartEntry extends ChartSettings {
    /** Human name used in messages and docs. */
    readonly title: string;
    /** The chart MARA installed in this slot, when it was a different chart (its legacy keys then do not apply). */
    readonly maraChart?: string;
}

/**
 * The chart of every Helm release, by id. Components default their `chart` argument to their entry here;
 * `loadConfig` builds each one's settings from this entry's chart name and the stack's version, repository URL
 * and timeout, whose defaults are this entry's.
 */
export const CHARTS: Readonly<Record<ChartId, ChartEntry>> = {
    ingress: INGRESS_CONTROLLER_CHART,
    // The add-on units' pins live in their folders (components/<unit>/defaults.ts).
    certManager: CERT_MANAGER_CHART,
    prometheus: PROMETHEUS_CHART,
    statsd: STATSD_CHART,
    logstore: LOGSTORE_CHART,
    logagent: LOG_AGENT_CHART,
    otelOperator: OTEL_OPERATOR_CHART,
    postgresExporter: POSTGRES_EXPORTER_CHART,
    // Installed only on an existing cluster that asks for it (mara:metallbAddresses).
    metallb: METALLB_CHART,
    // Installed only on an existing cluster that asks for it (mara:nfsServer).
    nfs: NFS_CHART,
    // Installed only when Argo CD delivers the platform and runs in its cluster (mara:delivery gitops, mara:gitopsArgoCd install).
    argoCd: ARGO_CD_CHART,
    // Installed only when the Pulumi Kubernetes Operator delivers the platform (mara:delivery operator).
    pulumiOperator: PULUMI_OPERATOR_CHART,
};

/** Chart ids in a stable order, for docs and generated files. */
export const CHART_IDS = Object.keys(CHARTS) as ChartId[];
