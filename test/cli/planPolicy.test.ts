/**
 * `mara plan --policy`: the policy pack over what the program would deploy, offline. The platform passes; a rule
 * raised to mandatory by the pack's configuration fails the command; a configuration with a mistake is refused
 * before anything runs.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { runMara } from "./support/io";

const STACK = path.join(__dirname, "..", "fixtures", "Pulumi.minimal-aws.yaml");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-plan-policy-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const configFile = (name: string, config: unknown) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, JSON.stringify(config));
    return file;
};

describe("mara plan --policy", () => {
    it("reports no mandatory violation for the platform, the advisory one, and what a first preview cannot judge", async () => {
        const r = await runMara(["plan", "--config-file", STACK, "--policy"]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toMatch(/Policy pack mara-guardrails \(\d+ rules, docs\/policy\.md\): 0 mandatory and 1 advisory violation\n/);
        expect(r.stdout).toContain("  warning [aws-eks-public-endpoint] eks:index:Cluster::eks-cluster: EKS cluster \"eks-cluster\"'s public API endpoint admits every address");
        expect(r.stdout).toContain("    [ingress-class] kubernetes:networking.k8s.io/v1:Ingress::bank-of-sirius-ingress: spec.ingressClassName");
    }, 120_000);

    it("fails when the configuration makes a broken rule mandatory, and reports it in the JSON plan", async () => {
        const strict = configFile("strict.json", { "aws-eks-public-endpoint": { enforcementLevel: "mandatory", allowedCidrs: ["203.0.113.0/24"] } });
        const r = await runMara(["plan", "--config-file", STACK, "--policy-config", strict, "--json"]);
        expect(r.code).toBe(1);
        const plan = JSON.parse(r.stdout) as { policy: { violations: { rule: string; level: string }[] } };
        expect(plan.policy.violations).toEqual([expect.objectContaining({ rule: "aws-eks-public-endpoint", level: "mandatory" })]);
        expect(r.stderr).toContain("error [aws-eks-public-endpoint]");
    }, 120_000);

    it("refuses a configuration naming a rule or setting that does not exist, before running anything", async () => {
        const wrong = configFile("wrong.json", { "ingress-tsl": "advisory", "ingress-class": { name: "x" } });
        const r = await runMara(["plan", "--config-file", STACK, "--policy-config", wrong]);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain('"ingress-tsl" is not a rule; the rules are container-resources,');
        expect(r.stderr).toContain('"ingress-class" has no setting "name"');
        expect(r.stdout).toBe("");
    });
});
