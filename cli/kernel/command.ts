/** What every command module shares: the context it runs in and how its result becomes an exit code. */
import { CliError, CliIo, EXIT, line } from "./io";

/** Handed to each command module's `register`. */
export interface CommandContext {
    readonly io: CliIo;
    /** Records the exit code of the command that ran. */
    setExit(code: number): void;
}

/**
 * Wraps a command's body: its returned number is the exit code; a {@link CliError} prints its message
 * and sets its code; an interrupted prompt (Ctrl+C) is a quiet cancel; anything else is a bug and
 * prints its stack.
 */
export function action<A extends unknown[]>(ctx: CommandContext, body: (...args: A) => Promise<number>): (...args: A) => Promise<void> {
    return async (...args: A) => {
        try {
            ctx.setExit(await body(...args));
        } catch (err) {
            if (isCliError(err)) {
                line(ctx.io.stderr, `mara: ${err.message}`);
                ctx.setExit(err.exitCode);
            } else if ((err as Error)?.name === "ExitPromptError") {
                line(ctx.io.stderr, "mara: cancelled; nothing was changed");
                ctx.setExit(EXIT.failed);
            } else {
                line(ctx.io.stderr, `mara: unexpected error: ${(err as Error)?.stack ?? String(err)}`);
                ctx.setExit(EXIT.failed);
            }
        }
    };
}

/**
 * Whether `err` is a {@link CliError}, also when it was thrown by another instance of this module: the
 * test runner imports cli/ through its own module graph, while an action `require`s its command's
 * implementation through Node's (and the loader), so the two can hold different `CliError` classes.
 */
function isCliError(err: unknown): err is CliError {
    return err instanceof CliError || (err instanceof Error && err.name === "CliError" && typeof (err as Partial<CliError>).exitCode === "number");
}

/** Collects a repeatable option's values (`--set a=1 --set b=2`). */
export const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];
