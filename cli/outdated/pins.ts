/**
 * Every version the program pins, built from the program's own constants and configuration — the chart
 * catalogue, the key table's defaults, the Bank of Sirius workload list, the collector image — so the list
 * cannot drift from what `pulumi up` installs. A stack's configuration can override some pins (chart
 * versions and repositories, the ingress controller image, the Bank of Sirius registry and tag, the
 * Elasticsearch version); {@link stackPinSettings} reads those from a validated stack.
 */
import { KIBANA_SETUP_IMAGE } from "../../components/logstore/kibanaSetup";
import { CONTRIB_COLLECTOR_IMAGE } from "../../components/observability";
import { siriusWorkloads } from "../../components/application/workloadSpecs";
import { CHART_IDS, CHARTS, ChartId, ChartSettings } from "../../contracts";
import { KEYS } from "../../config/keys";
import type { MaraConfig } from "../../config/model";
import { displayName, parseImageRef } from "./imageRef";

/** The settings that decide the pins: the program's defaults, or a stack's values. */
export interface PinSettings {
    /** Version and repository of every chart. */
    readonly charts: Readonly<Record<ChartId, Pick<ChartSettings, "version" | "repositoryUrl">>>;
    /** The ingress controller image: copied from a registry, or built from source. */
    readonly kic: { readonly origin: "registry" | "source"; readonly imageName: string; readonly sourceUrl: string };
    /** Registry prefix and tag of the bos-* images. */
    readonly application: { readonly imageRegistry: string; readonly imageTag: string };
    /** The Elasticsearch and Kibana version the ECK operator runs. */
    readonly elasticVersion: string;
    /** The NFS provisioner's image (existing clusters with `mara:nfsServer`). */
    readonly nfsProvisionerImage: string;
}

/** Where each chart's settings sit in the validated configuration. A Record, so a new chart id cannot be missed. */
export const CHART_SETTINGS: { readonly [K in ChartId]: (c: MaraConfig) => ChartSettings } = {
    ingress: (c) => c.ingressController.chart,
    certManager: (c) => c.certManager.chart,
    prometheus: (c) => c.prometheus.chart,
    statsd: (c) => c.prometheus.statsdChart,
    logstore: (c) => c.logstore.chart,
    logagent: (c) => c.logAgent.chart,
    otelOperator: (c) => c.observability.otelOperatorChart,
    postgresExporter: (c) => c.application.postgresExporterChart,
    metallb: (c) => c.metalLb.chart,
    nfs: (c) => c.nfsStorage.chart,
    argoCd: (c) => c.argoCd.chart,
    pulumiOperator: (c) => c.pulumiOperator.chart,
};

/** The pins of a stack without configuration: the defaults of `config/keys.ts`. */
export function defaultPinSettings(): PinSettings {
    const charts = Object.fromEntries(
        CHART_IDS.map((id) => [id, { version: KEYS[`${id}ChartVersion`].default, repositoryUrl: KEYS[`${id}HelmRepoUrl`].default }]),
    ) as PinSettings["charts"];
    return {
        charts,
        kic: { origin: KEYS.ingressImageOrigin.default, imageName: KEYS.ingressImageName.default, sourceUrl: KEYS.ingressSrcUrl.default },
        application: { imageRegistry: KEYS.siriusImageRegistry.default, imageTag: KEYS.siriusImageTag.default },
        elasticVersion: KEYS.logstoreVersion.default,
        nfsProvisionerImage: KEYS.nfsProvisionerImage.default,
    };
}

/** The pins of a validated stack. */
export function stackPinSettings(cfg: MaraConfig): PinSettings {
    const charts = Object.fromEntries(
        CHART_IDS.map((id) => {
            const c = CHART_SETTINGS[id](cfg);
            return [id, { version: c.version, repositoryUrl: c.repositoryUrl }];
        }),
    ) as PinSettings["charts"];
    return {
        charts,
        kic: { origin: cfg.ingressController.image.imageOrigin, imageName: cfg.ingressController.image.imageName, sourceUrl: cfg.ingressController.image.sourceUrl },
        application: { imageRegistry: cfg.application.imageRegistry, imageTag: cfg.application.imageTag },
        elasticVersion: cfg.logstore.version,
        nfsProvisionerImage: cfg.nfsStorage.image,
    };
}

