/**
 * The prompt layer. Commands ask through the small {@link Prompter} interface, never through
 * @inquirer/prompts directly, so tests can inject answers instead of driving a terminal.
 */
import type * as Inquirer from "@inquirer/prompts";
import { isatty } from "tty";

/** @inquirer/prompts, loaded when a prompt is shown: `mara --help` and the commands that ask nothing never load it. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const inquirer = (): typeof Inquirer => require("@inquirer/prompts");

/** One choice of a {@link Prompter.select} question. */
export interface Choice<T extends string> {
    readonly value: T;
    /** Label shown instead of the value. */
    readonly name?: string;
    /** Shown under the list while the choice is highlighted. */
    readonly description?: string;
}

/** Checks an answer: `true` accepts it, a string is the reason to ask again. */
export type Validate = (answer: string) => true | string;

/** Questions the commands ask. */
export interface Prompter {
    /** Whether a person can answer; commands that would need to ask fail with advice when false. */
    readonly interactive: boolean;
    /** Picks one of a list. */
    select<T extends string>(q: { message: string; choices: readonly Choice<T>[]; default?: T }): Promise<T>;
    /** Free text, asked again until `validate` accepts it. */
    input(q: { message: string; default?: string; validate?: Validate }): Promise<string>;
    /** Hidden text (secrets, passphrases), asked again until `validate` accepts it. */
    password(q: { message: string; validate?: Validate }): Promise<string>;
    /** Yes or no. */
    confirm(q: { message: string; default?: boolean }): Promise<boolean>;
}

/**
 * The real prompts, on the terminal. `interactive` is false when stdin is not a terminal (CI, pipes),
 * where a prompt would wait for input nobody will type. Asked of file descriptor 0 rather than of
 * process.stdin, which Node.js would build for the question (for a file, with its file stream machinery).
 */
export function terminalPrompter(interactive = isatty(0)): Prompter {
    return {
        interactive,
        select: (q) => inquirer().select({ message: q.message, choices: q.choices.map((c) => ({ ...c })), default: q.default }),
        input: (q) => inquirer().input({ message: q.message, default: q.default, validate: q.validate }),
        // mask: hidden input that still shows that typing registers.
        password: (q) => inquirer().password({ message: q.message, mask: "*", validate: q.validate }),
        confirm: (q) => inquirer().confirm({ message: q.message, default: q.default }),
    };
}

/**
 * A prompter for `--non-interactive` runs and pipes: it reports that nobody can answer, and asking
 * anyway is a bug in the command, so it fails loudly.
 */
export function nonInteractive(): Prompter {
    const refuse = (): never => {
        throw new Error("a prompt was shown in non-interactive mode");
    };
    return { interactive: false, select: refuse, input: refuse, password: refuse, confirm: refuse };
}
