/**
 * The error that stops the program on an invalid configuration. Apart from the problems themselves (problems.ts)
 * because it extends the SDK's RunError, and `mara validate` reports problems without loading the SDK.
 */
import { RunError } from "@pulumi/pulumi/errors";
import { ConfigProblem, formatProblem } from "./problems";

/**
 * Thrown by `loadConfig` when any key is invalid, before any resource is registered. It extends
 * `pulumi.RunError` so the Pulumi CLI prints the message alone, without a stack trace.
 */
export class ConfigError extends RunError {
    /** Every problem found; validation does not stop at the first. */
    public readonly problems: readonly ConfigProblem[];

    constructor(problems: readonly ConfigProblem[]) {
        const n = problems.length;
        super(
            `MARA configuration is invalid (${n} problem${n === 1 ? "" : "s"}); nothing was created.\n` +
                problems.map((p, i) => `  ${i + 1}. ${formatProblem(p)}`).join("\n"),
        );
        this.name = "ConfigError";
        this.problems = problems;
    }
}
