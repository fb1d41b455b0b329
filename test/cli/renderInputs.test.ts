/**
 * What `mara render` takes from outside the stack file — the deploy-time values of `--from-stack` and its options —
 * is checked by the form of the field it fills, with the same rules as the configuration (contracts/names.ts),
 * before anything is rendered: a host name with a line break, a 100,000-character host, a registry URL with a scheme
 * where an image repository belongs, a store name Kubernetes refuses. Each is refused with the key, the value, what
 * is allowed and the fix, and nothing is written.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { DEPLOY_VALUES, deployValueProblems, deployValues } from "../../render/deployValues";
import { runMara } from "./support/io";

const FIXTURES = path.join(__dirname, "..", "fixtures");
const STACK = path.join(FIXTURES, "Pulumi.minimal-aws.yaml");
const RECORDED = JSON.parse(fs.readFileSync(path.join(FIXTURES, "render", "outputs.minimal-aws.json"), "utf8")) as Record<string, unknown>;
const made: string[] = [];
const tmp = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-render-inputs-"));
    made.push(dir);
    return dir;
};
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

async function renderWith(outputs: Record<string, unknown>, extra: string[] = []) {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, "outputs.json"), JSON.stringify(outputs));
    const r = await runMara(["render", "-c", STACK, "--out", "out", "--secret-store", "vault", "--secret-store-provider", "vault", "--from-stack", "outputs.json", ...extra], { cwd: dir });
    expect(fs.existsSync(path.join(dir, "out")), "nothing is written").toBe(false);
    expect(r.stdout).toBe("");
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+|unexpected error/);
    return r;
}

describe("deploy-time values from --from-stack are checked by their form", () => {
    it("a host name with a line break", async () => {
        const r = await renderWith({ ...RECORDED, lb_ingress_hostname: "lb.example.com\nevil: true" });
        expect(r.code).toBe(1);
        expect(r.stderr).toContain("error: outputs.json has a value no manifest may hold, so nothing was rendered:");
        expect(r.stderr).toContain('1. stack output lb_ingress_hostname = "lb.example.com\\nevil: true": contains white space or control characters');
        expect(r.stderr).toContain("Fix: correct or remove lb_ingress_hostname in outputs.json");
    }, 120_000);

    it("a host of 100,000 characters, shown by its start and length", async () => {
        const r = await renderWith({ ...RECORDED, lb_ingress_hostname: `${"a".repeat(100_000)}.example.com` });
        expect(r.code).toBe(1);
        expect(r.stderr).toContain("(100012 characters)\": is 100012 characters long (a DNS name has at most 253)");
        expect(r.stderr.length).toBeLessThan(2_000);
    });

    it("a registry URL with a scheme where an image repository belongs, a digest of the wrong form, and a number: all listed", async () => {
        const r = await renderWith({ ...RECORDED, repository_url: "https://210987654321.dkr.ecr.us-east-1.amazonaws.com/mara-nginx-ingress", kic_image_digest: "sha256:XYZ", lb_ingress_ip: 42 });
        expect(r.code).toBe(1);
        expect(r.stderr).toContain("has 3 values no manifest may hold");
        expect(r.stderr).toContain('stack output repository_url = "https://210987654321.dkr.ecr.us-east-1.amazonaws.com/mara-nginx-ingress": starts with a URL scheme (leave out http:// or https://). Allowed: an image repository with its registry host');
        expect(r.stderr).toContain('stack output kic_image_digest = "sha256:XYZ": is not a sha256 digest');
        expect(r.stderr).toContain("stack output lb_ingress_ip = \"42\": is not text");
    });

    it("a repository with a tag, and one without a registry host", () => {
        expect(deployValueProblems({ repository_url: "registry.example.com/team/nginx-ingress:5.5.4" }, "f")[0]?.problem).toBe("names a tag or digest; a repository has neither");
        expect(deployValueProblems({ repository_url: "team/nginx-ingress" }, "f")[0]?.problem).toBe("names no registry host (such as registry.example.com/team/image)");
    });

    it("the recorded outputs of a real stack pass, and a value of the wrong form never becomes a manifest's value", () => {
        expect(deployValueProblems(RECORDED, "outputs.json")).toEqual([]);
        const values = deployValues({ lb_ingress_hostname: "a\nb", repository_url: "https://x.example/r" });
        expect(values.value("loadBalancerHostname")).toBe(DEPLOY_VALUES.loadBalancerHostname.placeholder);
        expect(values.value("registryRepository")).toBe(DEPLOY_VALUES.registryRepository.placeholder);
    });
});

describe("render's options are checked by their form", () => {
    const base = ["render", "-c", STACK, "--out", "out"];

    it.each([["Vault_Prod"], [""], ["a".repeat(254)], ["vault\nprod"]])("--secret-store %j, which Kubernetes refuses as a name", async (store) => {
        const dir = tmp();
        const r = await runMara([...base, "--secret-store", store], { cwd: dir });
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(/^mara: --secret-store ".*" (is empty|is \d+ characters long \(at most 253\)|has characters or a form Kubernetes refuses in a name)\. Allowed: a Kubernetes object name: lower-case letters, digits, '-' and '\.'/);
        expect(r.stderr).toContain("Fix: give the store's name as `kubectl get clustersecretstores` lists it");
        expect(fs.existsSync(path.join(dir, "out"))).toBe(false);
    });

    it("a dotted store name Kubernetes accepts goes on to the next check", async () => {
        const r = await runMara([...base, "--secret-store", "vault.prod", "--secret-store-provider", "vault", "--kube-version", "99"], { cwd: tmp() });
        expect(r.code).toBe(2);
        expect(r.stderr).toContain('mara: --kube-version "99" is not a Kubernetes minor version such as "1.35"');
    });

    it("a remote key prefix with a line break", async () => {
        const r = await runMara([...base, "--secret-store", "vault", "--secret-store-provider", "vault", "--remote-key-prefix", "mara/\nx"], { cwd: tmp() });
        expect(r.code).toBe(2);
        expect(r.stderr).toContain('mara: --remote-key-prefix "mara/\\nx" contains white space or control characters');
    });
});
