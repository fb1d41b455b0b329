/**
 * The Linode (Akamai Cloud) regions LKE creates clusters in. @pulumi/linode ships no region list (unlike the AWS and
 * DigitalOcean SDKs, whose lists are in regions.generated.ts), so this one is recorded: the core regions with the
 * Kubernetes capability in the Linode API's answer to `GET /v4/regions`, as recorded on 2026-05-29 in
 * linode/linodego's test/integration/fixtures/TestRegions_List.yaml (commit 50cfc3e3 of 2026-07-01); 34 regions, every
 * one with Kubernetes and Block Storage. `linode-cli regions list` shows what an account sees today. When Linode
 * opens a region, add it here: until then validation refuses it, with the nearest listed one suggested.
 */

/** Region ids, alphabetically. */
export const LINODE_REGIONS: readonly string[] = [
    "ap-northeast", // Tokyo 2, JP
    "ap-south", // Singapore, SG
    "ap-southeast", // Sydney, AU
    "ap-west", // Mumbai, IN
    "au-mel", // Melbourne, AU
    "br-gru", // Sao Paulo, BR
    "ca-central", // Toronto, CA
    "de-fra-2", // Frankfurt 2, DE
    "es-mad", // Madrid, ES
    "eu-central", // Frankfurt, DE
    "eu-west", // London, UK
    "fr-par", // Paris, FR
    "fr-par-2", // Paris 2, FR
    "gb-lon", // London 2, UK
    "id-cgk", // Jakarta, ID
    "in-bom-2", // Mumbai 2, IN
    "in-maa", // Chennai, IN
    "it-mil", // Milan, IT
    "jp-osa", // Osaka, JP
    "jp-tyo-3", // Tokyo 3, JP
    "nl-ams", // Amsterdam, NL
    "no-osl-1", // Oslo, NO
    "se-sto", // Stockholm, SE
    "sg-sin-2", // Singapore 2, SG
    "us-central", // Dallas, TX
    "us-east", // Newark, NJ
    "us-iad", // Washington, DC
    "us-iad-2", // Washington 2, DC
    "us-lax", // Los Angeles, CA
    "us-mia", // Miami, FL
    "us-ord", // Chicago, IL
    "us-sea", // Seattle, WA
    "us-southeast", // Atlanta, GA
    "us-west", // Fremont, CA
];

/** Where the list comes from, for the "Allowed:" text. */
export const LINODE_REGIONS_SOURCE = "the Linode API's regions with Kubernetes, as of 2026-05-29";
