import * as digitalocean from "@pulumi/digitalocean";
import * as pulumi from "@pulumi/pulumi";
import { DEFAULTS, recordInDomain } from "../contracts";

/** Arguments of {@link DnsRecord}. */
export interface DnsRecordArgs {
    /** Fully qualified host name, e.g. `mara.example.com`; its domain (`example.com`) must already be in DigitalOcean. Required. */
    fqdn: string;
    /** IP address the name points at, e.g. the ingress load balancer's. Required. */
    address: pulumi.Input<string>;
    /** Time to live in seconds. Default 1800 (MARA's). */
    ttl?: number;
}

/**
 * An A record in a DigitalOcean-managed domain pointing the platform's host name at the ingress load
 * balancer (MARA's dns-record project). The domain is looked up, not created, so a typo in the name fails
 * at preview rather than creating a zone nobody delegated.
 */
export class DnsRecord extends pulumi.ComponentResource {
    /** The full name the record serves. */
    public readonly fqdn: pulumi.Output<string>;

    constructor(name: string, args: DnsRecordArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:infra:DnsRecord", name, {}, opts);
        const [host, domain] = splitFqdn(args.fqdn);
        const zone = digitalocean.getDomainOutput({ name: domain }, { parent: this });
        const record = new digitalocean.DnsRecord(
            `${name}-a`,
            { domain: zone.name, type: "A", name: host, value: args.address, ttl: args.ttl ?? DEFAULTS.dnsRecord.ttl },
            { parent: this },
        );
        this.fqdn = record.fqdn;
        this.registerOutputs({ fqdn: this.fqdn });
    }
}

/** Splits `host.domain.tld` into the record name and the domain; throws when there is no host part. */
export function splitFqdn(fqdn: string): [string, string] {
    const split = recordInDomain(fqdn);
    if (!split) throw new Error(`DnsRecord: "${fqdn}" has no host part in a domain; use a name such as mara.example.com.`);
    return [split.record, split.domain];
}
