/**
 * The `cluster_issuer` output names the ClusterIssuer the application's certificate actually comes from. The
 * platform creates the ACME issuer whenever an ACME email is set, so the output must follow mara:tlsIssuer, not
 * the issuer's existence.
 */
import type * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { aws } from "../support/config";
import { find, promiseOf } from "../support/mocks";
import { runProgram } from "../support/program";

async function issuers(values: Record<string, string>) {
    const run = await runProgram(aws(values));
    expect(run.error).toBeUndefined();
    const ingress = find(run.registrations, "kubernetes:networking.k8s.io/v1:Ingress", "bank-of-sirius-ingress");
    return {
        output: await promiseOf(run.outputs!.cluster_issuer as pulumi.Output<string>),
        used: (ingress.inputs!.metadata as { annotations: Record<string, string> }).annotations["cert-manager.io/cluster-issuer"],
    };
}

describe("cluster_issuer", () => {
    it("is the self-signed issuer when the application uses it, even with an ACME email set", async () => {
        expect(await issuers({ "mara:acmeEmail": "ops@example.com" })).toEqual({ output: "selfsigned-issuer", used: "selfsigned-issuer" });
    }, 120_000);

    it("is the ACME issuer when mara:tlsIssuer is acme", async () => {
        expect(await issuers({ "mara:acmeEmail": "ops@example.com", "mara:tlsIssuer": "acme", "kic-helm:fqdn": "bank.example.com" })).toEqual({ output: "letsencrypt", used: "letsencrypt" });
    }, 120_000);

    it("is the self-signed issuer without any ACME setting", async () => {
        expect(await issuers({})).toEqual({ output: "selfsigned-issuer", used: "selfsigned-issuer" });
    }, 120_000);
});
