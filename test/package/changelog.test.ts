/**
 * Every released version's CHANGELOG.md section names the commit it was released from, and that commit is in the
 * history every full clone of main has, so the real-engine tier's upgrade test finds the previous release without
 * tags (a clone of one branch brings none). Where the tag is present it must be on that commit.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { changelogCommit, changelogVersions } from "../engine/previousRelease";

const ROOT = path.join(__dirname, "..", "..");
const git = (...args: string[]) => spawnSync("git", args, { cwd: ROOT, encoding: "utf8", timeout: 30_000 });
const isGit = git("rev-parse", "--is-shallow-repository");
const shallow = isGit.status !== 0 || isGit.stdout.trim() === "true";
const version = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const text = fs.readFileSync(path.join(ROOT, "CHANGELOG.md"), "utf8");
const released = changelogVersions(text).filter((v) => !new RegExp(`^## \\[${v.replace(/\./g, "\\.")}\\] - Unreleased`, "m").test(text));

describe("CHANGELOG.md's released versions", () => {
    it("lists package.json's version, and at least one release before it", () => {
        expect(changelogVersions(text)).toContain(version);
        expect(released.length).toBeGreaterThan(0);
    });

    it.each(released)("%s names the commit it was released from", (v) => {
        expect(changelogCommit(v, text), `CHANGELOG.md's [${v}] section needs a line "Released from commit \`<40-hex sha>\`"`).toMatch(/^[0-9a-f]{40}$/);
    });

    it.skipIf(shallow).each(released)("%s's commit is in main's history, and its tag, where present, is on it", (v) => {
        const sha = changelogCommit(v, text)!;
        expect(git("merge-base", "--is-ancestor", sha, "HEAD").status, `${sha} is not an ancestor of HEAD`).toBe(0);
        const tag = git("rev-parse", "--verify", "--quiet", `refs/tags/v${v}^{commit}`);
        if (tag.status === 0) expect(tag.stdout.trim()).toBe(sha);
    });

    it("changelogCommit reads only its own version's section", () => {
        const sample = "## [0.2.0] - Unreleased\n\nnothing\n\n## [0.1.0] - 2026-01-01\n\nReleased from commit `" + "a".repeat(40) + "`.\n";
        expect(changelogCommit("0.1.0", sample)).toBe("a".repeat(40));
        expect(changelogCommit("0.2.0", sample)).toBeUndefined();
    });
});
