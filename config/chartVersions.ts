/**
 * Chart versions other than the ones the platform pins. The component values are written for the pinned
 * charts, and the tests render every release against those versions only (test/render), so:
 *
 * - An older version is an error. Charts add the values the platform sets over time, and an older chart
 *   silently ignores or refuses them: cert-manager before v1.15 has no `crds.enabled`, so its CRDs would not be
 *   installed and every ClusterIssuer would fail; kube-prometheus-stack and the exporters renamed values
 *   across their majors. MARA's own 2022 pins are the exception, read as the pinned versions (legacyPins.ts).
 * - A newer version is allowed with a warning: charts keep their values within a release line, and
 *   docs/upgrading.md describes how to vendor and test it (the render tier) before relying on it.
 * - The nginx-ingress chart is the exception: each version renders controller flags, and an image that does
 *   not define them crash-loops, so only versions whose flags are recorded (components/ingressController/defaults.ts) are accepted.
 */
import { CHART_IDS, CHARTS, CRD_CHARTS, type ChartId } from "../contracts";
import { KIC_CHARTS } from "../components/ingressController/settings";
import { compareVersions, GetResolved } from "./lookup";
import type { Findings } from "./resolve";

/**
 * Checks every chart version the stack sets and reads: a version key this stack does not read (`unread`: another
 * infrastructure type's add-on, another delivery's) is named once as doing nothing, never also refused.
 */
export function checkChartVersions(r: GetResolved, findings: Findings, unread: (id: `${ChartId}ChartVersion`) => boolean = () => false): void {
    for (const id of CHART_IDS) {
        const configured = r(`${id}ChartVersion`);
        if (!configured.source || configured.value === undefined || unread(`${id}ChartVersion`)) continue;
        const key = configured.source;
        const version = configured.value;
        const tested = CHARTS[id].version;
        const chart = CHARTS[id].chart;
        if (version === tested) continue;
        // A version refused here is not installed, so nothing is said about what installing it would do.
        let refused = true;
        if (id === "ingress" && !KIC_CHARTS[version]) {
            findings.problem({
                key,
                value: version,
                problem: `is an nginx-ingress chart version whose controller flags this program has not recorded, so no controller image can be checked against it (a controller lacking one of its flags crash-loops)`,
                allowed: `a recorded version: ${Object.keys(KIC_CHARTS).join(", ")} (components/ingressController/defaults.ts; docs/upgrading.md adds one)`,
                fix: `pulumi config rm ${key} (to install ${tested})`,
            });
        } else if (compareVersions(version, tested) < 0) {
            findings.problem({
                key,
                value: version,
                problem: `is older than the ${chart} chart ${tested} the platform's values are written and tested for; older charts lack values it sets, so \`pulumi up\` would fail or install something other than what validation checked`,
                allowed: `${tested}, or a newer release of the chart`,
                fix: `pulumi config rm ${key} (to install ${tested})`,
            });
        } else {
            refused = false;
        }
        if (!refused && compareVersions(version, tested) > 0) {
            findings.warn(
                `${key} = ${version} pins a newer ${chart} chart than the ${tested} the platform's values are written and tested for; ` +
                    `the tests have not rendered it. Vendor and render it first (docs/upgrading.md), or remove the key to use ${tested}.`,
            );
        }
        if (!refused && CRD_CHARTS.includes(id)) {
            // The package ships the crds/ CRDs of the pinned version only (docs/upgrading.md, "CRDs").
            findings.warn(
                `${key} = ${version}: the program applies and upgrades the CRDs of ${chart}'s crds/ directory ` +
                    `for ${tested} only, so for ${version} Helm installs them once and never upgrades them. Remove the key to use ${tested}.`,
            );
        }
    }
}
