/**
 * Where a stack's workflows go: GitHub reads workflows only from `.github/workflows/` at the root of the repository,
 * so a project in a folder of a larger repository gets them there, with the folder as the jobs' working directory.
 * Checked before `mara init` creates anything: a workflow that exists is replaced only with `--force`, and a path
 * that cannot be written (a folder, a link, a file where a folder must be, no permission) is refused with the reason.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { shownPath } from "../../config/localPaths";
import { CliError, EXIT } from "../kernel/io";
import { outputFileProblem, reasonOf } from "../../host/outputPath";
import { workflowFileNames } from "./githubWorkflows";

/** Where the workflows of a stack are written, and what they run on. */
export interface WorkflowTarget {
    /** The repository's root: the nearest folder at or above the project with a `.git`; the project folder when none has. */
    readonly root: string;
    readonly inGit: boolean;
    /** The project folder relative to the root, `/`-separated; empty when it is the root. */
    readonly workDir: string;
    /** The branch whose pushes run `pulumi up`, and where that name came from. */
    readonly branch: string;
    readonly branchSource: string;
    /** The absolute paths of the two workflow files. */
    readonly files: { readonly pullRequest: string; readonly push: string };
}

/** The branch when the repository names none (git's and GitHub's default for new repositories). */
export const DEFAULT_BRANCH = "main";
/** How long asking git for the default branch may take: it reads a file, so only a broken git takes longer. */
export const GIT_TIMEOUT_MS = 10_000;
/** What git may print in answer: a branch name. */
export const GIT_MAX_BYTES = 64 * 1024;

/**
 * Finds where the workflows of `stack` go, and checks that they can be written there.
 *
 * @param force - replace workflow files that exist.
 * @throws CliError (usage) naming each file that cannot be written and why, or a project folder whose name could not
 *   be used in a workflow.
 */
export function workflowTarget(projectDir: string, stack: string, force: boolean): WorkflowTarget {
    const project = path.resolve(projectDir);
    const gitRoot = findGitRoot(project);
    const root = gitRoot ?? project;
    const workDir = path.relative(root, project).split(path.sep).join("/");
    // A workflow evaluates `${{ }}` in every value it passes to an action (work-dir among them), and a control
    // character has no place in a path GitHub checks out.
    if (workDir.includes("${{") || /[\u0000-\u001f\u007f]/.test(workDir)) {
        throw new CliError(`the project folder ${shownPath(workDir)} (relative to the repository root ${shownPath(root)}) cannot be named in a GitHub workflow: its name holds "\${{" or a control character; rename the folder`, EXIT.usage);
    }
    const branch = gitRoot ? originHead(gitRoot) : undefined;
    const names = workflowFileNames(stack);
    const dir = path.join(root, ".github", "workflows");
    const files = { pullRequest: path.join(dir, names.pullRequest), push: path.join(dir, names.push) };
    const problems = [files.pullRequest, files.push].map((f) => writeProblem(f, force)).filter((p): p is string => p !== undefined);
    if (problems.length > 0) throw new CliError(`--ci: ${problems.join("; ")}`, EXIT.usage);
    return {
        root,
        inGit: gitRoot !== undefined,
        workDir,
        branch: branch ?? DEFAULT_BRANCH,
        branchSource: branch ? "the repository's default branch (origin/HEAD)" : `${DEFAULT_BRANCH}: the repository names no default branch (no origin/HEAD)`,
        files,
    };
}

/** Why a workflow cannot be written at `file`, or undefined. */
function writeProblem(file: string, force: boolean): string | undefined {
    let st: fs.Stats | undefined;
    try {
        st = fs.lstatSync(file);
    } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== "ENOENT" && code !== "ENOTDIR") return `${shownPath(file)} cannot be written: ${reasonOf(e)}`;
    }
    if (st?.isSymbolicLink()) return `${shownPath(file)} is a symbolic link; a workflow is written as a file of the repository: remove the link and run this again`;
    if (st?.isFile() && !force) return `${shownPath(file)} exists; pass --force to replace it (changes made to it are lost)`;
    if (st && !st.isFile() && !st.isDirectory()) return `${shownPath(file)} exists and is not a file`;
    return outputFileProblem(file);
}

/** The nearest folder at or above `dir` holding `.git` (a folder, or a worktree's file). */
function findGitRoot(dir: string): string | undefined {
    for (let d = dir; ; d = path.dirname(d)) {
        if (fs.existsSync(path.join(d, ".git"))) return d;
        if (path.dirname(d) === d) return undefined;
    }
}

/** The branch origin/HEAD names (what `git clone` records as the remote's default), or undefined. */
function originHead(root: string): string | undefined {
    const r = spawnSync("git", ["-C", root, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"], { encoding: "utf8", timeout: GIT_TIMEOUT_MS, maxBuffer: GIT_MAX_BYTES });
    if (r.status !== 0 || typeof r.stdout !== "string") return undefined;
    const name = r.stdout.trim().replace(/^origin\//, "");
    // git's own names never hold these; anything else is not a branch this can name.
    return name && !/[\u0000-\u0020\u007f~^:\\]/.test(name) && !name.includes("${{") ? name : undefined;
}
