/**
 * Where `mara render --out` and `mara plan --mermaid/--dot` write is checked before any work: a path under a regular
 * file, a file system that refuses new entries (`/proc`, where Node's recursive mkdir used to spin for ever), a link
 * to nothing are refused at once with the reason and exit code 2; a link to a folder is followed and kept.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import { afterAll, describe, expect, it } from "vitest";
import { makeDirs, outputFileProblem } from "../../host/outputPath";
import { MARKER, outputDirProblem, writeOutputDir } from "../../render/outputDir";
import { markerText } from "../../render/userFiles";
import { runMara } from "./support/io";

const ROOT = path.join(__dirname, "..", "..");
const FIXTURE = path.join(ROOT, "test", "fixtures", "Pulumi.mara-lke.yaml");
const made: string[] = [];
const tmp = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-out-"));
    made.push(dir);
    return dir;
};
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/**
 * Runs the real command in a child process, so a command that never returns fails the test instead of hanging it. The
 * kill timer is a safety net far above a refusal's time, not a measure of speed.
 */
async function maraProcess(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
        const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(ROOT, "bin", "mara.js"), ...args], { cwd, timeout: 120_000, killSignal: "SIGKILL" });
        return { code: 0, stdout, stderr };
    } catch (e) {
        const err = e as { code?: number; killed?: boolean; stdout: string; stderr: string };
        if (err.killed) throw new Error(`mara ${args.join(" ")} was still running after 120 s`);
        return { code: err.code ?? -1, stdout: err.stdout, stderr: err.stderr };
    }
}

const noTrace = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+|unexpected error/);

