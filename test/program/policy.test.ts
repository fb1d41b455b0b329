/**
 * The platform follows its own guardrails: the whole program, from every infrastructure fixture, as `pulumi up` and
 * as a first `pulumi preview`, run through the policy pack. No mandatory rule is broken; the advisory findings are
 * exactly the documented exceptions (docs/policy.md); and a first preview leaves unjudged only what cannot be known
 * before deployment (the Ingress's class and host, from the ingress controller's outputs).
 */
import * as fs from "fs";
import { describe, expect, it } from "vitest";
import type { RecordedResource } from "../../offline/run";
import { checkPolicies, PolicyReport } from "../../cli/plan/policyCheck";
import { KUBERNETES_RULES } from "../../policy/kubernetes";
import { aws, FIXTURES, fixture } from "../support/config";
import { runProgram } from "../support/program";

const NAMES = fs.readdirSync(FIXTURES).flatMap((f) => /^Pulumi\.(.+)\.yaml$/.exec(f)?.[1] ?? []).sort();
const SECRETS = { "mara:grafanaAdminPassword": "grafana-pw", "digitalocean:token": "do-token", "linode:token": "linode-token" };

/** The advisory findings each cloud's platform has by default: its cluster API is open to every address. */
const EXPECTED_ADVISORY: Readonly<Record<string, string[]>> = {
    aws: ['aws-eks-public-endpoint eks:index:Cluster::eks-cluster'],
    digitalocean: ["digitalocean-control-plane-firewall digitalocean:index/kubernetesCluster:KubernetesCluster::doks-cluster"],
    linode: ["linode-control-plane-acl linode:index/lkeCluster:LkeCluster::lke-cluster"],
    kubeconfig: [],
};

const cloudOf = (name: string) => (name.endsWith("-do") ? "digitalocean" : name.endsWith("-lke") ? "linode" : name.endsWith("-kubeconfig") ? "kubeconfig" : "aws");

async function report(name: string, preview: boolean): Promise<PolicyReport> {
    const run = await runProgram(fixture(name, { secrets: SECRETS }), { preview });
    expect(run.error).toBeUndefined();
    return checkPolicies(run.registrations as unknown as RecordedResource[]);
}

describe.each(NAMES)("the platform on %s", (name) => {
    it("as pulumi up: breaks no mandatory rule, and only the documented advisory ones", async () => {
        const r = await report(name, false);
        expect(r.violations.filter((v) => v.level === "mandatory")).toEqual([]);
        expect(r.violations.map((v) => `${v.rule} ${v.resource}`)).toEqual(EXPECTED_ADVISORY[cloudOf(name)]);
        expect(r.notJudged).toEqual([]);
    }, 120_000);

    it("as a first preview: the same, with only the Ingress's class and host left for deployment", async () => {
        const r = await report(name, true);
        expect(r.violations.filter((v) => v.level === "mandatory")).toEqual([]);
        expect(r.violations.map((v) => `${v.rule} ${v.resource}`)).toEqual(EXPECTED_ADVISORY[cloudOf(name)]);
        for (const n of r.notJudged) {
            expect(n.resource).toBe("kubernetes:networking.k8s.io/v1:Ingress::bank-of-sirius-ingress");
            expect(["ingress-class", "ingress-tls"]).toContain(n.rule);
        }
    }, 120_000);
});

describe("the platform with mara:admissionPolicies: deny", () => {
    it("installs a policy and a binding per rule under the Platform, and still breaks no mandatory rule", async () => {
        const run = await runProgram(aws({ "mara:admissionPolicies": "deny" }));
        expect(run.error).toBeUndefined();
        const count = (kind: string) => run.registrations.filter((r) => r.type === `kubernetes:admissionregistration.k8s.io/v1:${kind}`).length;
        expect([count("ValidatingAdmissionPolicy"), count("ValidatingAdmissionPolicyBinding")]).toEqual([KUBERNETES_RULES.length, KUBERNETES_RULES.length]);
        const component = run.registrations.find((r) => r.type === "mara:k8s:AdmissionPolicies")!;
        expect(component.name).toBe("platform-admission-policies");
        const r = await checkPolicies(run.registrations as unknown as RecordedResource[]);
        expect(r.violations.filter((v) => v.level === "mandatory")).toEqual([]);
    }, 120_000);
});
