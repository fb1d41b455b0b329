/**
 * The defaults of every component argument, in one table. Components apply them when an argument is
 * left out; the configuration's key table (config/keys.ts) declares the same values as the defaults of
 * the keys that set those arguments, and Pulumi.yaml, the stack example and docs/configuration.md are
 * generated from it. So a default is written once, here, and read everywhere else (docs/design.md,
 * "Defaults").
 *
 * Chart coordinates are defaults too; they live in the chart catalogue (./charts.ts).
 */
import type { AdmissionScope } from "./guardrails";
import { splitImageName } from "./names";
import { CERT_MANAGER_DEFAULTS } from "../components/certManager/defaults";
import { METALLB_DEFAULTS } from "../components/metalLb/defaults";
import { PROMETHEUS_DEFAULTS } from "../components/prometheus/defaults";
import { OBSERVABILITY_DEFAULTS } from "../components/observability/defaults";
import { NFS_STORAGE_DEFAULTS } from "../components/nfsStorage/defaults";
import { LOGSTORE_DEFAULTS } from "../components/logstore/defaults";
import { LOG_AGENT_DEFAULTS } from "../components/logAgent/defaults";
import { ARGO_CD_DEFAULTS } from "../components/argoCd/defaults";
import { INGRESS_CONTROLLER_DEFAULTS, INGRESS_CONTROLLER_IMAGE_DEFAULTS } from "../components/ingressController/defaults";
import { APPLICATION_DEFAULTS } from "../components/application/defaults";

/** Default arguments per component, keyed by the component's name in camel case. */
export const DEFAULTS = {
    vpc: { cidrBlock: "10.100.0.0/16", availabilityZoneCount: 3, natGateways: "perAz" },
    /** `desiredSize` is kept within [minSize, maxSize]: see {@link defaultDesiredSize}. */
    eks: { version: "1.35", instanceType: "t3.large", minSize: 3, maxSize: 12, desiredSize: 3 },
    ecr: { imageRetention: 20 },
    doks: { version: "latest", nodeSize: "s-4vcpu-8gb", nodeCount: 3 },
    docr: { adopt: false, tier: "starter" },
    lke: { nodeType: "g6-standard-8", nodeCount: 3, highAvailability: true },
    dnsRecord: { ttl: 1800 },
    clusterDrain: { removeCrds: true, retainVolumes: false, timeoutMinutes: 15 },
    volumeRetention: { retainVolumes: false },
    secrets: { demoUser: "testuser", length: 24 },
    ingressControllerImage: INGRESS_CONTROLLER_IMAGE_DEFAULTS,
    /** @deprecated Use `DEFAULTS.ingressControllerImage`, the same defaults under the component's name; read until 1.0.0. */
    kicImage: INGRESS_CONTROLLER_IMAGE_DEFAULTS,
    ingressController: INGRESS_CONTROLLER_DEFAULTS,
    certManager: CERT_MANAGER_DEFAULTS,
    logstore: LOGSTORE_DEFAULTS,
    logAgent: LOG_AGENT_DEFAULTS,
    prometheus: PROMETHEUS_DEFAULTS,
    observability: OBSERVABILITY_DEFAULTS,
    application: APPLICATION_DEFAULTS,
    platform: { protectData: false, retainVolumes: false, admissionScope: "platform" as AdmissionScope },
    metalLb: METALLB_DEFAULTS,
    nfsStorage: NFS_STORAGE_DEFAULTS,
    /** Argo CD as `mara:delivery: gitops` installs it: the root Application (its release is `ARGOCD_RELEASE`). */
    argoCd: ARGO_CD_DEFAULTS,
} as const;

/** The NGINX Ingress Controller release of the default image; the default source build checks out the same tag. */
export const KIC_VERSION = splitImageName(DEFAULTS.ingressControllerImage.imageName)[1];

/** The EKS node group's starting size when none is given: the default, kept within [minSize, maxSize]. */
export function defaultDesiredSize(minSize: number, maxSize: number): number {
    return Math.min(Math.max(DEFAULTS.eks.desiredSize, minSize), maxSize);
}

/**
 * `args` with every argument it leaves out (or sets to undefined) taken from `defaults`. Unlike an
 * object spread, an explicit `undefined` does not override the default.
 */
export function withDefaults<D extends object, A extends object>(defaults: D, args: A): A & { [K in keyof D]-?: Exclude<K extends keyof A ? A[K] : never, undefined> | D[K] } {
    const out: Record<string, unknown> = Object.fromEntries(Object.entries(defaults));
    for (const [k, v] of Object.entries(args)) if (v !== undefined) out[k] = v;
    return out as A & { [K in keyof D]-?: Exclude<K extends keyof A ? A[K] : never, undefined> | D[K] };
}
