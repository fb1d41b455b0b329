/**
 * MARA's own pins. A MARA stack file carries the versions MARA shipped in 2022 (its example file and its
 * runner wrote them): the nginx-ingress chart 0.15.2 with controller image 2.4.2, cert-manager v1.10.0,
 * kube-prometheus-stack 41.5.0, prometheus-statsd-exporter 0.6.2, prometheus-postgres-exporter 2.3.5, EKS
 * 1.21 and DOKS 1.22.12-do.0. None of them can deploy today: EKS and DOKS no longer create those Kubernetes
 * versions, the old controller does not define the flags the current chart renders, and the platform's chart
 * values are written for the current charts (cert-manager before v1.15 has no `crds.enabled`, so its CRDs
 * would not be installed and every ClusterIssuer would fail).
 *
 * A MARA stack file must work unchanged, so exactly these values, under exactly MARA's keys, are read as the
 * versions this platform is written and tested for, with a warning per replacement that names the key to
 * delete. Any other version is the user's own choice and is checked as such (chartVersions.ts, eksVersions.ts).
 */
import { CHARTS, DEFAULTS, KIC_VERSION, splitImageName } from "../contracts";

/** A value MARA shipped, under the MARA key it shipped in. */
interface LegacyPin {
    /** MARA's key. */
    readonly key: string;
    /** The cloud whose section the key belongs to; on another cloud the key is unused and draws no warning. */
    readonly cloud?: "aws" | "digitalocean";
    /** What the key held in MARA's files, or a test of the value (the image pin keeps its repository). */
    readonly matches: (value: string) => boolean;
    /** What the platform reads instead. */
    readonly replacement: (value: string) => string;
    /** What the pin is, for the warning. */
    readonly what: string;
}

/** The repositories MARA's image pin came from: NGINX's open-source and NGINX Plus images. */
const NGINX_IMAGES = ["nginx/nginx-ingress", "docker.io/nginx/nginx-ingress", "private-registry.nginx.com/nginx-ic/nginx-plus-ingress"];
const MARA_KIC = "2.4.2";

const exactly = (pinned: string) => (value: string) => value.trim() === pinned;
const chartPin = (key: string, pinned: string, id: keyof typeof CHARTS): LegacyPin => ({
    key,
    matches: exactly(pinned),
    replacement: () => CHARTS[id].version,
    what: `the ${CHARTS[id].chart} chart`,
});

/** Every MARA pin that is read as the current version. */
export const LEGACY_PINS: readonly LegacyPin[] = [
    chartPin("kic-helm:chart_version", "0.15.2", "ingress"),
    {
        key: "kic:image_name",
        matches: (v) => {
            const [repository, tag] = splitImageName(v.trim());
            return NGINX_IMAGES.includes(repository) && tag === MARA_KIC;
        },
        replacement: (v) => `${splitImageName(v.trim())[0]}:${KIC_VERSION}`,
        what: "the NGINX Ingress Controller image",
    },
    { key: "kic-helm:nginx_tag", matches: exactly(MARA_KIC), replacement: () => KIC_VERSION, what: "the NGINX Ingress Controller image tag" },
    chartPin("certmgr:chart_version", "v1.10.0", "certManager"),
    chartPin("prometheus:chart_version", "41.5.0", "prometheus"),
    chartPin("prometheus:statsd_chart_version", "0.6.2", "statsd"),
    chartPin("sirius:chart_version", "2.3.5", "postgresExporter"),
    { key: "eks:k8s_version", cloud: "aws", matches: exactly("1.21"), replacement: () => DEFAULTS.eks.version, what: "the EKS Kubernetes version" },
    // The example file's version and the one MARA's code defaulted to.
    { key: "docean:k8s_version", cloud: "digitalocean", matches: (v) => ["1.22.12-do.0", "1.22.8-do.1"].includes(v.trim()), replacement: () => DEFAULTS.doks.version, what: "the DOKS Kubernetes version" },
];

/** What a MARA pin is read as, and the warning that says so. */
export interface PinReplacement {
    readonly value: string;
    readonly warning: string;
    /** The cloud the key is used on, when only one. */
    readonly cloud?: string;
}

/** The replacement of `value` read from `key`, when it is one of MARA's pins. */
export function legacyPinReplacement(key: string, value: string): PinReplacement | undefined {
    const pin = LEGACY_PINS.find((p) => p.key === key && p.matches(value));
    if (!pin) return undefined;
    const replacement = pin.replacement(value);
    return {
        value: replacement,
        cloud: pin.cloud,
        warning:
            `${key} = ${value.trim()} is MARA's 2022 pin of ${pin.what}, which cannot be deployed today; ${replacement} is used instead ` +
            `(this platform's default). Delete the key to silence this warning: pulumi config rm ${key}`,
    };
}
