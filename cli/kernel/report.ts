/** How validation results are shown by `validate`, `plan`, `init` and the Pulumi operations. */
// The modules rather than config/'s index, which loads the Pulumi SDK (loadConfig, ConfigError) that `mara validate` does without.
import type { MaraConfig } from "../../config/model";
import { ConfigProblem, formatProblem } from "../../config/problems";
import type { RawConfig } from "../../config/resolve";
import { validateConfig } from "../../config/validate";
import { ConfigTarget, targetCommands } from "../stack/configTarget";
import { CliIo, line } from "./io";

/**
 * Prints warnings, one per line, to stderr.
 *
 * @param target - the stack their `pulumi config` commands must change (cli/stack/configTarget.ts); they are printed as
 *   written when there is none.
 */
export function printWarnings(io: CliIo, warnings: readonly string[], target?: ConfigTarget): void {
    for (const w of warnings) line(io.stderr, `warning: ${targetCommands(w, target)}`);
}

/**
 * Prints every problem, numbered, to stderr. All of them, not the first: fixing one at a time and
 * re-running is what MARA's users complained about.
 *
 * @param where - what holds them, as the end of "N configuration problems in …": a file path, `stack "dev"`,
 *   "these answers".
 * @param target - the stack their fixes must change (cli/stack/configTarget.ts); the fixes are printed as written when there is none.
 */
export function printProblems(io: CliIo, problems: readonly ConfigProblem[], where: string, target?: ConfigTarget): void {
    const n = problems.length;
    line(io.stderr, `error: ${n} configuration problem${n === 1 ? "" : "s"} in ${where}:`);
    problems.forEach((p, i) => line(io.stderr, `  ${i + 1}. ${formatProblem({ ...p, fix: targetCommands(p.fix, target) })}`));
}

/**
 * Validates a stack's configuration and reports the result: warnings always, every problem when it
 * is invalid. The first step of every command that runs the program.
 *
 * @param where how the problems name the stack, e.g. its file path.
 * @param target the stack the printed fixes must change.
 * @returns the configuration, or undefined when it is invalid (already reported).
 */
export function checkConfig(io: CliIo, raw: RawConfig, where: string, target?: ConfigTarget): { config: MaraConfig; warnings: readonly string[] } | undefined {
    const result = validateConfig(raw);
    printWarnings(io, result.warnings, target);
    if (result.config) return { config: result.config, warnings: result.warnings };
    printProblems(io, result.problems, where, target);
    return undefined;
}
