/**
 * Local paths the configuration names (kubeconfig, NGINX Plus certificate and key, the chart archive folder, the KIC
 * source checkout), on a real file system: each kind of thing a path can lead to is named for what it is, with a fix
 * that applies to it — a loop of links is a loop (never "missing"), a pipe is never opened (reading one waits for a
 * writer for ever), a path with a space or a newline is a path like any other and is shown quoted.
 * Permission cases run as an unprivileged user (root reads everything): `setpriv` to nobody when the tests run as root.
 */
import { execFileSync, spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkKubeconfig } from "../../config/kubeconfigFile";
import { inspectLocalPath, MAX_LOCAL_FILE_BYTES, pathStatus, shellWord, shownPath } from "../../config/localPaths";
import { KUBECONFIG_TEXT } from "../support/config";

const ROOT = path.join(__dirname, "..", "..");
const KEYS = { kubeconfig: "mara:kubeconfig", context: "mara:kubeContext" };
let dir: string;

beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "local-paths-"));
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(path.join(dir, "kube config.yaml"), KUBECONFIG_TEXT);
    fs.writeFileSync(path.join(dir, "new\nline.yaml"), KUBECONFIG_TEXT);
    fs.symlinkSync(path.join(dir, "kube config.yaml"), path.join(dir, "to-file"));
    fs.mkdirSync(path.join(dir, "folder"));
    fs.symlinkSync(path.join(dir, "folder"), path.join(dir, "to-folder"));
    fs.symlinkSync("loop-b", path.join(dir, "loop-a"));
    fs.symlinkSync("loop-a", path.join(dir, "loop-b"));
    fs.symlinkSync(path.join(dir, "gone.yaml"), path.join(dir, "dangling"));
    execFileSync("mkfifo", [path.join(dir, "pipe")]);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const at = (name: string) => path.join(dir, name);
/** checkKubeconfig of a path on the real file system: the problem's text and fix, or "ok". */
function kubeconfig(setting: string): string {
    const r = checkKubeconfig(setting, undefined, { baseDir: dir, env: { HOME: dir } }, KEYS);
    return r.ok ? "ok" : `${r.problem.problem} | ${r.problem.fix}`;
}

describe("what is at a path", () => {
    it("a file, a folder, links to them, a link to nothing, a loop, a pipe, a device, /proc", () => {
        expect(pathStatus(at("kube config.yaml"))).toEqual({ kind: "file", size: KUBECONFIG_TEXT.length });
        expect(pathStatus(at("to-file")).kind).toBe("file");
        expect(pathStatus(at("to-folder"))).toEqual({ kind: "directory" });
        expect(pathStatus(at("nothing"))).toEqual({ kind: "missing" });
        expect(pathStatus(at("dangling"))).toEqual({ kind: "missing", link: at("gone.yaml") });
        expect(pathStatus(at("loop-a"))).toMatchObject({ kind: "unusable", reason: "is a loop of symbolic links (ELOOP): following them never reaches a file" });
        expect(pathStatus(at("loop-a/below"))).toMatchObject({ kind: "unusable", reason: expect.stringContaining("loop of symbolic links") });
        expect(pathStatus(at("pipe"))).toMatchObject({ kind: "unusable", reason: "is a named pipe, not a regular file" });
        expect(pathStatus("/dev/null")).toMatchObject({ kind: "unusable", reason: "is a character device, not a regular file" });
        expect(pathStatus(at("kube config.yaml/below"))).toEqual({ kind: "missing" });
        expect(pathStatus(at("nul\0byte"))).toMatchObject({ kind: "unusable", reason: "holds a NUL character, which no file name can" });
        // /proc files say they are empty and are not: read, not trusted by size.
        const proc = inspectLocalPath("/proc/self/status");
        expect(proc.kind === "file" && proc.text).toMatch(/^Name:/m);
    });

    it("a pipe is never opened, so nothing waits for a writer", () => {
        expect(inspectLocalPath(at("pipe"))).toMatchObject({ kind: "unreadable", reason: "is a named pipe, not a regular file" });
    });

    it("a file past the size limit: refused after reading only the limit", () => {
        const big = at("big.yaml");
        fs.writeFileSync(big, "");
        fs.truncateSync(big, MAX_LOCAL_FILE_BYTES + 1);
        expect(inspectLocalPath(big)).toMatchObject({ kind: "unreadable", reason: `is larger than ${MAX_LOCAL_FILE_BYTES / 1024 / 1024} MiB, far more than such a file holds` });
        fs.rmSync(big);
    });

    it("paths in messages and in shell commands: quoted when they hold a space, a newline or a quote", () => {
        expect(shownPath("/srv/charts")).toBe("/srv/charts");
        expect(shownPath("/srv/my charts")).toBe('"/srv/my charts"');
        expect(shownPath("/srv/a\nb")).toBe('"/srv/a\\nb"');
        expect(shellWord("/srv/my charts")).toBe("'/srv/my charts'");
        expect(shellWord("/srv/it's")).toBe(`'/srv/it'\\''s'`);
        // The quoted word is the same path to a real shell.
        expect(execFileSync("sh", ["-c", `printf %s ${shellWord("/srv/it's a\nb")}`], { encoding: "utf8" })).toBe("/srv/it's a\nb");
    });
});

