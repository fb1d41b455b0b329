/**
 * How a pinned version is compared with what its repository offers. Chart versions are SemVer (Helm
 * refuses anything else); image tags are looser: `5.5.4-ubi`, `9.5.0-amd64`, `16.4.0-debian-12-r3`,
 * `latest`, `sha-1a2b3c4`. A tag is compared only with tags of its own family — the same `v` prefix,
 * the same number of version components and the same suffix with its numbers blanked — so
 * `5.5.4` is never "outdated" by `5.6.0-alpine`, nor by the floating `5` or `5.6`, and `16.4.0-debian-12-r3`
 * is followed by `16.4.0-debian-12-r4`. Pre-releases count only when the pin is one.
 */
import { compare as compareSemver, SemVer } from "semver";

/** Charts follow SemVer strictly; image tags use the family rules above. */
export type VersionKind = "chart" | "image";

/** A version or tag that could be read as one. */
export interface ParsedVersion {
    /** As written in the repository. */
    readonly raw: string;
    /** Tags are compared only within one family (see the module comment). */
    readonly family: string;
    /** The version's precedence, pre-release included; build metadata and variant suffixes excluded. */
    readonly semver: SemVer;
    /** Whether it is a pre-release (`-rc.1`, `-beta`, and for charts any `-` suffix). */
    readonly prerelease: boolean;
    /** Numbers inside a variant suffix (`-debian-12-r3` → 12, 3), compared after the version. */
    readonly variantNumbers: readonly number[];
}

/** What an image tag's pre-release part starts with; any other suffix is a variant such as `-alpine`. */
const PRERELEASE_WORD = /^-((?:alpha|beta|rc|pre|preview|dev|snapshot|nightly|canary|next)(?:[.-]?\d+)*)(.*)$/i;
const CORE = /^(v|V)?(\d+)(?:\.(\d+))?(?:\.(\d+))?(.*)$/;

/**
 * Reads a chart version or an image tag.
 *
 * @param raw - the version or tag, e.g. `v1.21.1`, `5.5.4-ubi`.
 * @param kind - `chart` (SemVer, any `-suffix` is a pre-release) or `image` (family rules).
 * @returns undefined when it is not a version (`latest`, `sha-…`, a digest, a date-less word).
 */
export function parseVersion(raw: string, kind: VersionKind): ParsedVersion | undefined {
    const withoutBuild = raw.split("+")[0]!;
    const m = CORE.exec(withoutBuild);
    if (!m) return undefined;
    const [, v, major, minor, patch, rest = ""] = m;
    const components = patch !== undefined ? 3 : minor !== undefined ? 2 : 1;
    let prerelease = "";
    let variant = "";
    if (kind === "chart") {
        if (rest !== "" && !/^-./.test(rest)) return undefined;
        prerelease = rest.slice(1);
    } else {
        const pre = PRERELEASE_WORD.exec(rest);
        if (pre) [, prerelease = "", variant = ""] = pre;
        else variant = rest;
        // `1.2.3abc` or `1.2.3.4` is no version we can order.
        if (variant !== "" && !/^[-_][\w.-]*$/.test(variant)) return undefined;
    }
    const core = `${Number(major)}.${Number(minor ?? 0)}.${Number(patch ?? 0)}`;
    let semver: SemVer;
    try {
        semver = new SemVer(prerelease ? `${core}-${prerelease}` : core);
    } catch {
        return undefined;
    }
    return {
        raw,
        family: `${v ? "v" : ""}${components}${variant.replace(/\d+/g, "#")}`,
        semver,
        prerelease: prerelease !== "",
        variantNumbers: (variant.match(/\d+/g) ?? []).map(Number),
    };
}

/** Orders two versions of one family: by SemVer precedence, then by the numbers in the variant suffix. */
export function compareVersions(a: ParsedVersion, b: ParsedVersion): number {
    const bySemver = compareSemver(a.semver, b.semver);
    if (bySemver !== 0) return bySemver;
    const n = Math.max(a.variantNumbers.length, b.variantNumbers.length);
    for (let i = 0; i < n; i++) {
        const d = (a.variantNumbers[i] ?? 0) - (b.variantNumbers[i] ?? 0);
        if (d !== 0) return Math.sign(d);
    }
    return 0;
}

/**
 * How far the newest version is from the pin: the largest of major, minor and patch that grew; for a
 * pre-release pin with the same numbers, `release` (it was released) or `prerelease` (a later one);
 * `revision` for a later variant build of the same version; `none` when nothing is newer.
 */
export type UpdateKind = "major" | "minor" | "patch" | "release" | "prerelease" | "revision" | "none";

/** The pin compared with the versions its repository lists. */
export interface VersionComparison {
    /** The newest version of the pin's family (stable unless the pin is a pre-release); undefined when there is none. */
    readonly latest?: string;
    /** The newest version with the pin's major version. */
    readonly latestInMajor?: string;
    /** The size of the step from the pin to `latest`. */
    readonly update: UpdateKind;
    /** Whether `latest` has a higher major version than the pin. */
    readonly newerMajor: boolean;
    /** Whether the repository lists the pinned version itself (false: removed, a typo, or a mirror behind). */
    readonly pinnedListed: boolean;
}

/**
 * Compares a pin with the versions its repository lists.
 *
 * @param pinned - the pinned chart version or image tag.
 * @param available - every version or tag the repository lists.
 * @param kind - see {@link parseVersion}.
 * @returns undefined when the pin itself is not a version (e.g. `latest` or a digest).
 */
export function compareWithAvailable(pinned: string, available: readonly string[], kind: VersionKind): VersionComparison | undefined {
    const pin = parseVersion(pinned, kind);
    if (!pin) return undefined;
    const candidates = available
        .map((a) => parseVersion(a, kind))
        .filter((a): a is ParsedVersion => a !== undefined && a.family === pin.family && (pin.prerelease || !a.prerelease));
    const newest = (list: ParsedVersion[]) => list.reduce<ParsedVersion | undefined>((best, a) => (!best || compareVersions(a, best) > 0 ? a : best), undefined);
    const latest = newest(candidates);
    const latestInMajor = newest(candidates.filter((a) => a.semver.major === pin.semver.major));
    const ahead = latest !== undefined && compareVersions(latest, pin) > 0;
    return {
        latest: latest?.raw,
        latestInMajor: latestInMajor?.raw,
        update: ahead ? updateKind(pin, latest) : "none",
        newerMajor: ahead && latest.semver.major > pin.semver.major,
        pinnedListed: available.includes(pinned),
    };
}

/** The largest component that grew; `to` is newer than `from`. */
function updateKind(from: ParsedVersion, to: ParsedVersion): UpdateKind {
    const [a, b] = [from.semver, to.semver];
    if (b.major !== a.major) return "major";
    if (b.minor !== a.minor) return "minor";
    if (b.patch !== a.patch) return "patch";
    // The same major.minor.patch: the pinned pre-release's release, a later pre-release, or a later
    // variant build (`-r3` → `-r4`).
    if (compareSemver(a, b) === 0) return "revision";
    return b.prerelease.length === 0 ? "release" : "prerelease";
}
