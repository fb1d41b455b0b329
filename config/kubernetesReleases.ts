/**
 * Upstream Kubernetes minor releases and their end of life (kubernetes.io/releases, "End of Life"), for the
 * clouds whose own calendars are not published as data: LKE adds a release four to eight weeks after upstream
 * and removes it "shortly before the upstream release reaches EOL" (Akamai, "LKE versioning and life cycle
 * policy"), so after that date LKE no longer creates it; DigitalOcean retires versions on its own schedule
 * around the same time (`doctl kubernetes options versions` lists what it offers). 1.37's row is the upstream
 * release schedule's (released August 2026, end of life fourteen months later, as for every release since
 * 1.19). Read on 2026-11-22.
 */
import { compareVersions } from "./lookup";

/** One upstream minor release (ISO dates). */
export interface KubernetesRelease {
    readonly minor: string;
    readonly endOfLife: string;
}

/** Upstream releases, newest first. */
export const KUBERNETES_RELEASES: readonly KubernetesRelease[] = [
    { minor: "1.37", endOfLife: "2027-10-28" },
    { minor: "1.36", endOfLife: "2027-06-28" },
    { minor: "1.35", endOfLife: "2027-02-28" },
    { minor: "1.34", endOfLife: "2026-10-27" },
    { minor: "1.33", endOfLife: "2026-06-28" },
    { minor: "1.32", endOfLife: "2026-02-28" },
    { minor: "1.31", endOfLife: "2025-10-28" },
    { minor: "1.30", endOfLife: "2025-06-28" },
    { minor: "1.29", endOfLife: "2025-02-28" },
];

/** The newest upstream minor release this program knows. */
export const NEWEST_KUBERNETES_MINOR = KUBERNETES_RELEASES[0]!.minor;

/** The minor version ("1.34") of a version or DOKS slug ("1.34.4-do.0"); undefined for "latest". */
export function minorOf(version: string): string | undefined {
    return /^(1\.\d+)/.exec(version)?.[1];
}

/** What upstream says about a minor version on a day. */
export type UpstreamVerdict = { readonly kind: "supported" } | { readonly kind: "endOfLife"; readonly on: string } | { readonly kind: "unreleased" };

/** Whether `minor` is a released upstream version still in support on `today`. */
export function upstreamVerdict(minor: string, today: Date): UpstreamVerdict {
    if (compareVersions(minor, NEWEST_KUBERNETES_MINOR) > 0) return { kind: "unreleased" };
    const row = KUBERNETES_RELEASES.find((r) => r.minor === minor);
    const oldest = KUBERNETES_RELEASES.at(-1)!;
    if (!row) return { kind: "endOfLife", on: `before ${oldest.endOfLife}` };
    return today.getTime() >= Date.parse(`${row.endOfLife}T00:00:00Z`) ? { kind: "endOfLife", on: row.endOfLife } : { kind: "supported" };
}

/** How long after its upstream release a cloud that follows upstream (LKE: four to eight weeks) is sure to offer a minor. */
const ADOPTION_MONTHS = 2;
/** Upstream supports each minor for fourteen months from its release (see the module comment). */
const SUPPORT_MONTHS = 14;

/**
 * The minor version to suggest in a fix on `today` for a cloud that follows upstream: `preferred` (the version the
 * program is tested with) while upstream supports it, else the newest release that came out at least two months ago
 * and is still supported — the newest upstream release may not be offered yet. Undefined when the table knows no such
 * release on that day: then no version is suggested, rather than one the cloud refuses.
 */
export function suggestedMinor(today: Date, preferred: string): string | undefined {
    if (upstreamVerdict(preferred, today).kind === "supported") return preferred;
    const offered = KUBERNETES_RELEASES.filter((r) => {
        const released = new Date(`${r.endOfLife}T00:00:00Z`);
        released.setUTCMonth(released.getUTCMonth() - SUPPORT_MONTHS + ADOPTION_MONTHS);
        return released.getTime() <= today.getTime() && upstreamVerdict(r.minor, today).kind === "supported";
    });
    return offered[0]?.minor;
}