/** Where a pin's newer versions are listed. */
export type PinSource =
    | { readonly type: "helm-index"; readonly repositoryUrl: string; readonly chart: string }
    | { readonly type: "oci-chart"; readonly repositoryUrl: string; readonly chart: string }
    | { readonly type: "registry"; readonly registry: string; readonly repository: string }
    /** Not looked up, for the reason given. */
    | { readonly type: "none"; readonly reason: string };

/** One pinned chart or image. */
export interface Pin {
    readonly kind: "chart" | "image";
    /** Chart name, or image name without tag as users write it. */
    readonly name: string;
    /** The pinned version or tag (a digest for images pinned by digest). */
    readonly pinned: string;
    /** What the platform uses it for. */
    readonly usedBy: string;
    /** Where to change the pin: a configuration key, or the constant in the source. */
    readonly setBy: string;
    readonly source: PinSource;
}

/** The ECK operator runs Elastic's images of the configured version unless a spec names another image. */
const ELASTIC_IMAGES = [
    { image: "docker.elastic.co/elasticsearch/elasticsearch", usedBy: "Elasticsearch (Logstore, run by ECK)" },
    { image: "docker.elastic.co/kibana/kibana", usedBy: "Kibana (Logstore, run by ECK)" },
];

/**
 * Every pin, charts first, in catalogue order, then images.
 *
 * @param settings - {@link defaultPinSettings} or {@link stackPinSettings}.
 */
export function pinsOf(settings: PinSettings): Pin[] {
    const charts = CHART_IDS.map((id): Pin => {
        const { version, repositoryUrl } = settings.charts[id];
        const chart = CHARTS[id].chart;
        return {
            kind: "chart",
            name: chart,
            pinned: version,
            usedBy: CHARTS[id].title,
            setBy: KEYS[`${id}ChartVersion`].key,
            source: { type: repositoryUrl.startsWith("oci://") ? "oci-chart" : "helm-index", repositoryUrl, chart },
        };
    });
    return [...charts, kicImagePin(settings.kic), ...applicationPins(settings.application), ...elasticPins(settings.elasticVersion), collectorPin(), kibanaSetupPin(),
        imagePin(settings.nfsProvisionerImage, "NFS subdir external provisioner (existing clusters, mara:nfsServer)", KEYS.nfsProvisionerImage.key)];
}

function imagePin(reference: string, usedBy: string, setBy: string): Pin {
    const ref = parseImageRef(reference);
    const pinned = ref.digest ?? ref.tag ?? "latest";
    const source: PinSource = ref.digest
        ? { type: "none", reason: "pinned by digest; digests have no newer versions" }
        : { type: "registry", registry: ref.registry, repository: ref.repository };
    return { kind: "image", name: displayName(ref), pinned, usedBy, setBy, source };
}

function kicImagePin(kic: PinSettings["kic"]): Pin {
    if (kic.origin === "source") {
        // Source builds run from a checkout on the deploying machine; its version is whatever is checked out there.
        return {
            kind: "image",
            name: "nginx-ingress (built from source)",
            pinned: kic.sourceUrl,
            usedBy: "NGINX Ingress Controller",
            setBy: KEYS.ingressSrcUrl.key,
            source: { type: "none", reason: "built from a local checkout; its version is whatever is checked out there" },
        };
    }
    return imagePin(kic.imageName, "NGINX Ingress Controller", KEYS.ingressImageName.key);
}

function applicationPins(application: PinSettings["application"]): Pin[] {
    // The statsd host shapes environment variables only; the images do not depend on it.
    const images = [...new Set(siriusWorkloads("statsd").map((w) => w.image))];
    return images.map((image) => imagePin(`${application.imageRegistry}/${image}:${application.imageTag}`, `Bank of Sirius (${image})`, KEYS.siriusImageTag.key));
}

function elasticPins(version: string): Pin[] {
    return ELASTIC_IMAGES.map((e) => imagePin(`${e.image}:${version}`, e.usedBy, KEYS.logstoreVersion.key));
}

function kibanaSetupPin(): Pin {
    return imagePin(KIBANA_SETUP_IMAGE, "Kibana setup Job (imports the data view and NGINX search)", "KIBANA_SETUP_IMAGE in components/logstore/kibanaSetup.ts");
}

function collectorPin(): Pin {
    return imagePin(CONTRIB_COLLECTOR_IMAGE, "OpenTelemetry collector (mara:otelCollectorVariant full)", "CONTRIB_COLLECTOR_IMAGE in components/observability/component.ts");
}
