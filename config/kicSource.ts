/**
 * The checkout a source build of the ingress controller runs from. `mara:kicSrcUrl` (MARA's `kic:src_url`) is a
 * local path or a `file://` URL, optionally with the release as a fragment (`file:///src/kic#v5.5.4`): the
 * directory is the part before `#`, `~` is the home directory, and a relative path is relative to the project
 * directory, where Pulumi runs the program. The directory must exist when validation runs, as it must when
 * Docker builds from it.
 */
import { inspectLocalPath, parseSourceLocation, resolveLocalPath } from "./localPaths";
import type { KeyOf } from "./lookup";
import type { MaraConfig } from "./model";
import type { Findings, RawConfig } from "./resolve";

/** The build context directory and the release a source URL names. */
export function kicSource(sourceUrl: string, baseDir: string, env: Readonly<Record<string, string | undefined>>): { dir: string; version?: string } {
    const loc = parseSourceLocation(sourceUrl);
    return { dir: resolveLocalPath(loc.location, baseDir, env), version: loc.ref?.replace(/^v(?=\d)/, "") };
}

/** For a source build from a local checkout: the directory must be there. */
export function checkKicSource(kic: MaraConfig["kic"], raw: RawConfig, keyOf: KeyOf, findings: Findings): void {
    if (kic.imageOrigin !== "source" || !parseSourceLocation(kic.sourceUrl).local) return;
    const { dir } = kicSource(kic.sourceUrl, raw.baseDir ?? process.cwd(), raw.env);
    const found = (raw.inspectPath ?? inspectLocalPath)(dir);
    if (found.kind === "directory") return;
    const what = found.kind === "missing" ? "does not exist" : found.kind === "file" ? "is a file, not a checkout directory" : `cannot be read (${found.reason})`;
    findings.problem({
        key: keyOf("kicSrcUrl"),
        value: kic.sourceUrl,
        problem: `names ${dir}, which ${what}`,
        allowed: "a local checkout of nginx/kubernetes-ingress: a path (~ and paths relative to the project directory work) or a file:// URL, optionally with #v<version>",
        fix: `git clone https://github.com/nginx/kubernetes-ingress.git ${dir}, or point ${keyOf("kicSrcUrl")} at your checkout`,
    });
}
