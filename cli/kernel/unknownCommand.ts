/**
 * A command word `mara` does not have, caught before commander parses: commander answers `mara doctor --help`
 * with the general help and exit code 0, as if `doctor` existed, and a script checking for the command is told
 * yes. Here any unknown command word, with or without --help (and `mara help doctor`), is a wrong command line.
 */
import type { Command } from "commander";

/**
 * The error line for the first command word of `argv` when the program has no such command, else undefined.
 *
 * @param program - the program with every command registered (names and aliases count).
 * @param argv - the arguments after `mara`; the root options take no values, so the first word that is not an
 *   option is the command.
 */
export function unknownCommandMessage(program: Command, argv: readonly string[]): string | undefined {
    const words = argv.filter((a) => !a.startsWith("-"));
    const asked = words[0] === "help" && words.length > 1 ? words[1]! : words[0];
    if (asked === undefined) return undefined;
    const known = program.commands.flatMap((c) => [c.name(), ...c.aliases()]);
    if (asked === "help" || known.includes(asked)) return undefined;
    // Loaded only here: a known command never needs it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { closest } = require("../../config/suggest") as typeof import("../../config/suggest");
    const near = closest(asked, known);
    const names = program.commands.map((c) => c.name()).join(", ");
    return near
        ? `mara: unknown command '${asked}'; did you mean '${near}'? (mara --help lists the commands)`
        : `mara: unknown command '${asked}'; the commands are ${names} (mara --help describes each)`;
}
