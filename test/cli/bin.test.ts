/**
 * The `mara` executable as users start it: the JS shim (bin/mara.js, Sucrase's require hook) through
 * `node`, and `npm run mara --`. Each start is a fresh Node.js process, so only a few runs are made.
 */
import { execFile, spawn } from "child_process";
import * as path from "path";
import { describe, expect, it } from "vitest";

const ROOT = path.join(__dirname, "..", "..");

function cleanEnv(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
    delete env.AWS_REGION;
    delete env.AWS_DEFAULT_REGION;
    return env;
}

function start(cmd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
        execFile(cmd, args, { cwd: ROOT, env: cleanEnv() }, (err, stdout, stderr) => {
            resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
        });
    });
}

/** Starts a command with `input` piped to its standard input. */
function pipeTo(input: string, cmd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
        const child = spawn(cmd, args, { cwd: ROOT, env: cleanEnv() });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d) => (stdout += d));
        child.stderr.on("data", (d) => (stderr += d));
        child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
        child.stdin.end(input);
    });
}

describe("bin/mara.js", () => {
    it("runs a command and returns its exit code", async () => {
        const ok = await start(process.execPath, ["bin/mara.js", "validate", "--config-file", "test/fixtures/Pulumi.minimal-aws.yaml"]);
        expect(ok).toMatchObject({ code: 0, stderr: "" });
        expect(ok.stdout).toContain('configuration of stack "minimal-aws" is valid');

        const bad = await start(process.execPath, ["bin/mara.js", "validate", "--config-file", "test/fixtures/missing.yaml"]);
        expect(bad.code).toBe(2);
        expect(bad.stderr).toContain("mara: stack file test/fixtures/missing.yaml does not exist");
    });

    it("is what `npm run verify` starts: `mara verify`, reading the stack outputs piped to it", async () => {
        const r = await pipeTo(JSON.stringify({ cluster_name: "mara-dev" }), "npm", ["run", "--silent", "verify"]);
        expect(r.code, r.stderr).toBe(1);
        expect(r.stdout).toBe(
            "Application failed health check: no application_url in the stack outputs; is the application deployed? Run: pulumi stack output --json --show-secrets | npx mara verify\n",
        );
    });

    it("is what `npm run mara --` starts", async () => {
        const r = await start("npm", ["run", "--silent", "mara", "--", "list-providers"]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toMatch(/^kubeconfig +MARA: kubeconfig +an existing cluster$/m);
    });
});
