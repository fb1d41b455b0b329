/**
 * Secrets as a mock monitor receives them. The SDK hands a secret input to the monitor wrapped in an object marked
 * with its secret signature (`pulumi.runtime.specialSigKey`, `specialSecretSig`); what is not inside such a wrapper
 * would be stored in plain text. Shared by the render, `mara plan`'s policy check and the mocks of `mara-platform/testing`.
 */
import * as pulumi from "@pulumi/pulumi";

/** Whether a monitor input value is a wrapped secret. */
export function isWrappedSecret(value: unknown): boolean {
    return !!value && typeof value === "object" && (value as Record<string, unknown>)[pulumi.runtime.specialSigKey] === pulumi.runtime.specialSecretSig;
}

/** A monitor input value with every secret wrapper replaced by the value inside. */
export function unwrapSecrets(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(unwrapSecrets);
    if (value && typeof value === "object") {
        const v = value as Record<string, unknown>;
        if (isWrappedSecret(v)) return unwrapSecrets(v.value);
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrapSecrets(x)]));
    }
    return value;
}
