/**
 * The program as of the previous release, from the repository's own history: the newest version CHANGELOG.md
 * lists below package.json's, its commit (the tag `v<version>`, or, in a clone without tags, the commit its
 * CHANGELOG.md section records as "Released from commit `<sha>`") read out of git (`git archive`), and its own dependencies
 * installed from its own lockfile (`npm ci`), so the old program runs with the SDK and libraries it was released
 * with, not HEAD's. The extracted and installed tree is kept under `.cache/previous-release/<tag>-<commit>`, so
 * only the first run in a checkout pays for the install (from npm's cache where it holds the packages).
 */
import { spawn, spawnSync } from "child_process";
import * as crypto from "crypto";
import * as fs from "fs";
import * as path from "path";
import { ROOT } from "./cluster";

/** Where the previous release is: its tag's commit, or why it cannot be had here. */
export type ReleaseLocation =
    | { readonly kind: "found"; readonly version: string; readonly tag: string; readonly commit: string }
    | { readonly kind: "shallow"; readonly reason: string }
    | { readonly kind: "missing"; readonly message: string };

/** The previous release, extracted and installed, ready to run. */
export interface PreviousRelease {
    readonly version: string;
    readonly tag: string;
    readonly commit: string;
    /** The release's tree, its dependencies installed. */
    readonly dir: string;
    /** Whether this run installed it or found it installed by an earlier run. */
    readonly installed: "now" | "cached";
}

/** The versions CHANGELOG.md has a section for (`## [x.y.z]`), newest first as written. */
export function changelogVersions(text = fs.readFileSync(path.join(ROOT, "CHANGELOG.md"), "utf8")): string[] {
    return [...text.matchAll(/^## \[(\d+\.\d+\.\d+)\]/gm)].map((m) => m[1]!);
}

const newer = (a: string, b: string) => {
    const [x, y] = [a, b].map((v) => v.split(".").map(Number));
    for (let i = 0; i < 3; i++) if (x![i] !== y![i]) return x![i]! > y![i]!;
    return false;
};

/** The newest version CHANGELOG.md lists that is older than package.json's: the release an upgrade starts from. */
export function previousVersion(): string {
    const current = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
    const older = changelogVersions().filter((v) => newer(current, v));
    if (!older.length) throw new Error(`CHANGELOG.md lists no release older than package.json's ${current}`);
    return older.reduce((a, b) => (newer(a, b) ? a : b));
}

function git(args: readonly string[]): { code: number; out: string } {
    const r = spawnSync("git", args, { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
    return { code: r.status ?? 1, out: `${r.stdout ?? ""}${r.stderr ?? ""}`.trim() };
}

/** Runs a command to its end, failing with the end of its output. */
function run(cmd: string, args: readonly string[], cwd: string, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
        const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"], timeout: timeoutMs });
        let out = "";
        child.stdout.on("data", (c: Buffer) => (out = `${out}${c.toString()}`.slice(-8000)));
        child.stderr.on("data", (c: Buffer) => (out = `${out}${c.toString()}`.slice(-8000)));
        child.on("error", reject);
        child.on("exit", (code, signal) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} in ${cwd} failed (${code ?? signal}):\n${out}`))));
    });
}

/** The commit CHANGELOG.md's section of a version records it was released from ("Released from commit `<40 hex>`"), if any. */
export function changelogCommit(version: string, text = fs.readFileSync(path.join(ROOT, "CHANGELOG.md"), "utf8")): string | undefined {
    const section = text.split(/^## /m).find((s) => s.startsWith(`[${version}]`));
    return section?.match(/Released from commit `([0-9a-f]{40})`/)?.[1];
}

/**
 * Finds the previous release's commit: its tag, or, where the clone has no tags (CI's clone of one branch has none),
 * the commit CHANGELOG.md records for it, which is in the history of every full clone of main. A tag and a recorded
 * commit that disagree are an error (a moved tag). A shallow clone that has neither is the one case that cannot be
 * helped here (`shallow`, to be skipped with its reason).
 */
export function locatePreviousRelease(): ReleaseLocation {
    const version = previousVersion();
    const tag = `v${version}`;
    const recorded = changelogCommit(version);
    const shallow = git(["rev-parse", "--is-shallow-repository"]);
    if (shallow.code !== 0) return { kind: "missing", message: `the upgrade test reads release ${tag} from git history, but the project is not a git checkout: ${shallow.out}` };
    const tagged = git(["rev-parse", "--verify", "--quiet", `refs/tags/${tag}^{commit}`]);
    if (tagged.code === 0) {
        if (recorded && tagged.out !== recorded) {
            return { kind: "missing", message: `tag ${tag} is on ${tagged.out}, but CHANGELOG.md records ${version} as released from ${recorded}; a release tag does not move: put it back, or correct the CHANGELOG` };
        }
        return { kind: "found", version, tag, commit: tagged.out };
    }
    if (recorded && git(["cat-file", "-e", `${recorded}^{commit}`]).code === 0) return { kind: "found", version, tag, commit: recorded };
    const where = recorded ? `tag ${tag} and its commit ${recorded.slice(0, 12)} (CHANGELOG.md)` : `tag ${tag} (CHANGELOG.md's previous release; its section records no "Released from commit")`;
    if (shallow.out === "true") {
        return { kind: "shallow", reason: `a shallow clone without ${where}; \`git fetch --unshallow --tags\` brings the history and tags the upgrade test deploys from` };
    }
    return { kind: "missing", message: `${where} not in this clone; fetch them with \`git fetch --tags origin\`` };
}

/** Extracts the release's tree with `git archive` and installs its dependencies from its own lockfile, once per checkout. */
export async function installPreviousRelease(release: { version: string; tag: string; commit: string }): Promise<PreviousRelease> {
    const { version, tag, commit: sha } = release;
    const lock = git(["show", `${sha}:package-lock.json`]);
    if (lock.code !== 0) throw new Error(`release ${tag} (${sha}) has no package-lock.json: ${lock.out}`);
    // The install is keyed by the release's commit and its lockfile, so a moved tag or another lockfile installs again.
    const stamp = crypto.createHash("sha256").update(lock.out).digest("hex");
    const parent = path.join(ROOT, ".cache", "previous-release");
    const dir = path.join(parent, `${tag}-${sha.slice(0, 12)}`);
    const stampFile = path.join(dir, ".installed");
    if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, "utf8") === stamp) return { version, tag, commit: sha, dir, installed: "cached" };

    fs.mkdirSync(parent, { recursive: true });
    const tmp = fs.mkdtempSync(path.join(parent, `.${tag}-`));
    try {
        await run("bash", ["-o", "pipefail", "-c", `git -C "$1" archive --format=tar "$2" | tar -x -C "$3"`, "bash", ROOT, sha, tmp], ROOT, 120_000);
        // Its own lockfile: the release's SDK and libraries (@pulumi/pulumi among them differs from HEAD's). Only what
        // the program needs at run time (--omit=dev), without install scripts (Pulumi's packages would try to download
        // provider plugins; the tier's are on PATH). --prefer-offline installs from npm's cache where it holds them.
        await run("npm", ["ci", "--prefer-offline", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund"], tmp, 10 * 60_000);
        fs.writeFileSync(path.join(tmp, ".installed"), stamp);
        fs.rmSync(dir, { recursive: true, force: true });
        fs.renameSync(tmp, dir);
    } catch (e) {
        fs.rmSync(tmp, { recursive: true, force: true });
        throw e;
    }
    return { version, tag, commit: sha, dir, installed: "now" };
}
