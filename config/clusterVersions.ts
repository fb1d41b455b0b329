/**
 * The Kubernetes version of a cluster the program creates must be one its cloud creates: EKS by its release
 * calendar (eksVersions.ts), LKE and DOKS by the upstream release table (kubernetesReleases.ts). A version the
 * cloud refuses, or one newer than any known release, is an error before any resource is registered, not a
 * failure twenty minutes into `pulumi up`.
 */
import { DEFAULTS } from "../contracts";
import { creatableEksVersions, EKS_CALENDAR_SOURCE, EKS_VERSIONS, eksVerdict } from "./eksVersions";
import type { InfraConfig } from "./model";
import { configSetCommand } from "./problems";
import type { Findings } from "./resolve";
import { KUBERNETES_RELEASES, minorOf, NEWEST_KUBERNETES_MINOR, suggestedMinor, upstreamVerdict } from "./kubernetesReleases";
import type { KeyOf } from "./lookup";

/** Checks the Kubernetes version of the cluster `infra` describes, on `today`. */
export function checkClusterVersion(infra: InfraConfig, keyOf: KeyOf, today: Date, findings: Findings): void {
    if (infra.type === "aws") checkEks(infra.eks.version, keyOf("eksVersion"), today, findings);
    if (infra.type === "linode") checkUpstream(infra.k8sVersion, keyOf("lkeK8sVersion"), "LKE", today, findings, "error");
    if (infra.type === "digitalocean") checkUpstream(infra.k8sVersion, keyOf("doK8sVersion"), "DOKS", today, findings, "warning");
}

const iso = (d: Date) => d.toISOString().slice(0, 10);

function checkEks(version: string, key: string, today: Date, findings: Findings): void {
    const verdict = eksVerdict(version, today);
    const creatable = creatableEksVersions(today).map((v) => v.version);
    // Never a version EKS would refuse on that day; when the calendar knows none, the program itself is out of date.
    const suggestion = creatable.includes(DEFAULTS.eks.version) ? DEFAULTS.eks.version : creatable[0];
    const allowed =
        creatable.length > 0
            ? `a version EKS creates clusters at on ${iso(today)}: ${[...creatable].reverse().join(", ")} (${EKS_CALENDAR_SOURCE})`
            : `a version EKS creates clusters at on ${iso(today)}; the calendar this program knows (${EKS_CALENDAR_SOURCE}) has none left`;
    const fix =
        suggestion === undefined
            ? `update this program, whose EKS calendar (config/eksVersions.ts) ends before ${iso(today)}; \`aws eks describe-cluster-versions\` lists what EKS creates`
            : suggestion === DEFAULTS.eks.version
              ? `${configSetCommand(key, suggestion)}, or remove ${key} to use the default ${DEFAULTS.eks.version}`
              : configSetCommand(key, suggestion);
    if (verdict.kind === "ended") {
        findings.problem({
            key,
            value: version,
            problem: `is a version EKS no longer creates clusters at: its extended support ended ${verdict.endedOn ? `on ${verdict.endedOn}` : `before ${EKS_VERSIONS.at(-1)!.endOfExtendedSupport}`}`,
            allowed,
            fix,
        });
    } else if (verdict.kind === "unknown") {
        findings.problem({
            key,
            value: version,
            problem: `is not a version in the EKS release calendar this program knows (newest: ${EKS_VERSIONS[0]!.version}); EKS would refuse a version it has not released`,
            allowed,
            fix: `${fix}; if EKS has released ${version} since, add it to config/eksVersions.ts`,
        });
    } else if (verdict.kind === "extended") {
        findings.warn(
            `${key} = ${version}: EKS keeps ${version} in extended support until ${verdict.row.endOfExtendedSupport}, billed per cluster hour on top of standard support, ` +
                `and upgrades the control plane itself after that day. Move to a version in standard support: ${configSetCommand(key, suggestion ?? version)}`,
        );
    }
}

function checkUpstream(version: string, key: string, cloud: "LKE" | "DOKS", today: Date, findings: Findings, endOfLife: "error" | "warning"): void {
    const minor = minorOf(version);
    if (minor === undefined) return;
    const supported = KUBERNETES_RELEASES.filter((r) => upstreamVerdict(r.minor, today).kind === "supported").map((r) => r.minor).reverse();
    const verdict = upstreamVerdict(minor, today);
    const list = cloud === "LKE" ? "linode-cli lke versions-list" : "doctl kubernetes options versions";
    // A version the cloud offers on that day: DOKS always takes "latest"; LKE, a release old enough to be there.
    const suggestion = cloud === "DOKS" ? "latest" : suggestedMinor(today, DEFAULTS.eks.version);
    const fixWith = (then = "") =>
        suggestion !== undefined
            ? `${configSetCommand(key, suggestion)}${then}`
            : `choose a version \`${list}\` lists; no release this program knows (config/kubernetesReleases.ts) is still supported on ${iso(today)}, so update this program${then}`;
    if (verdict.kind === "unreleased") {
        findings.problem({
            key,
            value: version,
            problem: `names Kubernetes ${minor}, newer than any release this program knows (newest: ${NEWEST_KUBERNETES_MINOR}), so ${cloud} cannot create it`,
            allowed: `a Kubernetes version ${cloud} offers (see: ${list}); upstream releases in support on ${iso(today)}: ${supported.join(", ")}`,
            fix: fixWith(`; if Kubernetes ${minor} has been released since, add it to config/kubernetesReleases.ts`),
        });
        return;
    }
    if (verdict.kind !== "endOfLife") return;
    const why = `Kubernetes ${minor} reached its upstream end of life ${verdict.on.startsWith("before") ? verdict.on : `on ${verdict.on}`}`;
    if (endOfLife === "error") {
        findings.problem({
            key,
            value: version,
            problem: `is a version ${cloud} no longer creates: ${why}, and ${cloud} removes versions shortly before that`,
            allowed: `a Kubernetes version ${cloud} offers (see: ${list}); upstream releases in support on ${iso(today)}: ${supported.join(", ")}`,
            fix: fixWith(),
        });
    } else {
        findings.warn(
            `${key} = ${version}: ${why}; ${cloud} retires such versions, and \`pulumi up\` fails if it no longer offers ${version}. ` +
                `Check with: ${list}; then ${configSetCommand(key, suggestion ?? "latest")}`,
        );
    }
}
