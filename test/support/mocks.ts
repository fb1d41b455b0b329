/**
 * The tests' Pulumi mocks: the package's own (`mara-platform/testing`, testing/mocks.ts), which record every
 * registration and answer from the simulated cloud, with what only these tests need beside them.
 */
import * as pulumi from "@pulumi/pulumi";
import { isWrappedSecret } from "../../offline/wrappedSecrets";

export { find, installMocks, ofType, promiseOf, settle, type MockOptions, type Registration } from "../../testing/mocks";
export { isWrappedSecret, unwrapSecrets } from "../../offline/wrappedSecrets";
export { sampleKubeconfig } from "../../offline/simulatedCloud";

/** Whether an Output is marked secret. */
export function isSecret(output: pulumi.Output<unknown>): Promise<boolean> {
    return pulumi.isSecret(output);
}

/** Every string in a mock input value that is not inside a secret wrapper: what would be stored in plain text. */
export function plainStrings(value: unknown, out: string[] = []): string[] {
    if (isWrappedSecret(value)) return out;
    if (typeof value === "string") out.push(value);
    else if (Array.isArray(value)) value.forEach((v) => plainStrings(v, out));
    else if (value && typeof value === "object") Object.values(value).forEach((v) => plainStrings(v, out));
    return out;
}
