/**
 * What `mara doctor` says about a cluster: one finding per check, each with a verdict and, when it is not a
 * pass, what to do about it. The text and JSON reports and the exit code are all read from this list.
 */

/** A check's outcome: `warn` deploys but may misbehave, `fail` would make `pulumi up` fail or hang, `skip` was not run. */
export type Verdict = "pass" | "warn" | "fail" | "skip";

/** The groups of checks, in the order they run and are reported. */
export const CHECK_GROUPS = ["access", "distribution", "conflicts", "permissions", "capacity"] as const;
export type CheckGroup = (typeof CHECK_GROUPS)[number];

/** One check's result. */
export interface Finding {
    /** Stable identifier for scripts (`--json`), e.g. `credentials` or `conflict-cert-manager`. */
    readonly id: string;
    readonly group: CheckGroup;
    /** What was checked, in a few words. */
    readonly title: string;
    readonly verdict: Verdict;
    /** What was found. */
    readonly detail: string;
    /** The individual things found (each missing permission, each consumer), when there are many. */
    readonly items?: readonly string[];
    /** What to do about it; present for every `warn` and `fail`. */
    readonly fix?: string;
}

/** Counts per verdict. */
export function summarize(findings: readonly Finding[]): Record<Verdict, number> {
    const out: Record<Verdict, number> = { pass: 0, warn: 0, fail: 0, skip: 0 };
    for (const f of findings) out[f.verdict]++;
    return out;
}
