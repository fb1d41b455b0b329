/**
 * The CustomResourceDefinitions that charts ship in their `crds/` directories, applied as Pulumi resources so
 * that they are upgraded with the chart. Helm installs a chart's `crds/` directory on the first install and
 * never again: after a chart bump the new fields and versions of its custom resources would be missing, and
 * objects using them rejected or silently pruned.
 *
 * The CRDs come from data shipped in the package (`components/crds/<chart>-<version>.json`), extracted from the
 * vendored chart archive by `npm run gen` (tools/chartCrds.ts), because the program may not render charts on the
 * provider side (a first preview of a new stack has no cluster to render against). A test fails when the data
 * and the vendored archive of the pinned version disagree. Each CRD is a `CustomResourceDefinitionPatch`: a
 * server-side apply that creates the CRD or takes over an existing one (one Helm installed earlier, or another
 * installation of the same operator), forcing field conflicts as kube-prometheus-stack's own CRD upgrade job
 * does. They are never deleted (`retainOnDelete`): deleting a CRD deletes every object of its kind in the
 * cluster, other teams' included. On a cluster the stack created they go with the cluster.
 */
import * as fs from "fs";
import * as path from "path";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { ChartCrdData, ChartSettings, crdDataFile, CrdManifest } from "../contracts";

/** Where the CRD data files live (copied next to the compiled module by the build). */
export const CRD_DATA_DIR = path.join(__dirname, "crds");

const loaded = new Map<string, ChartCrdData | undefined>();

/**
 * The CRDs the package ships for a chart version, or undefined when it ships none for that version (a chart
 * without a `crds/` directory, or a version other than the program's pin).
 */
export function shippedCrds(chart: Pick<ChartSettings, "chart" | "version">): readonly CrdManifest[] | undefined {
    const file = crdDataFile(chart.chart, chart.version);
    if (!loaded.has(file)) {
        const p = path.join(CRD_DATA_DIR, file);
        loaded.set(file, fs.existsSync(p) ? (JSON.parse(fs.readFileSync(p, "utf8")) as ChartCrdData) : undefined);
    }
    return loaded.get(file)?.crds;
}

/** Annotation that makes a server-side apply take over fields another manager (Helm) set. */
const PATCH_FORCE = { "pulumi.com/patchForce": "true" } as const;

/** What {@link chartCrdResources} decided. */
export interface AppliedCrds {
    /** The CRD resources; the release (and whatever uses the CRDs) must depend on them. */
    readonly resources: pulumi.Resource[];
    /** Whether Helm must skip the chart's `crds/` directory (true when the CRDs are applied here). */
    readonly skipCrds: boolean;
}

/**
 * Applies the CRDs of `chart`'s `crds/` directory: `crds` when given, else the ones the package ships for that
 * version. With none (another chart version than the package ships, or `apply` false), Helm installs them once
 * and a warning says they will not be upgraded. Resources are named `<name>-crd-<CRD name>`, independent of
 * the chart version, so a bump updates them in place.
 */
export function chartCrdResources(
    name: string,
    chart: ChartSettings,
    a: { apply?: boolean; crds?: readonly CrdManifest[]; component: string },
    opts: pulumi.CustomResourceOptions,
): AppliedCrds {
    if (a.apply === false) return { resources: [], skipCrds: false };
    const crds = a.crds ?? shippedCrds(chart);
    if (!crds) {
        void pulumi.log.warn(
            `${a.component}: no CRDs are shipped for chart ${chart.chart} ${chart.version}, so Helm installs the chart's crds/ directory ` +
                `once and never upgrades it. Pin a version the package ships CRDs for, or vendor the chart and run \`npm run gen\` (docs/upgrading.md).`,
        );
        return { resources: [], skipCrds: false };
    }
    const resources = crds.map(
        (crd) =>
            new k8s.apiextensions.v1.CustomResourceDefinitionPatch(
                `${name}-crd-${crd.metadata.name}`,
                {
                    apiVersion: crd.apiVersion,
                    kind: crd.kind,
                    metadata: { ...crd.metadata, annotations: { ...crd.metadata.annotations, ...PATCH_FORCE } },
                    spec: crd.spec,
                },
                { ...opts, retainOnDelete: true },
            ),
    );
    return { resources, skipCrds: true };
}
