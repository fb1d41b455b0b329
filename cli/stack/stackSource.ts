/**
 * Finds and reads the stack file the offline commands (`plan`, `validate`) work on: `--config-file PATH`,
 * or `--stack NAME` meaning `./Pulumi.NAME.yaml`, or the only stack file in the directory.
 */
// The default import: `import * as fs` copies fs's properties, and reading fs.promises loads its promise API and readline.
import fs from "fs";
import * as path from "path";
// The modules rather than config/'s index, which loads the Pulumi SDK (loadConfig, ConfigError) that `mara validate` does without.
import { applyProjectConfig, parseProjectFile, ProjectConfigError, type ProjectDocument } from "../../config/projectConfig";
import type { RawConfig } from "../../config/resolve";
import { KEYS } from "../../config/keys";
import { decryptOffline } from "../../config/passphraseSecrets";
import { parseStackFile } from "../../config/stackFile";
import { decodeStackFile } from "../../config/stackFileEncoding";
import { CliError, EXIT, PROJECT_DIR } from "../kernel/io";
import { cachedParse } from "./parseCache";
import { STACK_NAME_PATTERN } from "../../contracts/pulumiStack";

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
export function locateStackFile(choice: StackFileChoice, cwd: string, projectDir: string = PROJECT_DIR): StackFile {
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
            throw new CliError(`stack file ./${name} does not exist; create it ${howToCreate(name, cwd, projectDir, `npx mara init --stack ${choice.stack}`)}`, EXIT.usage);
        }
        return { path: file, stack: choice.stack };
    }
    const found = fs.readdirSync(cwd).filter((f) => /^Pulumi\..+\.ya?ml$/.test(f)).sort();
    if (found.length === 1) return { path: path.join(cwd, found[0]!), stack: stackNameOf(found[0]!) };
    if (found.length === 0) {
        throw new CliError(`no Pulumi.<stack>.yaml here; pass --config-file PATH or --stack NAME, or create one ${howToCreate("Pulumi.dev.yaml", cwd, projectDir, "npx mara init")}`, EXIT.usage);
    }
    throw new CliError(`several stack files here (${found.join(", ")}); pick one with --stack NAME or --config-file PATH`, EXIT.usage);
}

/** The commented stack file in the project, every key with its default: a stack of one's own without the Pulumi CLI. */
export const EXAMPLE_STACK_FILE = "Pulumi.dev.yaml.example";

/**
 * How to make stack file `name` in `cwd`: offline, from the example (plan, validate and render need nothing else),
 * or with the Pulumi CLI through `init`, which also creates the stack in a backend.
 */
function howToCreate(name: string, cwd: string, projectDir: string, init: string): string {
    const file = path.join(projectDir, EXAMPLE_STACK_FILE);
    const relative = path.relative(cwd, file);
    const example = relative.startsWith("..") ? file : relative;
    const quoted = /^[\w./@+=,:-]+$/.test(example) ? example : `'${example.replace(/'/g, `'\\''`)}'`;
    return `offline: cp ${quoted} ${name} (an AWS stack; edit it for another cloud), or with the Pulumi CLI: ${init}`;
}

/** A stack name as Pulumi accepts it (contracts/pulumiStack.ts, which cites Pulumi's rule). */
export { STACK_NAME_PATTERN };

/** What a stack name may be, in the words of {@link stackNameProblem} (and the Backstage template's form). */
export const STACK_NAME_ALLOWED = "letters, digits, '-', '_' and '.' (optionally org/project/stack, each part at most 100 characters), without '..' or other paths";

/** Why `stack` is not a stack name Pulumi accepts ({@link STACK_NAME_PATTERN}), or undefined. */
export function stackNameProblem(stack: string): string | undefined {
    if (!STACK_NAME_PATTERN.test(stack)) {
        return `"${stack}" is not a stack name: use ${STACK_NAME_ALLOWED}`;
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

/**
 * The project's Pulumi.yaml, parsed (through the parse cache: its text changes only with `npm run gen`), or
 * undefined when there is none.
 *
 * @throws CliError naming the file when it is not YAML the CLI could read.
 */
export function readProject(dir: string = PROJECT_DIR): ProjectDocument | undefined {
    const file = path.join(dir, "Pulumi.yaml");
    let text: string;
    try {
        text = fs.readFileSync(file, "utf8");
    } catch {
        return undefined;
    }
    let doc: unknown;
    try {
        doc = cachedParse("Pulumi.yaml", text, parseProjectFile);
    } catch (err) {
        throw new CliError(`${file} is not a readable project file: ${(err as Error).message.trim()}`);
    }
    return doc && typeof doc === "object" ? (doc as ProjectDocument) : undefined;
}

/** The project name of a parsed Pulumi.yaml (bare stack-file keys belong to it); "mara" without one. */
function nameOf(project: ProjectDocument | undefined): string {
    return typeof project?.name === "string" && project.name !== "" ? project.name : "mara";
}

/** The project name from a Pulumi.yaml (bare stack-file keys belong to it); "mara" when unreadable. */
export function projectName(dir: string = PROJECT_DIR): string {
    try {
        return nameOf(readProject(dir));
    } catch {
        return "mara";
    }
}

/**
 * Reads a stack file into raw config as the Pulumi CLI hands it to the program: the project's Pulumi.yaml
 * defaults merged in (config/projectConfig.ts), relative paths resolved against the project directory, where
 * `pulumi` runs the program. Encrypted values become placeholders, except an inline kubeconfig where the stack's
 * passphrase is in the environment (config/passphraseSecrets.ts), which is decrypted to be checked. A value the
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
    const project = readProject(projectDir);
    let raw: RawConfig;
    try {
        raw = parseStackFile(decodeStackFile(bytes), { project: nameOf(project), stack: file.stack, env, baseDir: projectDir });
    } catch (err) {
        throw new CliError(`${file.path} is not a readable stack file: ${(err as Error).message.trim()}`);
    }
    // An inline kubeconfig stored encrypted is decrypted where the passphrase allows, as Pulumi would, so it is
    // checked here as under `pulumi up`; a relative passphrase file is found where `pulumi` runs, the project.
    raw = decryptOffline(raw, KUBECONFIG_KEYS, projectDir);
    if (!project) return raw;
    try {
        return applyProjectConfig(raw, project);
    } catch (err) {
        // The CLI would stop before the program; validation names the same key with what to do about it.
        if (err instanceof ProjectConfigError) return raw;
        throw err;
    }
}

/** The keys an existing cluster's kubeconfig is read from, under every name. */
const KUBECONFIG_KEYS = [KEYS.kubeconfig.key, ...KEYS.kubeconfig.legacy.map((l) => l.key)];
