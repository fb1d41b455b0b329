/** How `mara outdated` shows its findings: a table for people, JSON for scripts, and its exit code. */
import { EXIT } from "../kernel/io";
import type { CheckResult, PinResult } from "./check";
import { sourceUrl } from "./check";
import type { UpdateKind } from "./versions";

/** Whose pins were checked. */
export type PinOrigin = { readonly defaults: true } | { readonly defaults: false; readonly stack: string; readonly file: string };

/** Counts over the results. */
export interface Summary {
    readonly current: number;
    readonly outdated: number;
    readonly newerMajor: number;
    readonly unchecked: number;
    readonly skipped: number;
}

/** Counts the results by status. */
export function summarize(check: CheckResult): Summary {
    const count = (f: (r: PinResult) => boolean) => check.results.filter(f).length;
    return {
        current: count((r) => r.status === "current"),
        outdated: count((r) => r.status === "outdated"),
        newerMajor: count((r) => r.comparison?.newerMajor === true),
        unchecked: count((r) => r.status === "unchecked"),
        skipped: count((r) => r.status === "skipped"),
    };
}

/**
 * The exit code: a source that could not be read wins, because then the answer is incomplete; then
 * anything newer; else 0. Skipped pins (digests, `latest`, source builds) do not count.
 */
export function exitCodeOf(check: CheckResult): number {
    if (check.failures.length > 0 || check.results.some((r) => r.status === "unchecked")) return EXIT.unchecked;
    if (check.results.some((r) => r.status === "outdated")) return EXIT.outdated;
    return EXIT.ok;
}

const STATUS_WORDS: Record<Exclude<UpdateKind, "none">, string> = {
    major: "newer major",
    minor: "newer minor",
    patch: "newer patch",
    release: "released",
    prerelease: "newer pre-release",
    revision: "newer build",
};

function statusText(r: PinResult): string {
    switch (r.status) {
        case "current":
            return "current";
        case "outdated":
            return STATUS_WORDS[r.comparison!.update as Exclude<UpdateKind, "none">];
        case "unchecked":
            return "not checked (see errors)";
        case "skipped":
            return "skipped (see notes)";
    }
}

/** The table, its notes and a summary line, as text. */
export function renderTable(check: CheckResult, origin: PinOrigin): string {
    const lines: string[] = [];
    lines.push(
        origin.defaults
            ? "Pins of the program's defaults (contracts/charts.ts, contracts/defaults.ts); pass --stack or --config-file to check a stack's own pins."
            : `Pins of stack "${origin.stack}" (${origin.file}).`,
    );
    lines.push("");
    const header = ["KIND", "NAME", "PINNED", "NEWEST SAME MAJOR", "NEWEST", "STATUS"];
    const rows = check.results.map((r) => [
        r.pin.kind,
        r.pin.name,
        r.pin.pinned,
        r.comparison?.latestInMajor ?? "-",
        r.comparison?.latest ?? "-",
        statusText(r),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    for (const row of [header, ...rows]) lines.push(row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  "));

    const notes = check.results.filter((r) => r.note !== undefined && r.status !== "unchecked");
    if (notes.length > 0) {
        lines.push("");
        lines.push("Notes:");
        for (const r of notes) lines.push(`  ${r.pin.name} ${r.pin.pinned}: ${r.note}`);
    }
    const outdated = check.results.filter((r) => r.status === "outdated");
    if (outdated.length > 0) {
        lines.push("");
        lines.push("Where each newer pin is set (docs/upgrading.md has the procedure):");
        for (const r of outdated) lines.push(`  ${r.pin.name}: ${r.pin.setBy}`);
    }
    const s = summarize(check);
    lines.push("");
    lines.push(
        `${check.results.length} pins: ${s.outdated} outdated (${s.newerMajor} with a newer major), ${s.unchecked} not checked, ` +
            `${s.current} current, ${s.skipped} skipped.`,
    );
    return `${lines.join("\n")}\n`;
}

/** The sources that failed, for stderr; empty when none did. */
export function renderFailures(check: CheckResult): string {
    if (check.failures.length === 0) return "";
    const n = check.failures.length;
    const lines = [`error: ${n} source${n === 1 ? "" : "s"} could not be checked; ${n === 1 ? "its" : "their"} pins are marked "not checked":`];
    for (const f of check.failures) lines.push(`  ${f.pins.join(", ")} (${f.source}): ${f.message} [GET ${f.url}]`);
    return `${lines.join("\n")}\n`;
}

/** The JSON document `--json` prints. */
export function renderJson(check: CheckResult, origin: PinOrigin, exitCode: number): string {
    const doc = {
        pins: origin.defaults ? { from: "defaults" } : { from: "stack", stack: origin.stack, file: origin.file },
        results: check.results.map((r) => ({
            kind: r.pin.kind,
            name: r.pin.name,
            pinned: r.pin.pinned,
            usedBy: r.pin.usedBy,
            setBy: r.pin.setBy,
            source: r.pin.source.type === "none" ? null : { ...r.pin.source, url: sourceUrl(r.pin.source) },
            status: r.status,
            latest: r.comparison?.latest ?? null,
            latestInMajor: r.comparison?.latestInMajor ?? null,
            update: r.comparison?.update ?? null,
            newerMajor: r.comparison?.newerMajor ?? null,
            pinnedListed: r.comparison?.pinnedListed ?? null,
            note: r.note ?? null,
        })),
        failures: check.failures,
        summary: summarize(check),
        exitCode,
    };
    return `${JSON.stringify(doc, null, 2)}\n`;
}
