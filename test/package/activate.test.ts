/**
 * `. .toolchain/activate` in the shells a new user has: bash, zsh and POSIX sh (dash on Debian and Ubuntu),
 * run for real. Each shell starts with a stand-in `node` that answers an old version and a stand-in `npm` that
 * records being called, first on PATH, so a test shows both that the pinned Node.js replaced the old one and
 * that `npm ci` never ran anywhere (the toolchain is installed in this checkout already, as the render tier needs).
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.join(__dirname, "..", "..");
const TOOLCHAIN_NODE = path.join(ROOT, ".toolchain", "node_modules", ".bin", "node");
const PINNED = `v${(JSON.parse(fs.readFileSync(path.join(ROOT, ".toolchain", "package.json"), "utf8")) as { dependencies: { node: string } }).dependencies.node}`;

/** The absolute path of a shell, or undefined when this machine has none by that name. */
function shell(name: string): string | undefined {
    const r = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
    return r.status === 0 ? r.stdout.trim() : undefined;
}

let fakes: string;
let elsewhere: string;
beforeAll(() => {
    fakes = fs.mkdtempSync(path.join(os.tmpdir(), "mara-activate-bin-"));
    elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "mara-activate-cwd-"));
    fs.writeFileSync(path.join(fakes, "node"), "#!/bin/sh\necho v20.0.0-old\n", { mode: 0o755 });
    fs.writeFileSync(path.join(fakes, "npm"), `#!/bin/sh\necho "npm $* in $(pwd)" >> ${fakes}/npm-calls\nexit 1\n`, { mode: 0o755 });
});
afterAll(() => {
    fs.rmSync(fakes, { recursive: true, force: true });
    fs.rmSync(elsewhere, { recursive: true, force: true });
});

/** Runs `script` in a fresh, non-interactive `sh` with only the stand-ins and the system directories on PATH. */
function run(sh: string, script: string, cwd: string): { code: number; stdout: string; stderr: string; npmCalls: string } {
    fs.rmSync(path.join(fakes, "npm-calls"), { force: true });
    const r = spawnSync(sh, ["-c", script], { cwd, encoding: "utf8", env: { PATH: `${fakes}:/usr/bin:/bin`, HOME: elsewhere } });
    const npmCalls = fs.existsSync(path.join(fakes, "npm-calls")) ? fs.readFileSync(path.join(fakes, "npm-calls"), "utf8") : "";
    return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr, npmCalls };
}

/** Prints the old node, sources activate as `how`, and prints its status, the node found and its version. */
const SOURCE = (how: string) => `node --version; ${how}; echo "status=$?"; command -v node; node --version`;

const SHELLS = [
    { name: "bash", path: shell("bash"), knowsItsFile: true },
    { name: "zsh", path: shell("zsh"), knowsItsFile: true },
    { name: "sh (dash)", path: shell("dash"), knowsItsFile: false },
];

it("the toolchain is installed in this checkout (the render tier needs it too): run . .toolchain/activate once", () => {
    expect(fs.existsSync(TOOLCHAIN_NODE), `${TOOLCHAIN_NODE} is missing`).toBe(true);
});

for (const sh of SHELLS) {
    describe.skipIf(!sh.path)(`${sh.name}${sh.path ? "" : " (not installed on this machine)"}`, () => {
        it("sourced from the repository root: puts the pinned Node.js first on PATH and returns 0", () => {
            const r = run(sh.path!, SOURCE(". .toolchain/activate"), ROOT);
            expect(r.stderr).toBe("");
            expect(r.stdout.split("\n")).toEqual(["v20.0.0-old", "status=0", TOOLCHAIN_NODE, PINNED, ""]);
            expect(r.npmCalls).toBe("");
        });

        if (sh.knowsItsFile) {
            it("sourced by its path from another directory: the same", () => {
                const r = run(sh.path!, SOURCE(`. ${ROOT}/.toolchain/activate`), elsewhere);
                expect(r.stdout.split("\n")).toEqual(["v20.0.0-old", "status=0", TOOLCHAIN_NODE, PINNED, ""]);
                const sub = run(sh.path!, SOURCE(". ../.toolchain/activate"), path.join(ROOT, "docs"));
                expect(sub.stdout.split("\n")).toEqual(["v20.0.0-old", "status=0", TOOLCHAIN_NODE, PINNED, ""]);
                expect(r.npmCalls + sub.npmCalls).toBe("");
            });
        } else {
            it("sourced from another directory: refuses with what to do, returns non-zero, changes nothing and runs no npm", () => {
                for (const [how, cwd] of [[`. ${ROOT}/.toolchain/activate`, elsewhere], [". ../.toolchain/activate", path.join(ROOT, "docs")]] as const) {
                    const r = run(sh.path!, `${SOURCE(how)}; echo "PATH=$PATH"`, cwd);
                    expect(r.stderr).toBe("activate: this shell cannot tell where .toolchain/activate is; go to the repository root and source it there: cd <repository> && . .toolchain/activate\n");
                    expect(r.stdout.split("\n")).toEqual(["v20.0.0-old", "status=1", path.join(fakes, "node"), "v20.0.0-old", `PATH=${fakes}:/usr/bin:/bin`, ""]);
                    expect(r.npmCalls).toBe("");
                }
            });
        }

        it("run as a command instead of sourced: says to source it and exits 1", () => {
            const r = run(sh.path!, `${sh.path} .toolchain/activate; echo "status=$?"`, ROOT);
            expect(r.stderr).toBe("activate: source this file rather than running it, so that it changes your shell's PATH: . .toolchain/activate\n");
            expect(r.stdout).toBe("status=1\n");
        });
    });
}

it("sourcing twice puts the toolchain on PATH once", () => {
    const r = run(shell("bash")!, `. .toolchain/activate; . .toolchain/activate; echo "$PATH"`, ROOT);
    expect(r.stdout).toBe(`${path.dirname(TOOLCHAIN_NODE)}:${fakes}:/usr/bin:/bin\n`);
});
