/**
 * A certificate from an ACME issuer (Let's Encrypt) is only issued for a name in the public DNS: the CA refuses
 * names under the special-use top-level domains (RFC 6761 `test`, `example`, `invalid`, `localhost`; RFC 6762
 * `local`; RFC 7686 `onion`; RFC 8375 `home.arpa`; RFC 9476 `alt`; ICANN's reserved `internal`), so the
 * certificate would stay pending forever and the application would serve the ingress's default certificate.
 */
import { configSetCommand } from "./problems";
import type { Findings } from "./resolve";

/** Top-level domains (and `home.arpa`) no public certificate authority issues certificates under. */
export const SPECIAL_USE_DOMAINS = ["test", "example", "invalid", "localhost", "local", "onion", "alt", "internal", "home.arpa"] as const;

/** The special-use domain `host` lies in, if any. */
export function specialUseDomain(host: string): string | undefined {
    return SPECIAL_USE_DOMAINS.find((d) => host === d || host.endsWith(`.${d}`));
}

/** With the ACME issuer, the certificate's host name must be one the CA will issue for. */
export function checkAcmeHostname(issuer: string, host: string | undefined, key: string, issuerKey: string, findings: Findings): void {
    if (issuer !== "acme" || host === undefined) return;
    const domain = specialUseDomain(host);
    if (!domain) return;
    findings.problem({
        key,
        value: host,
        problem: `is under .${domain}, a special-use domain for which the ACME issuer (Let's Encrypt) issues no certificate`,
        allowed: "a host name in public DNS that you own and that points at the ingress load balancer",
        fix: `${configSetCommand(key, "bank.your-domain.com")}, or use the self-signed issuer: ${configSetCommand(issuerKey, "selfsigned")}`,
    });
}