describe("mara render --out is checked before rendering", () => {
    it("under a regular file: refused at once, naming the file", async () => {
        const dir = tmp();
        fs.writeFileSync(path.join(dir, "notes.txt"), "mine");
        const r = await runMara(["render", "-c", FIXTURE, "--out", "notes.txt/out", "--secrets=omit"], { cwd: dir });
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(`mara: ${path.join(dir, "notes.txt")} is a file, so notes.txt/out cannot be written`);
        expect(r.stdout).toBe("");
        noTrace(r.stderr);
        expect(fs.readFileSync(path.join(dir, "notes.txt"), "utf8")).toBe("mine");
    }, 120_000);

    it("under /proc, which refuses new entries: refused at once, never spinning", async () => {
        expect(fs.statSync("/proc").isDirectory()).toBe(true);
        for (const out of ["/proc/mara-render-out", "/proc/self/mara/out"]) {
            // Refused before any work: its one line is all it prints (a render would have started the program first).
            const r = await maraProcess(["render", "-c", FIXTURE, "--out", out, "--secrets=omit"], tmp());
            expect(r.code, r.stderr).toBe(2);
            expect(r.stderr).toMatch(new RegExp(`^mara: ${out} cannot be written: /proc(/self)? does not accept new entries: .*\\(E[A-Z]+\\)\\n$`));
            expect(r.stdout).toBe("");
        }
    }, 300_000);

    it("a link to nothing, a link to a file, and a folder of someone else's: refused", async () => {
        const dir = tmp();
        fs.symlinkSync(path.join(dir, "gone"), path.join(dir, "dangling"));
        fs.writeFileSync(path.join(dir, "file"), "");
        fs.symlinkSync(path.join(dir, "file"), path.join(dir, "to-file"));
        expect(outputDirProblem(path.join(dir, "dangling"), "dangling")).toBe(`dangling is a link to ${path.join(dir, "gone")}, which does not exist; point the link at a folder, or choose another --out`);
        expect(outputDirProblem(path.join(dir, "to-file"), "to-file")).toBe("to-file exists and is not a folder");
        const r = await runMara(["render", "-c", FIXTURE, "--out", "dangling", "--secrets=omit"], { cwd: dir });
        expect(r.code).toBe(2);
        expect(r.stderr).toContain("mara: dangling is a link to");
        expect(fs.readlinkSync(path.join(dir, "dangling"))).toBe(path.join(dir, "gone"));
    });

    it("a loop of links: called a loop, never a link to something that does not exist", async () => {
        const dir = tmp();
        fs.symlinkSync("loop-b", path.join(dir, "loop-a"));
        fs.symlinkSync("loop-a", path.join(dir, "loop-b"));
        expect(outputDirProblem(path.join(dir, "loop-a"), "loop-a")).toBe(
            "loop-a is a loop of symbolic links (ELOOP): following it never reaches a folder; point the link at a folder (ls -l shows where it points), or choose another --out",
        );
        const r = await runMara(["render", "-c", FIXTURE, "--out", "loop-a/out", "--secrets=omit"], { cwd: dir });
        expect(r.code).toBe(2);
        expect(r.stderr).toBe("mara: loop-a/out cannot be written: it is a loop of symbolic links (ELOOP)\n");
    });

    it("a name with a space or a newline: written like any other, and quoted in messages", async () => {
        const dir = tmp();
        fs.writeFileSync(path.join(dir, "a file"), "");
        expect(outputDirProblem(path.join(dir, "a file"), "a file")).toBe('"a file" exists and is not a folder');
        expect(outputDirProblem(path.join(dir, "new\nline", "out"), "new\nline/out")).toBeUndefined();
        const r = await runMara(["plan", "-c", FIXTURE, "--mermaid", "a file/plan.mmd"], { cwd: dir });
        expect(r.code).toBe(2);
        expect(r.stderr).toBe(`mara: --mermaid "a file/plan.mmd": "${path.join(dir, "a file")}" is a file, so "a file/plan.mmd" cannot be written\n`);
    });

    it("a link to a folder is followed: the folder is replaced, the link kept", () => {
        const dir = tmp();
        const real = path.join(dir, "real");
        fs.mkdirSync(real);
        // An earlier render that wrote stale.yaml (its marker lists it), which the next one no longer writes.
        fs.writeFileSync(path.join(real, MARKER), markerText("earlier render", ["stale.yaml"]));
        fs.writeFileSync(path.join(real, "stale.yaml"), "kind: ConfigMap\n");
        fs.symlinkSync(real, path.join(dir, "link"));
        expect(outputDirProblem(path.join(dir, "link"))).toBeUndefined();
        const written = writeOutputDir(path.join(dir, "link"), new Map([["a/x.yaml", "kind: Namespace\n"]]), "next render\n");
        expect(written).toEqual({ real, viaLink: true });
        expect(fs.lstatSync(path.join(dir, "link")).isSymbolicLink()).toBe(true);
        expect(fs.readdirSync(real).sort()).toEqual([MARKER, "a"]);
        expect(fs.readFileSync(path.join(dir, "link", "a", "x.yaml"), "utf8")).toBe("kind: Namespace\n");
    });

    it("missing parents are created one level at a time", () => {
        const dir = tmp();
        makeDirs(path.join(dir, "a", "b", "c"));
        expect(fs.statSync(path.join(dir, "a", "b", "c")).isDirectory()).toBe(true);
        expect(outputDirProblem(path.join(dir, "x", "y", "out"))).toBeUndefined();
    });
});

describe("mara plan's graph files are checked the same way", () => {
    it("refuses a graph under /proc at once", async () => {
        const r = await maraProcess(["plan", "-c", FIXTURE, "--mermaid", "/proc/mara/plan.mmd"], tmp());
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toContain("mara: --mermaid /proc/mara/plan.mmd: /proc/mara/plan.mmd cannot be written: /proc does not accept new entries");
        expect(r.stdout).toBe("");
    }, 150_000);

    it("names a file it may write, and one it may not", () => {
        const dir = tmp();
        expect(outputFileProblem(path.join(dir, "new", "plan.mmd"))).toBeUndefined();
        fs.mkdirSync(path.join(dir, "folder"));
        expect(outputFileProblem(path.join(dir, "folder"), "folder")).toBe("folder is a folder");
    });
});
