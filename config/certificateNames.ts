/**
 * A certificate from an ACME issuer (Let's Encrypt) is only issued for a name in the public DNS: the CA refuses
 * names under the special-use top-level domains (RFC 6761 `test`, `example`, `invalid`, `localhost`; RFC 6762
 * `local`; RFC 7686 `onion`; RFC 8375 `home.arpa`; RFC 9476 `alt`; ICANN's reserved `internal`), so the
 * certificate would stay pending forever and the application would serve the ingress's default certificate.
 */
import { DNS_PUBLISHING_INFRA_TYPES, InfraType, recordInDomain } from "../contracts";
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

/**
 * Whether the stack publishes `mara:fqdn` in DNS: its provider manages DNS, and Pulumi delivers the platform (under
 * `mara:delivery` gitops or operator the record is left to the user: docs/gitops.md, "What stays with Pulumi").
 */
export function publishesHostname(infraType: InfraType | undefined, delivery: string): boolean {
    return infraType !== undefined && DNS_PUBLISHING_INFRA_TYPES.includes(infraType) && delivery !== "gitops" && delivery !== "operator";
}

/** The application's host names and the keys that set them. */
export interface ApplicationHosts {
    /** `mara:fqdn` (kic-helm:fqdn): the name the platform publishes, where its provider manages DNS. */
    readonly fqdn?: string;
    readonly fqdnKey: string;
    /** `mara:siriusHostname`: the name the application is served on and its certificate is for, when set. */
    readonly hostname?: string;
    readonly hostnameKey: string;
}

/**
 * With the ACME issuer, cert-manager proves the application's name to Let's Encrypt with an HTTP-01 challenge
 * (components/certManager/component.ts: the ClusterIssuer's only solver), which Let's Encrypt fetches from wherever the name
 * points. Where the platform manages DNS (DigitalOcean: one A record, `mara:fqdn`, in the domain that name is in),
 * the name it publishes passes ({@link publishesHostname}); a certificate for another name (`mara:siriusHostname`) passes only if someone points
 * that name at the load balancer outside this stack, which validation cannot see. So it is a warning, naming what
 * the stack does not arrange and the two ways out, not a refusal: a user whose own DNS points the name is right.
 */
export function checkAcmeHostPublished(publishes: boolean, issuer: string, hosts: ApplicationHosts, findings: Findings): void {
    const { fqdn, hostname } = hosts;
    if (issuer !== "acme" || !publishes) return;
    if (fqdn === undefined || hostname === undefined || hostname === fqdn) return;
    const zone = recordInDomain(fqdn)?.domain;
    if (zone === undefined) return;
    // A special-use name has its own problem (checkAcmeHostname): no DNS could make the CA issue for it.
    if (specialUseDomain(hostname)) return;
    const inZone = hostname.endsWith(`.${zone}`);
    const record = hostname.slice(0, -(zone.length + 1));
    const what = inZone
        ? `${hostname} is in that domain, but the stack creates no record for it`
        : `${hostname} is in a domain the stack does not manage`;
    const pointIt = inZone
        ? `add its record yourself (doctl compute domain records create ${zone} --record-type A --record-name ${record} --record-data <lb_ingress_ip>)`
        : "point it at the ingress load balancer (pulumi stack output lb_ingress_ip) in the DNS that serves it";
    findings.warn(
        `${hosts.hostnameKey} = ${hostname}: the ACME issuer proves the certificate's name with an HTTP-01 challenge, which Let's Encrypt sends to wherever the name points, ` +
            `and this stack publishes only ${hosts.fqdnKey} (${fqdn}) in its DigitalOcean domain ${zone}; ${what}, so the certificate stays pending, and the application ` +
            `serves the ingress's default certificate, until the name points at the load balancer. Either ${pointIt}, or serve the application on the published name: pulumi config rm ${hosts.hostnameKey}.`,
    );
}
