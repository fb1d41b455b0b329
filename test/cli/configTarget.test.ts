/**
 * The `pulumi config` commands the CLI prints as fixes name the stack it checked, and the file when `pulumi`
 * would not find that stack's settings there by itself: run as printed, they change what was validated.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configTarget, targetCommands } from "../../cli/stack/configTarget";
import { PULUMI_YAML } from "../support/config";
import { runMara } from "./support/io";

describe("configTarget and targetCommands", () => {
    it("names the file only when it is not Pulumi.<stack>.yaml in the project directory", () => {
        expect(configTarget({ path: "/srv/mara/Pulumi.prod.yaml", stack: "prod" }, "/srv/mara")).toEqual({ stack: "prod" });
        expect(configTarget({ path: "/srv/mara/Pulumi.prod.yaml", stack: "acme/mara/prod" }, "/srv/mara")).toEqual({ stack: "acme/mara/prod" });
        expect(configTarget({ path: "/home/ana/Pulumi.prod.yaml", stack: "prod" }, "/srv/mara")).toEqual({ stack: "prod", configFile: "/home/ana/Pulumi.prod.yaml" });
    });

    it("adds --stack (and --config-file, quoted for the shell) to every pulumi config set and rm, and nothing else", () => {
        const fix = "pulumi config rm eks:min_size && pulumi config set mara:eksMinSize 3; then run pulumi up";
        expect(targetCommands(fix, { stack: "prod" })).toBe("pulumi config rm --stack prod eks:min_size && pulumi config set --stack prod mara:eksMinSize 3; then run pulumi up");
        expect(targetCommands("pulumi config set --secret k '<value>'", { stack: "dev", configFile: "/home/ana/my stacks/Pulumi.dev.yaml" })).toBe(
            "pulumi config set --stack dev --config-file '/home/ana/my stacks/Pulumi.dev.yaml' --secret k '<value>'",
        );
        expect(targetCommands(fix, undefined)).toBe(fix);
    });
});

describe("mara validate's fixes", () => {
    let project: string;
    let elsewhere: string;
    beforeAll(() => {
        project = fs.mkdtempSync(path.join(os.tmpdir(), "mara-target-project-"));
        elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "mara-target-elsewhere-"));
        fs.copyFileSync(PULUMI_YAML, path.join(project, "Pulumi.yaml"));
        const bad = "config:\n  mara:infraType: aws\n  aws:region: us-east-1\n  mara:eksMinSize: abc\n";
        fs.writeFileSync(path.join(project, "Pulumi.prod.yaml"), bad);
        fs.writeFileSync(path.join(elsewhere, "Pulumi.try.yaml"), bad);
    });
    afterAll(() => [project, elsewhere].forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

    it("with --stack: change that stack, not the selected one", async () => {
        const r = await runMara(["validate", "--stack", "prod"], { cwd: project, projectDir: project });
        expect(r.code).toBe(1);
        expect(r.stderr).toContain("Fix: pulumi config set --stack prod mara:eksMinSize 3");
    });

    it("with -c FILE outside the project: change that file, through its stack", async () => {
        const file = path.join(elsewhere, "Pulumi.try.yaml");
        const r = await runMara(["validate", "-c", file], { cwd: elsewhere, projectDir: project });
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(`Fix: pulumi config set --stack try --config-file ${file} mara:eksMinSize 3`);
    });
});
