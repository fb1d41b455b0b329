/** The fixes checkKubeconfig suggests for a kubeconfig path that is not a usable file: never the path just found wanting. */
import { describe, expect, it } from "vitest";
import { checkKubeconfig } from "../../config/kubeconfigFile";
import type { LocalPath } from "../../config/localPaths";

const KEYS = { kubeconfig: "mara:kubeconfig", context: "mara:kubeContext" };
const files = (found: Record<string, LocalPath>) => ({ baseDir: "/srv/mara", env: { HOME: "/home/ana" }, inspect: (p: string): LocalPath => found[p] ?? { kind: "missing" } });

function fixFor(setting: string, found: Record<string, LocalPath> = {}): string {
    const r = checkKubeconfig(setting, undefined, files(found), KEYS);
    if (r.ok) throw new Error("expected a problem");
    return r.problem.fix;
}

describe("checkKubeconfig's fix for a path that is not a kubeconfig file", () => {
    it("a missing ~/.kube/config: check it, or point the key at your kubeconfig, not at ~/.kube/config again", () => {
        for (const setting of ["~/.kube/config", "/home/ana/.kube/config"]) {
            expect(fixFor(setting)).toBe(
                "check the path with: ls -l /home/ana/.kube/config; or point mara:kubeconfig at your cluster's kubeconfig file, e.g. pulumi config set mara:kubeconfig <path-of-your-kubeconfig>",
            );
        }
    });

    it("another missing path: ~/.kube/config is the example", () => {
        expect(fixFor("./kube/lab.yaml")).toBe(
            "check the path with: ls -l /srv/mara/kube/lab.yaml; or point mara:kubeconfig at your cluster's kubeconfig file, e.g. pulumi config set mara:kubeconfig ~/.kube/config",
        );
    });

    it("a directory or an unreadable file: the same rule", () => {
        expect(fixFor("~/.kube/config", { "/home/ana/.kube/config": { kind: "directory" } })).toContain("pulumi config set mara:kubeconfig <path-of-your-kubeconfig>");
        expect(fixFor("~/.kube/config", { "/home/ana/.kube/config": { kind: "unreadable", reason: "EACCES" } })).toBe(
            "make it readable, or point mara:kubeconfig at your cluster's kubeconfig file, e.g. pulumi config set mara:kubeconfig <path-of-your-kubeconfig>",
        );
        expect(fixFor("/etc/k3s", { "/etc/k3s": { kind: "directory" } })).toContain("pulumi config set mara:kubeconfig ~/.kube/config");
    });
});

describe("checkKubeconfig on YAML that kubectl would refuse", () => {
    // yaml, with its errors silenced, would hand back what it could make of these (an unclosed list as an empty one);
    // sigs.k8s.io/yaml, which kubectl reads kubeconfigs with, refuses them.
    for (const [what, text] of [
        ["an unclosed flow list", "apiVersion: v1\nkind: Config\nclusters: [\n- cluster: {server: https://x}\n"],
        ["a mapping value where none may start", "apiVersion: v1\nkind: Config\nclusters: : x\n"],
        ["a key indented under nothing", "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://x\n   name: c\ncontexts: []\n"],
    ] as const) {
        it(`${what}: not valid YAML, with its line`, () => {
            const r = checkKubeconfig("/srv/mara/kubeconfig", undefined, files({ "/srv/mara/kubeconfig": { kind: "file", text } as LocalPath }), KEYS);
            expect(r.ok).toBe(false);
            if (!r.ok) expect(r.problem.problem).toMatch(/is not a kubeconfig: it is not valid YAML \(line \d+, column \d+\)/);
        });
    }
});
