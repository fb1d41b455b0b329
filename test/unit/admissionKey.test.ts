/** mara:admissionPolicies: none by default (no policies), a mode when set, and a clear refusal of anything else. */
import { describe, expect, it } from "vitest";
import { validateConfig } from "../../config";
import { platformArgsFromConfig } from "../../program/platformArgs";
import { aws } from "../support/config";

describe("mara:admissionPolicies", () => {
    it("is none by default, and the Platform gets no guardrails", () => {
        const { config } = validateConfig(aws());
        expect(config!.guardrails).toEqual({ admissionPolicies: "none" });
        expect(platformArgsFromConfig(config!, { platform: { containerLogPath: "/var/log/containers" } } as never).guardrails).toBeUndefined();
    });

    it("hands a mode to the Platform, in any case", () => {
        const { config } = validateConfig(aws({ "mara:admissionPolicies": "Deny" }));
        expect(platformArgsFromConfig(config!, { platform: { containerLogPath: "/var/log/containers" } } as never).guardrails).toEqual({ mode: "deny" });
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
});
