/**
 * Which stack the `pulumi config` commands printed as fixes must change. Validation writes them as the program
 * would under `pulumi up` (`pulumi config set KEY VALUE`), which changes the selected stack: not the one checked
 * when that was `mara validate --stack prod`, and never the file checked with `-c FILE` when it is not where
 * `pulumi` keeps that stack's settings. The CLI knows which stack and file it read, so its commands say so.
 */
import path from "path";

/** The stack whose settings a printed fix must change. */
export interface ConfigTarget {
    /** The stack name, given to `pulumi config` as `--stack`. */
    readonly stack: string;
    /** The stack file, when it is not `Pulumi.<stack>.yaml` in the project directory (given as `--config-file`). */
    readonly configFile?: string;
}

/**
 * The target for a stack file the CLI read.
 *
 * @param file - the file read and the stack it stands for.
 * @param projectDir - where `pulumi` looks for `Pulumi.<stack>.yaml`.
 */
export function configTarget(file: { readonly path: string; readonly stack: string }, projectDir: string): ConfigTarget {
    const own = path.join(projectDir, `Pulumi.${file.stack.split("/").pop()}.yaml`);
    return path.resolve(file.path) === path.resolve(own) ? { stack: file.stack } : { stack: file.stack, configFile: path.resolve(file.path) };
}

const quoted = (s: string) => (/^[\w.:/@+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** `text` with `--stack` (and `--config-file`) added to each `pulumi config set` and `pulumi config rm` in it. */
export function targetCommands(text: string, target: ConfigTarget | undefined): string {
    if (!target) return text;
    const flags = ` --stack ${quoted(target.stack)}${target.configFile ? ` --config-file ${quoted(target.configFile)}` : ""}`;
    return text.replace(/\bpulumi config (set|rm)\b/g, (m) => `${m}${flags}`);
}
