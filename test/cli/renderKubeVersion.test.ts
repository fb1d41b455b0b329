/**
 * `mara render --kube-version` against the admission policies: the policies are admissionregistration.k8s.io/v1
 * ValidatingAdmissionPolicies, which Kubernetes serves from 1.30 on, so a render for an older minor of a stack that
 * installs them is refused before anything is rendered (exit 2, nothing written), as `mara validate` refuses a stack
 * whose own cluster version is older. A stack without policies, or a minor that serves them, goes on to the next check
 * (here: a deploy-time value no manifest may hold, refused cheaply with exit 1).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { runMara } from "./support/io";

const STACK = fs.readFileSync(path.join(__dirname, "..", "fixtures", "Pulumi.minimal-aws.yaml"), "utf8");
const made: string[] = [];
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

async function render(mode: string | undefined, kubeVersion: string) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-render-kube-"));
    made.push(dir);
    const file = path.join(dir, "Pulumi.dev.yaml");
    fs.writeFileSync(file, mode ? STACK.replace(/^config:\n/m, `config:\n  mara:admissionPolicies: ${mode}\n`) : STACK);
    fs.writeFileSync(path.join(dir, "outputs.json"), JSON.stringify({ lb_ingress_hostname: "bad host" }));
    const r = await runMara(["render", "-c", file, "--out", "out", "--secret-store", "vault", "--secret-store-provider", "vault", "--from-stack", "outputs.json", "--kube-version", kubeVersion], { cwd: dir });
    expect(fs.existsSync(path.join(dir, "out")), "nothing is written").toBe(false);
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+|unexpected error/);
    return r;
}

describe("mara render --kube-version and the admission policies", () => {
    it("refuses a minor before 1.30 for a stack that installs them, naming the flag, the key and the fix", async () => {
        const r = await render("deny", "1.29");
        expect(r.code).toBe(2);
        expect(r.stderr).toBe(
            "mara: --kube-version 1.29: the stack installs admission policies (mara:admissionPolicies deny), but Kubernetes 1.29 does not serve admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy, which the admission policies are (GA and on by default from 1.30; 1.28 and 1.29 serve only v1beta1, where the cluster's owner turns it on). Fix: --kube-version 1.30 or later, or pulumi config set mara:admissionPolicies none\n",
        );
    });

    it("goes on at 1.30, and for a stack without policies at 1.29", async () => {
        for (const [mode, version] of [["audit", "1.30"], [undefined, "1.29"], ["none", "1.28"]] as const) {
            const r = await render(mode, version);
            expect(r.code, `${mode} ${version}: ${r.stderr}`).toBe(1);
            expect(r.stderr).toContain("has a value no manifest may hold");
        }
    });
});
