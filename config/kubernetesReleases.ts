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
