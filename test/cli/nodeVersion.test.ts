/**
 * Started on a Node.js older than package.json's "engines", every way in says so in one line before anything
 * else happens: `mara` (bin/mara.js), the Pulumi program (index.ts), the test runner (vitest.config.mts) and
 * `npm ci` (.npmrc engine-strict). The old Node.js is played by a preload that makes the process report 20.20.2;
 * where this machine also has a real older `node` on PATH, `mara` is started with it too.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { satisfiesNode } from "../../contracts/nodeSupport";

const ROOT = path.join(__dirname, "..", "..");
const FAKE = path.join(ROOT, "test", "support", "fakeNodeVersion.cjs");
const line = (who: string, execPath = process.execPath) =>
    `${who}: Node.js 20.20.2 (${execPath}) is not supported; use Node.js 22.22.2 or a later 22.x, or 24.15.0 or later (package.json "engines"). Run: . .toolchain/activate`;

/** Runs `cmd` as if on Node.js 20.20.2. */
function onOldNode(cmd: string, args: string[], cwd = ROOT) {
    const env = { ...process.env, NO_COLOR: "1", NODE_OPTIONS: `--require ${FAKE}`, MARA_FAKE_NODE_VERSION: "20.20.2" };
    const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", timeout: 120_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A `node` on PATH older than the supported versions, if this machine has one (Debian's is 20). */
function realOldNode(): { path: string; version: string } | undefined {
    for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
        const candidate = path.join(dir, "node");
        if (!fs.existsSync(candidate)) continue;
        const version = spawnSync(candidate, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout?.trim();
        if (version && !satisfiesNode(version)) return { path: fs.realpathSync(candidate), version };
    }
    return undefined;
}

describe("on an unsupported Node.js", () => {
    it("mara says which Node.js it needs and what to run, in one line, and exits 3 before loading the command", () => {
        for (const args of [["--help"], ["validate", "--config-file", "test/fixtures/Pulumi.minimal-aws.yaml"]]) {
            const r = onOldNode(process.execPath, [path.join(ROOT, "bin", "mara.js"), ...args]);
            expect(r).toEqual({ code: 3, stdout: "", stderr: `${line("mara")}\n` });
        }
    });

    const old = realOldNode();
    it.skipIf(!old)(`mara under a real older node on PATH${old ? ` (${old.version})` : " (none on this machine)"}`, () => {
        const r = spawnSync(old!.path, [path.join(ROOT, "bin", "mara.js"), "plan"], { cwd: ROOT, encoding: "utf8" });
        expect(r.status).toBe(3);
        expect(r.stderr).toBe(`${line("mara", old!.path).replace("20.20.2", old!.version)}\n`);
    });

    it("the program stops with that line as a RunError (the Pulumi CLI prints it alone) before loading the rest of itself", () => {
        const probe = [
            `const { RunError } = require("@pulumi/pulumi/errors");`,
            `try { require("./index.ts"); console.log("loaded"); }`,
            `catch (e) { console.log(JSON.stringify({ runError: RunError.isInstance(e), message: e.message, components: Object.keys(require.cache).some((f) => f.includes("/components/")) })); }`,
        ].join("\n");
        const r = onOldNode(process.execPath, ["-r", "sucrase/register/ts", "-e", probe]);
        expect(r.code, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout)).toEqual({ runError: true, message: line("MARA program"), components: false });
    });

    it("the tests stop with that line before any runs (instead of crashing vitest's reporter at the first failure)", () => {
        const r = onOldNode(process.execPath, [path.join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "test/unit/nodeSupport.test.ts"]);
        expect(r.code).toBe(1);
        expect(r.stderr).toBe(`${line("tests")}\n`);
    }, 60_000);

    it("npm ci refuses to install (engine-strict), naming the engines", () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-engines-"));
        try {
            for (const f of ["package.json", "package-lock.json", ".npmrc"]) fs.copyFileSync(path.join(ROOT, f), path.join(dir, f));
            const r = onOldNode("npm", ["ci", "--dry-run", "--ignore-scripts", "--no-audit", "--no-fund"], dir);
            expect(r.code).not.toBe(0);
            expect(r.stderr).toContain("EBADENGINE");
            expect(r.stderr).toContain('Required: {"node":"^22.22.2 || >=24.15.0"}');
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    }, 60_000);
});
