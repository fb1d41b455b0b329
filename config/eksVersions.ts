/**
 * Which Kubernetes versions EKS creates clusters at, on a given day. EKS creates a cluster at any version in
 * standard support (14 months from its EKS release) or extended support (the 12 months after); "on the end of
 * extended support date, you can no longer create new Amazon EKS clusters with the unsupported version". No
 * library ships this calendar offline (`aws eks describe-cluster-versions` needs credentials and a network),
 * so it is a table, with its sources:
 *
 * - 1.29 to 1.34: the "Amazon EKS Kubernetes release calendar" of the Amazon EKS User Guide
 *   (awsdocs/amazon-eks-user-guide, latest/ug/versioning/kubernetes-versions.adoc; dates UTC).
 * - 1.35: released on EKS on 2026-01-27 with standard support to 2027-03-27 and extended support to
 *   2028-03-27 (endoflife.date/amazon-eks; AWS's own review checklist, verified 2026-04-24).
 *
 * Read on 2026-11-22; EKS had released no later version in those sources. When EKS releases one, add its row:
 * until then the validator refuses it as unknown, which is what "newer than any known release" must do.
 */
import { compareVersions } from "./lookup";

/** One EKS Kubernetes version and its support dates (ISO dates, UTC). */
export interface EksVersion {
    readonly version: string;
    /** The day EKS released it. */
    readonly released: string;
    /** The day standard support ends and extended support (billed per cluster hour) begins. */
    readonly endOfStandardSupport: string;
    /** The day EKS stops creating clusters at this version and upgrades existing ones. */
    readonly endOfExtendedSupport: string;
}

/** The calendar, newest first. */
export const EKS_VERSIONS: readonly EksVersion[] = [
    { version: "1.35", released: "2026-01-27", endOfStandardSupport: "2027-03-27", endOfExtendedSupport: "2028-03-27" },
    { version: "1.34", released: "2025-10-02", endOfStandardSupport: "2026-12-02", endOfExtendedSupport: "2027-12-02" },
    { version: "1.33", released: "2025-05-29", endOfStandardSupport: "2026-07-29", endOfExtendedSupport: "2027-07-29" },
    { version: "1.32", released: "2025-01-23", endOfStandardSupport: "2026-03-23", endOfExtendedSupport: "2027-03-23" },
    { version: "1.31", released: "2024-09-26", endOfStandardSupport: "2025-11-26", endOfExtendedSupport: "2026-11-26" },
    { version: "1.30", released: "2024-05-23", endOfStandardSupport: "2025-07-23", endOfExtendedSupport: "2026-07-23" },
    { version: "1.29", released: "2024-01-23", endOfStandardSupport: "2025-03-23", endOfExtendedSupport: "2026-03-23" },
];

/** Where the calendar comes from, for messages. */
export const EKS_CALENDAR_SOURCE = "the Amazon EKS Kubernetes release calendar (docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html), as of 2026-11-22";

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

/** The versions EKS creates clusters at on `today`, newest first. */
export function creatableEksVersions(today: Date): EksVersion[] {
    return EKS_VERSIONS.filter((v) => day(v.released) <= today.getTime() && today.getTime() < day(v.endOfExtendedSupport));
}

/** What EKS does with a version on a day. */
export type EksVerdict =
    | { readonly kind: "standard"; readonly row: EksVersion }
    | { readonly kind: "extended"; readonly row: EksVersion }
    | { readonly kind: "ended"; readonly endedOn?: string }
    | { readonly kind: "unknown" };

/** Whether EKS creates a cluster at `version` (a minor version, "1.35") on `today`, and why not. */
export function eksVerdict(version: string, today: Date): EksVerdict {
    const row = EKS_VERSIONS.find((v) => v.version === version);
    const oldest = EKS_VERSIONS.at(-1)!;
    if (!row) {
        // Older than the calendar: its extended support ended before the oldest row's did.
        return compareVersions(version, oldest.version) < 0 ? { kind: "ended" } : { kind: "unknown" };
    }
    const t = today.getTime();
    if (t < day(row.released)) return { kind: "unknown" };
    if (t >= day(row.endOfExtendedSupport)) return { kind: "ended", endedOn: row.endOfExtendedSupport };
    return t >= day(row.endOfStandardSupport) ? { kind: "extended", row } : { kind: "standard", row };
}
