/** mara:admissionPolicies: none by default (no policies), a mode when set, and a clear refusal of anything else. */
import { describe, expect, it } from "vitest";
import { validateConfig } from "../../config";
import { platformArgsFromConfig } from "../../program/platformArgs";
import { aws, KUBECONFIG_TEXT, rawConfig, TEST_DAY } from "../support/config";
import { formatProblem } from "../../config";
import { admissionVersionProblem } from "../../components/admissionPolicies/settings";

const existing = (values: Record<string, string> = {}) => rawConfig({ "mara:infraType": "kubeconfig", "mara:kubeconfig": KUBECONFIG_TEXT, "mara:fqdn": "mara.lab.example.org", ...values });

describe("mara:admissionPolicies", () => {
    it("is none by default, and the Platform gets no guardrails", () => {
        const { config } = validateConfig(aws());
        expect(config!.admissionPolicies).toEqual({ mode: "none", scope: "cluster" });
        expect(platformArgsFromConfig(config!, { platform: { containerLogPath: "/var/log/containers" } } as never).admissionPolicies).toBeUndefined();
    });

    it("hands a mode to the Platform, in any case", () => {
        const { config } = validateConfig(aws({ "mara:admissionPolicies": "Deny" }));
        expect(platformArgsFromConfig(config!, { platform: { containerLogPath: "/var/log/containers" } } as never).admissionPolicies).toEqual({ mode: "deny", scope: "cluster", namespaces: ["bos"] });
    });

    it("is still read as MaraConfig.guardrails, the section's deprecated name", () => {
        const { config } = validateConfig(existing({ "mara:admissionPolicies": "warn", "mara:admissionPolicyScope": "cluster" }));
        expect(config!.admissionPolicies).toEqual({ mode: "warn", scope: "cluster" });
        expect(config!.guardrails).toEqual({ admissionPolicies: "warn", scope: "cluster" });
    });

    it("refuses what is not a mode, naming the modes and the fix", () => {
        expect(validateConfig(aws({ "mara:admissionPolicies": "strict" })).problems).toEqual([
            {
                key: "mara:admissionPolicies",
                value: "strict",
                problem: "is not a known value",
                allowed: 'one of "none", "audit", "warn", "deny"',
                fix: "pulumi config set mara:admissionPolicies none",
            },
        ]);
    });

    it("judges the platform's namespaces on an existing cluster and the whole cluster on one the stack creates, unless mara:admissionPolicyScope says", () => {
        const scope = (raw: ReturnType<typeof aws>) => validateConfig(raw).config!.admissionPolicies.scope;
        expect(scope(existing({ "mara:admissionPolicies": "deny" }))).toBe("platform");
        expect(scope(aws({ "mara:admissionPolicies": "deny" }))).toBe("cluster");
        expect(scope(existing({ "mara:admissionPolicies": "deny", "mara:admissionPolicyScope": "Cluster" }))).toBe("cluster");
        expect(scope(aws({ "mara:admissionPolicies": "deny", "mara:admissionPolicyScope": "platform" }))).toBe("platform");
        expect(validateConfig(existing({ "mara:admissionPolicyScope": "namespace" })).problems.map(formatProblem)).toEqual([
            'mara:admissionPolicyScope = "namespace": is not a known value. Allowed: one of "platform", "cluster". Fix: pulumi config set mara:admissionPolicyScope platform',
        ]);
        expect(validateConfig(existing({ "mara:admissionPolicyScope": "cluster" })).warnings).toContain("mara:admissionPolicyScope = cluster does nothing while mara:admissionPolicies is none: no admission policies are installed.");
    });

    it("hands the program's namespaces to the Platform: the application's, and Argo CD's where it installs it", () => {
        const cfg = validateConfig(existing({ "mara:admissionPolicies": "warn" })).config!;
        expect(platformArgsFromConfig(cfg, { platform: { containerLogPath: "/var/log/containers" } } as never).admissionPolicies).toEqual({ mode: "warn", scope: "platform", namespaces: [cfg.application.namespace] });
    });

    it("refuses policies on a cluster version that does not serve ValidatingAdmissionPolicy v1 (before 1.30), and accepts 1.30", () => {
        expect(admissionVersionProblem("1.29")).toBe(
            "Kubernetes 1.29 does not serve admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy, which the admission policies are (GA and on by default from 1.30; 1.28 and 1.29 serve only v1beta1, where the cluster's owner turns it on)",
        );
        expect(admissionVersionProblem("1.29.15-do.0")).toContain("Kubernetes 1.29 does not serve");
        expect(admissionVersionProblem("v1.9")).toContain("Kubernetes 1.9 does not serve");
        expect(admissionVersionProblem("1.30")).toBeUndefined();
        expect(admissionVersionProblem("1.30.0-do.0")).toBeUndefined();
        expect(admissionVersionProblem("latest")).toBeUndefined();
        // EKS still created 1.29 clusters in 2025 (extended support): the version passes, the policies do not.
        const old = aws({ "mara:admissionPolicies": "deny", "mara:eksVersion": "1.29" }, { today: new Date("2025-06-01") });
        expect(TEST_DAY).not.toBe("2025-06-01");
        expect(validateConfig(old).problems.map(formatProblem)).toEqual([
            'mara:admissionPolicies = "deny": installs ValidatingAdmissionPolicies, but mara:eksVersion is 1.29: Kubernetes 1.29 does not serve admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy, which the admission policies are (GA and on by default from 1.30; 1.28 and 1.29 serve only v1beta1, where the cluster\'s owner turns it on). Allowed: none on a cluster older than 1.30; audit, warn or deny on 1.30 or later. Fix: pulumi config set mara:eksVersion 1.30 or later, or pulumi config set mara:admissionPolicies none',
        ]);
        expect(validateConfig(aws({ "mara:eksVersion": "1.29" }, { today: new Date("2025-06-01") })).problems).toEqual([]);
    });
});
