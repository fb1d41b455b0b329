/**
 * PulumiOperator for a library user, under mocks: literal arguments are checked as git, the operator and Pulumi check
 * them (a credential in the URL, a revision that is an option or a SHA-256 commit the operator cannot check out, a
 * folder outside the repository, a stack name Pulumi refuses, a credential that does not fit the URL), before any
 * child exists; and the Stack's name fits the CRD's 42-character rule.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { PulumiOperator } from "../../components/pulumiOperator";
import { isFullCommit, STACK_NAME, stackSpec } from "../../components/pulumiOperator/stack";
import { installMocks, settle } from "../support/mocks";

const SOURCE = { repoUrl: "https://git.example.com/org/platform-config.git", revision: "main", path: "deploy/prod" };
const ARGS = { source: SOURCE, stack: "acme/prod" };

describe("PulumiOperator refuses literal arguments the operator, git or Pulumi would refuse", () => {
    const cases: [string, ConstructorParameters<typeof PulumiOperator>[1], string][] = [
        ["a token in the URL", { ...ARGS, source: { ...SOURCE, repoUrl: "https://x:ghp_secret@git.example.com/o/r.git" } }, "PulumiOperator: source.repoUrl holds a credential"],
        ["a revision that is an option", { ...ARGS, source: { ...SOURCE, revision: "--orphan" } }, `PulumiOperator: source.revision "--orphan" starts with '-'`],
        ["a SHA-256 commit", { ...ARGS, source: { ...SOURCE, revision: "a".repeat(64) } }, "is a SHA-256 commit, which the operator cannot check out"],
        ["a folder outside the repository", { ...ARGS, source: { ...SOURCE, path: "../other" } }, `PulumiOperator: source.path "../other" has a '..' segment`],
        ["a stack name with a space", { ...ARGS, stack: "prod stack" }, `PulumiOperator: stack "prod stack" has the part "prod stack"`],
        ["a stack name of four parts", { ...ARGS, stack: "a/b/c/d" }, "has 4 parts"],
        ["an SSH key for an https URL", { ...ARGS, repository: { sshPrivateKey: pulumi.secret("k") } }, "PulumiOperator: repository holds an SSH key, and source.repoUrl is an HTTP(S) URL"],
    ];
    for (const [name, args, message] of cases) {
        it(name, async () => {
            const { registrations } = await installMocks();
            expect(() => new PulumiOperator("op", args)).toThrow(message);
            await settle();
            expect(registrations.filter((r) => r.custom)).toEqual([]);
        });
    }

    it("fitting arguments make the Stack, with no Secret when there is no credential", async () => {
        const { registrations } = await installMocks();
        new PulumiOperator("op", ARGS);
        await settle();
        expect(registrations.filter((r) => r.type === "kubernetes:pulumi.com/v1:Stack").length).toBe(1);
        expect(registrations.filter((r) => r.type === "kubernetes:core/v1:Secret")).toEqual([]);
    });
});

describe("the Stack", () => {
    it("is named within the CRD's rule (size(self.metadata.name) <= 42)", () => {
        expect(STACK_NAME.length).toBeLessThanOrEqual(42);
    });

    it("takes 40 hex digits for a commit, as the operator's plumbing.IsHash does; anything else is a branch or tag", () => {
        expect(isFullCommit("0123456789abcdef0123456789abcdef01234567")).toBe(true);
        expect(isFullCommit("0123456789abcdef0123456789abcdef0123456")).toBe(false);
        expect(isFullCommit("0123456789abcdef0123456789abcdef012345678")).toBe(false);
        const spec = (revision: string) => stackSpec({ source: { ...SOURCE, revision }, stack: "s", accessToken: false, passphrase: false, repositoryCredential: false });
        expect(spec("v1.2.3")).toMatchObject({ branch: "v1.2.3" });
        expect(spec("0123456789ABCDEF0123456789abcdef01234567")).toMatchObject({ commit: "0123456789ABCDEF0123456789abcdef01234567" });
        expect(spec("main")).not.toHaveProperty("gitAuthSecret");
    });
});
