/** How validation results are shown by `validate`, `plan`, `init` and the Pulumi operations. */
import { ConfigProblem, formatProblem } from "../config";
import { CliIo, line } from "./io";

/** Prints warnings, one per line, to stderr. */
export function printWarnings(io: CliIo, warnings: readonly string[]): void {
    for (const w of warnings) line(io.stderr, `warning: ${w}`);
}

/**
 * Prints every problem, numbered, to stderr. All of them, not the first: fixing one at a time and
 * re-running is what MARA's users complained about.
 */
export function printProblems(io: CliIo, problems: readonly ConfigProblem[], where: string): void {
    const n = problems.length;
    line(io.stderr, `error: ${where} has ${n} configuration problem${n === 1 ? "" : "s"}:`);
    problems.forEach((p, i) => line(io.stderr, `  ${i + 1}. ${formatProblem(p)}`));
}
