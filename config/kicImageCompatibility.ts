/**
 * The ingress controller image must run with the pinned nginx-ingress chart: the chart renders command-line
 * flags, and a controller older than one of them exits with "flag provided but not defined" until the Helm
 * release times out (the range is data, in kicCompatibility.ts). Checked for the image pulled from a registry
 * (its tag) and for a source build (the release its source names: a git tag, a tarball's name, `#<version>`).
 */
import { KIC_CHARTS, kicImageProblem, supportedImageRange } from "./kicCompatibility";
import { classifyKicSource, splitImageName } from "../contracts";
import { KEYS } from "./keys";
import type { Lookup } from "./lookup";
import type { MaraConfig } from "./model";
import { configSetCommand } from "./problems";
import type { Findings } from "./resolve";

/** Checks the controller image (or source release) against the ingress chart version. */
export function checkKicImage(kic: MaraConfig["kic"], chartVersion: string, { r, keyOf }: Lookup, findings: Findings): void {
    // A chart version without recorded facts is reported by the chart-version check.
    const facts = KIC_CHARTS[chartVersion];
    if (!facts) return;
    const range = supportedImageRange(chartVersion)!;
    const allowed = `controller ${range.oldest} to ${range.newest} for nginx-ingress chart ${chartVersion}, such as ${facts.appVersion}`;
    if (kic.imageOrigin === "source") {
        const key = keyOf("kicSrcUrl");
        const release = releaseAdvice(kic.sourceUrl, facts.appVersion);
        // The release the source names (a git tag, a tarball's name, a directory's #<version>; kicSettings.ts).
        if (kic.version === undefined) {
            findings.warn(`${key} = ${kic.sourceUrl} names no release, so the controller built from it cannot be checked against nginx-ingress chart ${chartVersion} (controller ${range.oldest} to ${range.newest}); ${release.name}.`);
            return;
        }
        const why = kicImageProblem(chartVersion, kic.version);
        if (why) findings.problem({ key, value: kic.sourceUrl, problem: `builds a controller that does not run with the chart: ${why}`, allowed, fix: `build the v${facts.appVersion} release: ${release.set(key)}` });
        return;
    }
    const [repository, tag] = splitImageName(kic.imageName);
    if (tag.startsWith("sha256:")) {
        findings.warn(`The ingress controller image ${kic.imageName} is pinned by digest, so its version cannot be checked against nginx-ingress chart ${chartVersion}; make sure it is controller ${range.oldest} to ${range.newest}.`);
        return;
    }
    const why = kicImageProblem(chartVersion, tag);
    if (!why) return;
    // Name the key that chose the image: the image name, or MARA's repository and tag keys it was composed from.
    const key = r("kicImageName").source ?? r("kicImageTag").source ?? r("kicImageRepository").source ?? keyOf("kicImageName");
    const tagKey = key === r("kicImageTag").source;
    findings.problem({
        key,
        value: tagKey ? tag : kic.imageName,
        problem: `is not an image the chart runs: ${why}`,
        allowed,
        fix: tagKey ? configSetCommand(key, facts.appVersion) : configSetCommand(key, `${repository}:${facts.appVersion}`),
    });
}

/** The official repository, whose tags are the controller's releases. */
const KIC_GIT = "https://github.com/nginx/kubernetes-ingress.git";

/**
 * How to name release `version` in source location `location`, in a form classifyKicSource accepts: a git URL or a
 * directory takes `#v<version>` (a git URL keeps its `:<subdir>`), while a tarball has no refs (a `#fragment` on it
 * is refused), so its release is named by the file or the build moves to the git repository at that tag.
 */
export function releaseAdvice(location: string, version: string): { value: string; name: string; set: (key: string) => string } {
    const classified = classifyKicSource(location);
    if ("source" in classified && classified.source.kind === "tarball") {
        const git = `${KIC_GIT}#v${version}`;
        return {
            value: git,
            name: `a tarball has no #ref, so name the release in its file name (…-v${version}.tar.gz), or build from git: ${configSetCommand(KEYS.kicSrcUrl.key, git)}`,
            set: (key) => `${configSetCommand(key, git)} (a tarball names its release in its file name only)`,
        };
    }
    const [address, fragment = ""] = location.trim().split(/#(.*)/s);
    const subdir = fragment.includes(":") ? fragment.slice(fragment.indexOf(":")) : "";
    const named = `${address}#v${version}${subdir}`;
    return { value: named, name: `name the release, e.g. ${named}`, set: (key) => configSetCommand(key, named) };
}