describe("a kubeconfig path: each case named for what it is", () => {
    it("with a space, relative, under ~, with ..: used as given", () => {
        expect(kubeconfig(at("kube config.yaml"))).toBe("ok");
        expect(kubeconfig("./kube config.yaml")).toBe("ok");
        expect(kubeconfig("~/kube config.yaml")).toBe("ok");
        expect(kubeconfig("./folder/../kube config.yaml")).toBe("ok");
        expect(kubeconfig(at("to-file"))).toBe("ok");
    });

    it("a loop of links: a loop, with ls -l to see it, never 'does not exist'", () => {
        const message = kubeconfig(at("loop-a"));
        expect(message).toContain("names a path that is a loop of symbolic links (ELOOP): following them never reaches a file");
        expect(message).toContain(`see where the links point with ls -l ${at("loop-a")}`);
        expect(message).not.toMatch(/does not exist|cannot be read \(ELOOP\)/);
    });

    it("a link to nothing names where it points", () => {
        expect(kubeconfig(at("dangling"))).toMatch(new RegExp(`^names a symbolic link to ${at("gone.yaml")}, which does not exist \\| point the link at your kubeconfig`));
    });

    it("a folder where the file belongs, a pipe, a device", () => {
        expect(kubeconfig(at("to-folder"))).toMatch(/^names a directory \(resolved to|^names a directory, not a kubeconfig file/);
        expect(kubeconfig(at("pipe"))).toMatch(/^names a path that is a named pipe, not a regular file \| point it at a regular file/);
        expect(kubeconfig("/dev/null")).toMatch(/^names a path that is a character device/);
    });

    it("a missing file with a space: the ls command quotes it", () => {
        expect(kubeconfig(at("no such.yaml"))).toContain(`check the path with: ls -l '${at("no such.yaml")}'`);
    });

    it("a newline in the name: read as contents, and the message says why", () => {
        expect(kubeconfig(at("new\nline.yaml"))).toContain("a value with a line break is read as the kubeconfig's contents, so if it is meant as a path, rename the file");
    });
});

describe("no permission", () => {
    /** Runs `code` with the repository's loader as a user who is not root, printing JSON. */
    function unprivileged(code: string): unknown {
        const node = [process.execPath, "-r", "sucrase/register/ts", "-e", code];
        const cmd = process.getuid?.() === 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", ...node] : node;
        const r = spawnSync(cmd[0]!, cmd.slice(1), { cwd: ROOT, encoding: "utf8", timeout: 30_000 });
        if (r.status !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr}`);
        return JSON.parse(r.stdout);
    }

    it("a file without read permission and a folder that cannot be entered: permission denied, with chmod or ls -ld", () => {
        const locked = at("locked.yaml");
        fs.writeFileSync(locked, KUBECONFIG_TEXT, { mode: 0o000 });
        fs.chmodSync(locked, 0o000);
        const closed = at("closed");
        fs.mkdirSync(closed, { mode: 0o700 });
        fs.writeFileSync(path.join(closed, "inside.yaml"), KUBECONFIG_TEXT);
        fs.chmodSync(closed, 0o000);
        const found = unprivileged(
            `const l = require("./config/localPaths.ts"); console.log(JSON.stringify([l.inspectLocalPath(${JSON.stringify(locked)}), l.inspectLocalPath(${JSON.stringify(path.join(closed, "inside.yaml"))})]))`,
        ) as { kind: string; reason: string; fix: string }[];
        expect(found[0]).toEqual({ kind: "unreadable", reason: "cannot be read: permission denied (EACCES)", fix: `make it readable by your user (chmod u+r ${locked})` });
        expect(found[1]).toEqual({ kind: "unreadable", reason: "cannot be reached: permission denied (EACCES)", fix: `give your user access to it and to every folder on its way (ls -ld ${path.join(closed, "inside.yaml")})` });
        fs.chmodSync(closed, 0o700);
    });
});
