/**
 * A stack of one's own without the Pulumi CLI: where `mara plan` and `mara validate` find no stack file, they
 * say how to make one offline from the project's commented example, and the command they print, run as printed,
 * makes a stack they accept.
 */
import { execSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_STACK_FILE } from "../../cli/stack/stackSource";
import { PULUMI_YAML } from "../support/config";
import { runMara } from "./support/io";

const ROOT = path.join(__dirname, "..", "..");
let project: string;
beforeAll(() => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), "mara-offline-stack-"));
    fs.copyFileSync(PULUMI_YAML, path.join(project, "Pulumi.yaml"));
    fs.copyFileSync(path.join(ROOT, EXAMPLE_STACK_FILE), path.join(project, EXAMPLE_STACK_FILE));
});
afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

/** The `cp …` command in a message, run with sh in the project directory. */
function runCopyCommand(message: string): void {
    const cp = /offline: (cp \S+ \S+)/.exec(message)?.[1];
    expect(cp, message).toBeDefined();
    execSync(cp!, { cwd: project, shell: "/bin/sh" });
}

describe("no stack file yet", () => {
    it("mara plan names the offline route first, then init, and the copy it names validates", async () => {
        const none = await runMara(["plan"], { cwd: project, projectDir: project });
        expect(none.code).toBe(2);
        expect(none.stderr).toBe(
            "mara: no Pulumi.<stack>.yaml here; pass --config-file PATH or --stack NAME, or create one offline: cp Pulumi.dev.yaml.example Pulumi.dev.yaml (an AWS stack; edit it for another cloud), or with the Pulumi CLI: npx mara init\n",
        );
        runCopyCommand(none.stderr);
        const valid = await runMara(["validate"], { cwd: project, projectDir: project });
        expect(valid.stderr).toBe("");
        expect(valid).toMatchObject({ code: 0, stdout: `${path.join(project, "Pulumi.dev.yaml")}: configuration of stack "dev" is valid (infra type aws).\n` });
    });

    it("mara validate --stack NAME does the same for that stack's file", async () => {
        const none = await runMara(["validate", "--stack", "prod"], { cwd: project, projectDir: project });
        expect(none.code).toBe(2);
        expect(none.stderr).toContain("stack file ./Pulumi.prod.yaml does not exist; create it offline: cp Pulumi.dev.yaml.example Pulumi.prod.yaml");
        expect(none.stderr).toContain("or with the Pulumi CLI: npx mara init --stack prod");
        runCopyCommand(none.stderr);
        expect((await runMara(["validate", "--stack", "prod"], { cwd: project, projectDir: project })).code).toBe(0);
    });
});
