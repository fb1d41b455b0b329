/**
 * The README's quick start, as a new user pastes it into a fresh clone. Its `sh` block must be valid in bash, zsh
 * and POSIX sh and hold no comments (an interactive zsh without `interactivecomments`, its default, hands `# …`
 * to the command as arguments), and every command in it must be one this test knows how to check: `mara`
 * commands run as written (through npx, in the repository; `render` into a scratch folder instead of
 * `manifests/`), npm and vitest commands checked without running them (the suite cannot run itself), and
 * `. .toolchain/activate` run for real in each shell by activate.test.ts. A new command in the block fails here
 * until it has a check. The files the documented commands write are ones git ignores.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAN_GRAPH_FILE } from "../../cli/commands/init";

const ROOT = path.join(__dirname, "..", "..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { bin: Record<string, string>; scripts: Record<string, string> };

/** The lines of the first ```sh block after the heading. */
function block(file: string, heading: string): string[] {
    const lines = fs.readFileSync(path.join(ROOT, file), "utf8").split("\n");
    const start = lines.indexOf(heading);
    expect(start, `${file} has "${heading}"`).toBeGreaterThanOrEqual(0);
    const open = lines.findIndex((l, i) => i > start && l === "```sh");
    const close = lines.findIndex((l, i) => i > open && l === "```");
    return lines.slice(open + 1, close);
}

const QUICK_START = block("README.md", "## Quick start (offline)");
/** Each command of the block: lines split at `&&`. */
const COMMANDS = QUICK_START.flatMap((l) => l.split("&&").map((c) => c.trim()));

/** Where `mara render` writes instead of the repository's manifests/ (which a developer may be using). */
let scratch: string;
beforeAll(() => (scratch = fs.mkdtempSync(path.join(os.tmpdir(), "mara-quick-start-"))));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const words = (command: string) => command.split(/\s+/);
const run = (cmd: string, args: string[], cwd = ROOT) => spawnSync(cmd, args, { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" }, timeout: 180_000 });

/** The check for one command of the block, or undefined when there is none. */
function checkFor(command: string): (() => void) | undefined {
    const [tool, ...args] = words(command);
    if (command === ". .toolchain/activate") return () => expect(fs.existsSync(path.join(ROOT, ".toolchain", "activate"))).toBe(true);
    if (command === "npm ci") {
        // Without installing: the lockfile matches package.json and this Node.js meets the engines (.npmrc engine-strict).
        return () => {
            const dir = fs.mkdtempSync(path.join(scratch, "npm-ci-"));
            for (const f of ["package.json", "package-lock.json", ".npmrc"]) fs.copyFileSync(path.join(ROOT, f), path.join(dir, f));
            const r = run("npm", ["ci", "--dry-run", "--ignore-scripts", "--no-audit", "--no-fund"], dir);
            expect(r.status, r.stderr).toBe(0);
        };
    }
    if (tool === "npm" && args[0] === "test" && args.length === 1) {
        // Every tier: the emulator the drain's tests need, the alert rules' checkers, the offline suite, then the real-engine tier's script.
        return () => {
            expect(pkg.scripts.test).toBe("bash test/aws-emulator/setup.sh && bash test/alerting/build.sh && vitest run && npm run test:engine");
            expect(pkg.scripts["test:engine"]).toMatch(/^bash test\/engine\/build\.sh && vitest run -c vitest\.engine\.config\.mts$/);
            for (const script of ["aws-emulator/setup.sh", "alerting/build.sh", "engine/build.sh"]) expect(fs.existsSync(path.join(ROOT, "test", script)), script).toBe(true);
        };
    }
    if (tool === "npx" && args[0] === "vitest" && args[1] === "run") {
        return () => {
            expect(args.length).toBeGreaterThan(2);
            for (const file of args.slice(2)) {
                expect(file, "a test file of this repository").toMatch(/^test\/.+\.test\.ts$/);
                expect(fs.existsSync(path.join(ROOT, file)), file).toBe(true);
            }
        };
    }
    if (tool === "npx" && args[0] === "mara") {
        return () => {
            expect(pkg.bin.mara).toBe("bin/mara.js");
            const out = args.indexOf("--out");
            const actual = out >= 0 ? args.map((a, i) => (i === out + 1 ? path.join(scratch, a) : a)) : args;
            const r = run("npx", ["--no-install", ...actual]);
            expect(r.status, `${command}\n${r.stderr}`).toBe(0);
        };
    }
    return undefined;
}

describe("the README's quick start", () => {
    it("is plain commands: no comments, no prompts, no line continuations", () => {
        expect(QUICK_START.length).toBeGreaterThan(2);
        for (const l of QUICK_START) {
            expect(l, "a comment (zsh would pass it on as arguments)").not.toContain("#");
            expect(l).not.toMatch(/^\s*\$ |\\$/);
        }
    });

    for (const sh of ["bash", "sh", "zsh"]) {
        const found = spawnSync("sh", ["-c", `command -v ${sh}`], { encoding: "utf8" }).status === 0;
        it.skipIf(!found)(`parses in ${sh}${found ? "" : " (not installed on this machine)"}`, () => {
            const r = spawnSync(sh, ["-n"], { input: `${QUICK_START.join("\n")}\n`, encoding: "utf8" });
            expect(r.status, r.stderr).toBe(0);
        });
    }

    it("has a check for every command", () => {
        expect(COMMANDS.filter((c) => !checkFor(c)), "commands without a check: add one to this test").toEqual([]);
    });

    for (const command of COMMANDS) {
        const check = checkFor(command);
        it.skipIf(!check)(`runs as written: ${command}`, () => check!(), 240_000);
    }
});

describe("what the documented commands write", () => {
    /** Whether git ignores `file` and does not track it. */
    const ignored = (file: string) => run("git", ["check-ignore", "-q", "--no-index", file]).status === 0 && run("git", ["ls-files", "--error-unmatch", file]).status !== 0;

    it("mara render's manifests/, and the graph init's hint and docs/cli.md's quick start draw, are ignored by git", () => {
        expect(COMMANDS.some((c) => c.includes("--out manifests"))).toBe(true);
        expect(ignored("manifests/kustomization.yaml")).toBe(true);
        expect(ignored(PLAN_GRAPH_FILE)).toBe(true);
        const graphs = block("docs/cli.md", "## Quick start with the wrapper").flatMap((l) => [...l.matchAll(/--(?:mermaid|dot) (\S+)/g)].map((m) => m[1]!));
        expect(graphs).toEqual([PLAN_GRAPH_FILE]);
        // The tracked graph is the minimal stack's, and only that command writes it.
        expect(ignored("docs/plan.mmd")).toBe(false);
    });
});
