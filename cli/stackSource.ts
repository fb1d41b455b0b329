/**
 * Finds and reads the stack file the offline commands (`plan`, `validate`) work on: `--config-file PATH`,
 * or `--stack NAME` meaning `./Pulumi.NAME.yaml`, or the only stack file in the directory.
 */
import * as fs from "fs";
import * as path from "path";
import { parse } from "yaml";
import { applyProjectConfig, parseStackFile, ProjectConfigError, RawConfig } from "../config";
import { decodeStackFile } from "../config/stackFileEncoding";
import { CliError, EXIT, PROJECT_DIR } from "./io";

export { PROJECT_DIR };

/** Which stack file to read. */
export interface StackFileChoice {
    readonly configFile?: string;
    readonly stack?: string;
}

/** A located stack file and the stack name it stands for. */
export interface StackFile {
    readonly path: string;
    readonly stack: string;
}

/** The stack a `Pulumi.<stack>.yaml` file name stands for; "dev" for other names. */
export function stackNameOf(file: string): string {
    return /^Pulumi\.(.+)\.ya?ml$/.exec(path.basename(file))?.[1] ?? "dev";
}

/**
 * Resolves the stack file to read. With neither option, the directory's single `Pulumi.<stack>.yaml`
 * is used, because guessing between several would validate the wrong stack without saying so.
 *
 * @throws CliError (usage) when both options are given, the file is missing, or the choice is ambiguous.
 */
export function locateStackFile(choice: StackFileChoice, cwd: string): StackFile {
    if (choice.configFile && choice.stack) {
        throw new CliError("give either --config-file or --stack, not both", EXIT.usage);
    }
    if (choice.configFile) {
        const file = path.resolve(cwd, choice.configFile);
        if (!fs.existsSync(file)) throw new CliError(`stack file ${choice.configFile} does not exist`, EXIT.usage);
        return { path: file, stack: stackNameOf(file) };
    }
    if (choice.stack) {
        const name = stackFileName(choice.stack);
        const file = path.join(cwd, name);
        if (!fs.existsSync(file)) {
            throw new CliError(`stack file ./${name} does not exist; create it with: npx mara init --stack ${choice.stack}`, EXIT.usage);
        }
        return { path: file, stack: choice.stack };
    }
    const found = fs.readdirSync(cwd).filter((f) => /^Pulumi\..+\.ya?ml$/.test(f)).sort();
    if (found.length === 1) return { path: path.join(cwd, found[0]!), stack: stackNameOf(found[0]!) };
    if (found.length === 0) {
        throw new CliError("no Pulumi.<stack>.yaml here; pass --config-file PATH or --stack NAME, or create one with: npx mara init", EXIT.usage);
    }
    throw new CliError(`several stack files here (${found.join(", ")}); pick one with --stack NAME or --config-file PATH`, EXIT.usage);
}

/** A stack name as Pulumi accepts it: `name`, `org/name` or `org/project/name`, each part letters, digits, '-', '_' and '.'. */
const STACK_PART = /^[A-Za-z0-9_.-]+$/;

/**
 * Why `stack` is not a stack name Pulumi accepts, or undefined. Parts of only dots are refused too: a stack
 * name becomes part of a file name, and `..` would leave the project directory.
 */
export function stackNameProblem(stack: string): string | undefined {
    const parts = stack.split("/");
    if (parts.length > 3 || parts.some((p) => !STACK_PART.test(p) || /^\.+$/.test(p))) {
        return `"${stack}" is not a stack name: use letters, digits, '-', '_' and '.' (optionally org/project/stack), without '..' or other paths`;
    }
    return undefined;
}

/**
 * The file name of a stack's configuration, `Pulumi.<stack>.yaml`, for the stack's own name (the last part of
 * `org/project/stack`, as the Pulumi CLI names it).
 *
 * @throws CliError (usage) for a name that is not a stack name, such as one with `..` or a path in it.
 */
export function stackFileName(stack: string): string {
    const problem = stackNameProblem(stack);
    if (problem) throw new CliError(problem, EXIT.usage);
    return `Pulumi.${stack.split("/").pop()}.yaml`;
}

/** The project name from a Pulumi.yaml (bare stack-file keys belong to it); "mara" when unreadable. */
export function projectName(dir: string = PROJECT_DIR): string {
    try {
        const doc: unknown = parse(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8"));
        const name = (doc as { name?: unknown } | null)?.name;
        return typeof name === "string" && name !== "" ? name : "mara";
    } catch {
        return "mara";
    }
}

/**
 * Reads a stack file into raw config as the Pulumi CLI hands it to the program: the project's Pulumi.yaml
 * defaults merged in (config/projectConfig.ts), relative paths resolved against the project directory, where
 * `pulumi` runs the program. Encrypted values cannot be decrypted offline and become placeholders. A value the
 * CLI would refuse against Pulumi.yaml's declarations is left for validation to report with its fix.
 *
 * @param projectDir - the Pulumi project: its Pulumi.yaml and the directory the program runs in.
 * @throws CliError naming the file when it cannot be read or is not a stack file.
 */
export function readStackFile(file: StackFile, env: Readonly<Record<string, string | undefined>>, projectDir: string = PROJECT_DIR): RawConfig {
    let bytes: Buffer;
    try {
        bytes = fs.readFileSync(file.path);
    } catch (err) {
        throw new CliError(`cannot read ${file.path}: ${(err as NodeJS.ErrnoException).code === "EISDIR" ? "it is a directory, not a stack file" : (err as Error).message}`);
    }
    let raw: RawConfig;
    try {
        raw = parseStackFile(decodeStackFile(bytes), { project: projectName(projectDir), stack: file.stack, env, baseDir: projectDir });
    } catch (err) {
        throw new CliError(`${file.path} is not a readable stack file: ${(err as Error).message.trim()}`);
    }
    let project: string;
    try {
        project = fs.readFileSync(path.join(projectDir, "Pulumi.yaml"), "utf8");
    } catch {
        return raw;
    }
    try {
        return applyProjectConfig(raw, project);
    } catch (err) {
        // The CLI would stop before the program; validation names the same key with what to do about it.
        if (err instanceof ProjectConfigError) return raw;
        throw err;
    }
}
