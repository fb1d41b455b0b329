import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { Secrets } from "../../components";
import { installMocks, ofType, promiseOf, settle } from "../support/mocks";

describe("Secrets", () => {
    it("uses configured values and generates the missing ones once, all as secrets", async () => {
        const { registrations } = await installMocks();
        const s = new Secrets("secrets", { grafanaAdminPassword: pulumi.secret("from-config"), demoUser: "alice" });
        await settle();
        const generated = ofType(registrations, "random:index/randomPassword:RandomPassword");
        expect(generated.map((r) => r.name).sort()).toEqual(["secrets-accounts-db", "secrets-demo-login", "secrets-ledger-db", "secrets-log-agent"]);
        for (const r of generated) expect(r.inputs).toMatchObject({ length: 24, special: false });
        expect(await promiseOf(s.grafanaAdminPassword)).toBe("from-config");
        expect(await promiseOf(s.accountsDbPassword)).toBe("generated-secrets-accounts-db");
        expect(await promiseOf(s.demoUser)).toBe("alice");
        for (const out of [s.grafanaAdminPassword, s.accountsDbPassword, s.ledgerDbPassword, s.demoUser, s.demoPassword, s.logAgentPassword]) {
            expect(await pulumi.isSecret(out)).toBe(true);
        }
    });

    it("rejects passwords shorter than 16 characters", async () => {
        await installMocks();
        expect(() => new Secrets("s", { length: 8 })).toThrow("Secrets: length must be a whole number of at least 16; got 8.");
    });
});
