/**
 * An ACME certificate is issued only for a name Let's Encrypt can reach through its HTTP-01 challenge. Where the
 * platform publishes its host name (DigitalOcean: one A record for mara:fqdn, while Pulumi delivers the platform), a
 * certificate for another name is warned about, naming what the stack does not arrange; nothing is said where the
 * user maps every name, for the published name itself, or for the self-signed issuer.
 */
import { describe, expect, it } from "vitest";
import { formatProblem, validateConfig } from "../../config";
import { DNS_PUBLISHING_INFRA_TYPES } from "../../contracts";
import { rawConfig } from "../support/config";

const DO = { "kubernetes:infra_type": "digitalocean", "kic-helm:fqdn": "mara.example.com", "mara:tlsIssuer": "acme", "mara:acmeEmail": "ops@example.com" };
const acmeWarnings = (values: Record<string, string>) => {
    const result = validateConfig(rawConfig({ "digitalocean:token": "t", ...values }, { secret: ["digitalocean:token"] }));
    expect(result.problems.map(formatProblem)).toEqual([]);
    return result.warnings.filter((w) => w.includes("HTTP-01"));
};

describe("an ACME certificate for a name the stack does not publish", () => {
    it("outside the DigitalOcean domain of mara:fqdn: a warning naming both ways out", () => {
        expect(acmeWarnings({ ...DO, "mara:siriusHostname": "bank.example.org" })).toEqual([
            "mara:siriusHostname = bank.example.org: the ACME issuer proves the certificate's name with an HTTP-01 challenge, which Let's Encrypt sends to wherever the name points, " +
                "and this stack publishes only kic-helm:fqdn (mara.example.com) in its DigitalOcean domain example.com; bank.example.org is in a domain the stack does not manage, so the certificate stays pending, " +
                "and the application serves the ingress's default certificate, until the name points at the load balancer. Either point it at the ingress load balancer (pulumi stack output lb_ingress_ip) " +
                "in the DNS that serves it, or serve the application on the published name: pulumi config rm mara:siriusHostname.",
        ]);
    });

    it("inside that domain but without a record: the record to add, relative to the domain", () => {
        const [w] = acmeWarnings({ ...DO, "sirius:hostname": "bank.apps.example.com" });
        expect(w).toContain("sirius:hostname = bank.apps.example.com: ");
        expect(w).toContain("bank.apps.example.com is in that domain, but the stack creates no record for it");
        expect(w).toContain("doctl compute domain records create example.com --record-type A --record-name bank.apps --record-data <lb_ingress_ip>");
        // A name that only ends like the domain is not in it.
        expect(acmeWarnings({ ...DO, "mara:siriusHostname": "bank.notexample.com" })[0]).toContain("is in a domain the stack does not manage");
    });

    it("nothing for the published name, the self-signed issuer, GitOps delivery, or a type whose DNS the user manages", () => {
        expect(acmeWarnings({ ...DO, "mara:siriusHostname": "mara.example.com" })).toEqual([]);
        expect(acmeWarnings(DO)).toEqual([]);
        expect(acmeWarnings({ ...DO, "mara:tlsIssuer": "selfsigned", "mara:siriusHostname": "bank.example.org" })).toEqual([]);
        expect(acmeWarnings({ ...DO, "mara:delivery": "gitops", "mara:gitopsRepoUrl": "https://git.example.com/platform.git", "mara:gitopsPath": "deploy/prod", "mara:siriusHostname": "bank.example.org" })).toEqual([]);
        expect(acmeWarnings({ "kubernetes:infra_type": "aws", "aws:region": "us-east-1", "kic-helm:fqdn": "mara.example.com", "mara:tlsIssuer": "acme", "mara:acmeEmail": "ops@example.com", "mara:siriusHostname": "bank.example.org" })).toEqual([]);
        expect(DNS_PUBLISHING_INFRA_TYPES).toEqual(["digitalocean"]);
    });

    it("a special-use name keeps its own problem, without this warning on top", () => {
        const result = validateConfig(rawConfig({ "digitalocean:token": "t", ...DO, "mara:siriusHostname": "bank.example.test" }, { secret: ["digitalocean:token"] }));
        expect(result.problems.map(formatProblem)).toEqual([expect.stringContaining("is under .test, a special-use domain")]);
        expect(result.warnings.filter((w) => w.includes("HTTP-01"))).toEqual([]);
    });
});
