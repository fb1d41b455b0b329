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
