/**
 * The CustomResourceDefinitions charts ship in their `crds/` directories, as data: the shape of the data files
 * under components/crds/ (written by `npm run gen` from the vendored chart archives, applied by the components)
 * and which charts have them. Shared by the components that apply them and the tool that writes them.
 */
import type { ChartId } from "./charts";

/** A CustomResourceDefinition as a chart ships it (without status). */
export interface CrdManifest {
    /** Always `apiextensions.k8s.io/v1`: the only CRD API Kubernetes still serves. */
    readonly apiVersion: "apiextensions.k8s.io/v1";
    /** Always `CustomResourceDefinition`. */
    readonly kind: "CustomResourceDefinition";
    /** The CRD's name (`<plural>.<group>`) and the chart's labels and annotations (the operator reads its version from them). */
    readonly metadata: { readonly name: string; readonly annotations?: Readonly<Record<string, string>>; readonly labels?: Readonly<Record<string, string>> };
    /** The CRD's spec as the chart ships it: group, names, scope and every version with its schema. */
    readonly spec: Readonly<Record<string, unknown>>;
}

/** The CRDs of one chart version, and the archive they were read from. */
export interface ChartCrdData {
    /** Chart name. */
    readonly chart: string;
    /** Chart version. */
    readonly version: string;
    /** The archive the CRDs were extracted from, and its SHA-256 digest. */
    readonly source: { readonly archive: string; readonly sha256: string };
    /** The CRDs, sorted by name. */
    readonly crds: readonly CrdManifest[];
}

/**
 * The charts whose `crds/` directories the program applies itself (Helm installs those once and never
 * upgrades them). cert-manager, the ECK operator and the OpenTelemetry operator render their CRDs from
 * templates, so Helm upgrades those with the release.
 */
export const CRD_CHARTS: readonly ChartId[] = ["prometheus", "ingress", "pulumiOperator"];

/** File name of the CRD data of a chart version. */
export const crdDataFile = (chart: string, version: string): string => `${chart}-${version}.json`;
