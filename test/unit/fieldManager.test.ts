/**
 * The stable field manager of an object the platform alone writes (components/ownership/fieldManager.ts): one name per
 * resource, the same on every run, within what the API server accepts (at most 128 printable characters,
 * k8s.io/apimachinery pkg/apis/meta/v1/validation ValidateFieldManager).
 */
import { describe, expect, it } from "vitest";
import { FIELD_MANAGER_MAX_LENGTH, soleOwnerAnnotations, stableFieldManager, stableManagerAnnotations } from "../../components/ownership/fieldManager";

/** The API server's rule, as ValidateFieldManager applies it: length, and every character printable (ASCII here). */
const accepted = (m: string) => m.length <= FIELD_MANAGER_MAX_LENGTH && /^[\x20-\x7e]+$/.test(m);

describe("the stable field manager", () => {
    it("is mara-<resource name>, the same on every call", () => {
        expect(stableFieldManager("bank-of-sirius-accounts-db")).toBe("mara-bank-of-sirius-accounts-db");
        expect(stableFieldManager("bank-of-sirius-accounts-db")).toBe(stableFieldManager("bank-of-sirius-accounts-db"));
    });

    it("replaces what the API server would refuse, or a reader would misread (control characters, spaces, non-ASCII, slashes)", () => {
        for (const name of ["bank\nof\tsirius", "bank of sirius", "bänk-øf-sirius", "team/app", "a\u0000b", "\u202eevil"]) {
            const m = stableFieldManager(name);
            expect(accepted(m), JSON.stringify(m)).toBe(true);
            expect(m).toMatch(/^mara-[A-Za-z0-9._-]+$/);
        }
    });

    it("cuts a name too long for the API server and keeps two long names apart by a digest of each", () => {
        const long = `app-${"x".repeat(300)}`;
        const a = stableFieldManager(`${long}-accounts-db`);
        const b = stableFieldManager(`${long}-ledger-db`);
        expect(a.length).toBe(FIELD_MANAGER_MAX_LENGTH);
        expect(accepted(a)).toBe(true);
        expect(a).not.toBe(b);
        expect(a).toBe(stableFieldManager(`${long}-accounts-db`));
        // A name exactly at the limit is kept as it is.
        const edge = "y".repeat(FIELD_MANAGER_MAX_LENGTH - "mara-".length);
        expect(stableFieldManager(edge)).toBe(`mara-${edge}`);
    });

    it("comes with force, as the provider reads its annotations", () => {
        expect(soleOwnerAnnotations("bank-of-sirius-ledger-db")).toEqual({ "pulumi.com/patchFieldManager": "mara-bank-of-sirius-ledger-db", "pulumi.com/patchForce": "true" });
        expect(stableManagerAnnotations("bank-of-sirius-frontend")).toEqual({ "pulumi.com/patchFieldManager": "mara-bank-of-sirius-frontend" });
    });
});
