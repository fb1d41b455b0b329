/**
 * The configuration half of an add-on of your own (config/addOnKeys.ts) and the Platform's check of add-on names
 * (components/addOn.ts): keys read and reported as the key table's are, in a namespace of their own.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { checkAddOnNames } from "../../components/addOn";
import { addOnKey, addOnSecretKey, formatProblem, integer, oneOf, RawConfig, text, validateAddOnKeys } from "../../config";

const raw = (values: Record<string, string>, secretKeys: string[] = []): RawConfig => ({ project: "p", stack: "s", values, secretKeys: new Set(secretKeys), env: {} });
const KEYS = {
    replicas: addOnKey({ key: "myAddOn:replicas", type: integer(1, 5), default: 2, description: "Replicas." }),
    mode: addOnKey({ key: "myAddOn:mode", type: oneOf<"a" | "b">(["a", "b"]), description: "Mode.", example: "a" }),
    token: addOnSecretKey({ key: "myAddOn:token", type: text({ pattern: /^[xy]$/, allowed: "x or y" }), description: "Token." }),
};

describe("an add-on's own keys", () => {
    it("read defaults, set values and secrets (as secret Outputs)", async () => {
        const r = validateAddOnKeys(KEYS, raw({ "myAddOn:mode": "b", "myAddOn:token": "x" }, ["myAddOn:token"]));
        expect(r.problems).toEqual([]);
        expect(r.values).toMatchObject({ replicas: 2, mode: "b" });
        expect(pulumi.Output.isInstance(r.values!.token)).toBe(true);
        expect(await (r.values!.token as unknown as { isSecret: Promise<boolean> }).isSecret).toBe(true);
    });

    it("report a bad value as the key table's are: key, value, what is allowed, the fix; and no values", () => {
        const r = validateAddOnKeys(KEYS, raw({ "myAddOn:replicas": "9" }));
        expect(r.values).toBeUndefined();
        expect(r.problems.map(formatProblem)).toEqual([expect.stringMatching(/^myAddOn:replicas = "9": .*Allowed: a whole number from 1 to 5.*Fix: pulumi config set myAddOn:replicas \d/)]);
    });

    it("never show a secret's value in a problem", () => {
        const r = validateAddOnKeys(KEYS, raw({ "myAddOn:token": "hunter2-not-allowed" }, ["myAddOn:token"]));
        expect(r.problems.length).toBe(1);
        expect(JSON.stringify(r.problems)).not.toContain("hunter2");
    });

    it("run the add-on's rule only when every key parsed, naming the key that was set", () => {
        const seen: string[] = [];
        validateAddOnKeys(KEYS, raw({ "myAddOn:replicas": "0" }), () => seen.push("ran"));
        expect(seen).toEqual([]);
        const r = validateAddOnKeys(KEYS, raw({}), (v, keyOf, findings) => {
            if (v.mode === undefined) findings.problem({ key: keyOf("mode"), problem: "is not set", allowed: "a or b", fix: "pulumi config set myAddOn:mode a" });
        });
        expect(r.problems.map(formatProblem)).toEqual(["myAddOn:mode: is not set. Allowed: a or b. Fix: pulumi config set myAddOn:mode a"]);
    });

    it("live in a namespace of their own: the platform's and the providers' are refused", () => {
        for (const key of ["mara:x", "kic:x", "certmgr:x", "aws:x", "eks:x", "nonamespace", "a:"]) {
            expect(() => addOnKey({ key, type: integer(1, 2), description: "x" }), key).toThrow(/a namespace of its own/);
        }
    });
});

describe("the Platform's add-on names", () => {
    const addOn = (name: string) => ({ name, create: () => undefined as never });
    it("are DNS labels, each once", () => {
        expect(() => checkAddOnNames([addOn("external-dns"), addOn("karpenter")])).not.toThrow();
        expect(() => checkAddOnNames([addOn("External DNS")])).toThrow('Platform: addOns[].name "External DNS" is not a name of lower-case letters');
        expect(() => checkAddOnNames([addOn("kyverno"), addOn("kyverno")])).toThrow('addOns[].name "kyverno" is given twice');
    });
});
