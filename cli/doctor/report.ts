/** How `mara doctor`'s findings are shown: a list grouped by check, or one JSON document for scripts. */
import { EXIT } from "../kernel/io";
import { CHECK_GROUPS, Finding, summarize, Verdict } from "./findings";
import type { DoctorResult } from "./run";

/** Lines of a finding's items shown in text; the JSON has all of them. */
const ITEMS_SHOWN = 12;

const MARK: Record<Verdict, string> = { pass: "✓", warn: "!", fail: "✗", skip: "-" };
const GROUP_TITLES: Record<Finding["group"], string> = {
    access: "Access",
    distribution: "Distribution",
    conflicts: "Conflicts",
    permissions: "Permissions",
    capacity: "Capacity",
};

/**
 * The exit code for a result: 7 when the cluster could not be reached or refused the credentials, 6 when any check
 * failed, 0 otherwise (warnings included).
 */
export function doctorExitCode(result: DoctorResult): number {
    if (!result.reachable) return EXIT.unreachable;
    return result.findings.some((f) => f.verdict === "fail") ? EXIT.doctorFailed : EXIT.ok;
}

/** The findings as text lines. */
export function textReport(result: DoctorResult): string[] {
    const lines = [`Cluster ${result.server} (context "${result.context}")${result.distribution ? `: ${result.distribution}` : ""}${result.version ? `, Kubernetes ${result.version}` : ""}`];
    for (const group of CHECK_GROUPS) {
        const of = result.findings.filter((f) => f.group === group);
        if (!of.length) continue;
        lines.push("", `${GROUP_TITLES[group]}:`);
        for (const f of of) {
            lines.push(`  ${MARK[f.verdict]} ${f.title}: ${f.detail}`);
            const items = f.items ?? [];
            for (const item of items.slice(0, ITEMS_SHOWN)) lines.push(`      - ${item}`);
            if (items.length > ITEMS_SHOWN) lines.push(`      - and ${items.length - ITEMS_SHOWN} more (--json lists all)`);
            if (f.fix && (f.verdict === "fail" || f.verdict === "warn")) lines.push(`      fix: ${f.fix}`);
        }
    }
    const s = summarize(result.findings);
    lines.push("", `${s.pass} passed, ${s.warn} warning${s.warn === 1 ? "" : "s"}, ${s.fail} failed${s.skip ? `, ${s.skip} not checked` : ""} (${result.seconds.toFixed(1)} s)`);
    return lines;
}

/** The result as one JSON document. */
export function jsonReport(result: DoctorResult): Record<string, unknown> {
    return {
        cluster: { server: result.server, context: result.context, reachable: result.reachable, distribution: result.distribution ?? null, version: result.version ?? null },
        findings: result.findings,
        summary: summarize(result.findings),
        exitCode: doctorExitCode(result),
        seconds: Number(result.seconds.toFixed(2)),
    };
}
