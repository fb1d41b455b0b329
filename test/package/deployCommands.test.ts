/**
 * The deploy commands the README and each provider page tell a new user to type must make a stack that
 * validation accepts: a documented `pulumi config set` that the program then refuses is a front door that
 * does not open. Each page's first `sh` block under its deploy heading is read as a user would run it: its
 * `pulumi config set` lines become the stack file, its `export` lines the environment.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { formatProblem, validateConfig } from "../../config";
import { KUBECONFIG_TEXT, rawConfig } from "../support/config";

const ROOT = path.join(__dirname, "..", "..");
const HOME = "/home/newcomer";

/** The first ```sh block after the heading that starts with `heading`. */
function deployBlock(file: string, heading: string): string[] {
    const lines = fs.readFileSync(path.join(ROOT, file), "utf8").split("\n");
    const start = lines.findIndex((l) => l.startsWith(heading));
    expect(start, `${file} has a "${heading}" section`).toBeGreaterThanOrEqual(0);
    const open = lines.findIndex((l, i) => i > start && l.startsWith("```sh"));
    const close = lines.findIndex((l, i) => i > open && l.startsWith("```"));
    return lines.slice(open + 1, close).map((l) => l.replace(/\s+#.*$/, "").trim());
}

/** The stack and environment those commands make. */
function stackOf(commands: string[]): { values: Record<string, string>; secret: string[]; env: Record<string, string> } {
    const values: Record<string, string> = {};
    const secret: string[] = [];
    const env: Record<string, string> = { HOME };
    for (const c of commands) {
        const set = /^pulumi config set (--secret )?(\S+) (.+)$/.exec(c);
        if (set) {
            values[set[2]!] = set[3]!.replace(/^'(.*)'$/, "$1");
            if (set[1]) secret.push(set[2]!);
        }
        const exported = /^export (\w+)=(.*)$/.exec(c);
        // "export X=..." stands for the user's own token.
        if (exported) env[exported[1]!] = exported[2] === "..." ? "token-of-the-user" : exported[2]!.replace(/^'(.*)'$/, "$1");
    }
    return { values, secret, env };
}

const PAGES = [
    { file: "README.md", heading: "## Deploy to AWS", infra: "aws" },
    { file: "docs/providers/digitalocean.md", heading: "## Deploy", infra: "digitalocean" },
    { file: "docs/providers/linode.md", heading: "## Deploy", infra: "linode" },
    { file: "docs/providers/kubeconfig.md", heading: "## Deploy", infra: "kubeconfig" },
];

describe("the documented deploy commands", () => {
    for (const page of PAGES) {
        it(`${page.file}: make a stack that validation accepts`, () => {
            const { values, secret, env } = stackOf(deployBlock(page.file, page.heading));
            expect(Object.keys(values).length).toBeGreaterThan(0);
            // The kubeconfig the page points at, holding the context it names.
            const context = values["kubernetes:context_name"] ?? "lab-admin";
            const kubeconfig = KUBECONFIG_TEXT.replace(/lab-admin/g, context);
            const result = validateConfig(
                rawConfig(values, { secret, env, files: { [path.join(HOME, ".kube", "config")]: kubeconfig } }),
            );
            expect(result.problems.map(formatProblem)).toEqual([]);
            expect(result.config?.infra.type).toBe(page.infra);
        });
    }
});

describe("the fix hint for a missing required setting", () => {
    it("on Linode, suggests a region and a Kubernetes version that validation then accepts", () => {
        const given = { "kubernetes:infra_type": "LKE", "kic-helm:fqdn": "mara.example.com" };
        const env = { LINODE_TOKEN: "token-of-the-user" };
        const missing = validateConfig(rawConfig(given, { env })).problems;
        expect(missing.map((p) => `${p.key} ${p.problem}`)).toEqual(["linode:region is not set", "linode:k8s_version is not set"]);
        const fixed: Record<string, string> = { ...given };
        for (const p of missing) {
            const set = /^pulumi config set (\S+) (\S+)$/.exec(p.fix ?? "");
            expect(set, p.fix).not.toBeNull();
            fixed[set![1]!] = set![2]!;
        }
        const result = validateConfig(rawConfig(fixed, { env }));
        expect(result.problems.map(formatProblem)).toEqual([]);
    });
});
