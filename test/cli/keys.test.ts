/** Command-line keys and the provider lock: pure helpers behind `init` and the operations. */
import { describe, expect, it } from "vitest";
import { checkValue, keyIdOf, parseSetFlags, storedKey } from "../../cli/init/keys";
import { checkProviderLock, configuredInfraType, parseInfraType } from "../../cli/stack/providerLock";

describe("keys on the command line", () => {
    it("finds a key by its canonical name, MARA's name, or a bare project key", () => {
        expect(keyIdOf("mara:eksMinSize")).toBe("eksMinSize");
        expect(keyIdOf("eks:min_size")).toBe("eksMinSize");
        expect(keyIdOf("eksMinSize")).toBe("eksMinSize");
        expect(keyIdOf("kubernetes:infra_type")).toBe("infraType");
        expect(keyIdOf("eks:nope")).toBeUndefined();
    });

    it("parses values with the program's types and stores the normalised form", () => {
        expect(checkValue("infraType", "LKE")).toEqual({ ok: true, value: "linode" });
        expect(checkValue("vpcAzs", "us-east-1a, us-east-1b")).toEqual({ ok: true, value: '["us-east-1a","us-east-1b"]' });
        expect(checkValue("eksMinSize", "-1")).toEqual({ ok: false, reason: "is negative. Allowed: a whole number from 0 to 450 nodes" });
        expect([...parseSetFlags(["kic-helm:fqdn=Mara.Example.com.", "aws:region=us-east-1"])]).toEqual([
            ["fqdn", "mara.example.com"],
            ["awsRegion", "us-east-1"],
        ]);
    });

    it("stores a key under the name the stack file already uses", () => {
        expect(storedKey("eksMinSize", { "eks:min_size": "3" })).toBe("eks:min_size");
        expect(storedKey("eksMinSize", {})).toBe("mara:eksMinSize");
        expect(storedKey("eksMinSize", { "eks:min_size": "3", "mara:eksMinSize": "3" })).toBe("mara:eksMinSize");
    });
});

describe("the provider lock", () => {
    it("reads the configured type in any spelling", () => {
        expect(configuredInfraType({ "kubernetes:infra_type": "DO" })).toBe("digitalocean");
        expect(configuredInfraType({ "mara:infraType": "aws", "kubernetes:infra_type": "LKE" })).toBe("aws");
        expect(configuredInfraType({})).toBeUndefined();
        expect(parseInfraType("AWS")).toBe("aws");
        expect(() => parseInfraType("gcp")).toThrow('unknown provider "gcp": use one of aws, digitalocean, linode, kubeconfig');
    });

    it("allows the same type, a first choice and --force; refuses a change", () => {
        expect(() => checkProviderLock("dev", { configured: "aws", deployed: "aws" }, "aws", false)).not.toThrow();
        expect(() => checkProviderLock("dev", {}, "linode", false)).not.toThrow();
        expect(() => checkProviderLock("dev", { configured: "aws" }, "linode", true)).not.toThrow();
        expect(() => checkProviderLock("dev", { configured: "aws" }, "linode", false)).toThrow(
            'stack "dev" has already been used with the provider [aws] (its config says aws), so it cannot be run with the provider [linode]',
        );
        expect(() => checkProviderLock("dev", { configured: "linode", deployed: "aws" }, undefined, false)).toThrow("(it was deployed with aws)");
    });
});
