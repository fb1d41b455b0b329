/** `mara validate`: the configuration checks alone, offline, on a stack file. */
import type { CommandContext } from "../kernel/command";
import { EXIT, line } from "../kernel/io";
import { configTarget } from "../stack/configTarget";
import { checkConfig } from "../kernel/report";
import { locateStackFile, readStackFile, StackFileChoice } from "../stack/stackSource";

/**
 * Validates a stack file (ours or MARA's) as the program would, listing every problem.
 *
 * @returns 0 when valid (warnings allowed), 1 when there is any problem.
 */
export async function validate(choice: StackFileChoice, ctx: CommandContext): Promise<number> {
    const { io } = ctx;
    const file = locateStackFile(choice, io.cwd, io.projectDir);
    const raw = readStackFile(file, io.env, io.projectDir);
    const result = checkConfig(io, raw, file.path, configTarget(file, io.projectDir));
    if (!result) return EXIT.failed;
    const warned = result.warnings.length > 0 ? ` with ${result.warnings.length} warning${result.warnings.length === 1 ? "" : "s"}` : "";
    line(io.stdout, `${file.path}: configuration of stack "${file.stack}" is valid${warned} (infra type ${result.config.infra.type}).`);
    return EXIT.ok;
}
